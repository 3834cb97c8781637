/* hist.c: the histogram's samples charged to symbols, and the flat profile. */
#ifndef TGPROF_HIST_H
#define TGPROF_HIST_H

#include <stdio.h>

struct analysis;

void hist_assign(struct analysis *a);
/* "granularity: each sample hit covers N byte(s)": N as gprof prints it. */
long hist_granularity(const struct analysis *a);
void flat_print(struct analysis *a, FILE *out);

#endif
