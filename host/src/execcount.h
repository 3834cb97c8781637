/* execcount.c: -C, call counts per function, and -l's basic-block counts per line. */
#ifndef TGPROF_EXECCOUNT_H
#define TGPROF_EXECCOUNT_H

#include <stdio.h>

struct analysis;
struct symtab;
struct profile;

void exec_counts_print(struct analysis *a, FILE *out);
void bb_assign(struct symtab *tab, const struct profile *p);

#endif
