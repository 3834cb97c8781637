/* cgprint.c: the call graph and its index as gprof prints them, and symbol names as
 * printed everywhere (demangled, with cycle and index). */
#ifndef TGPROF_CG_PRINT_H
#define TGPROF_CG_PRINT_H

#include <stdio.h>

struct analysis;
struct sym;

void cg_print(struct analysis *a, FILE *out, int form_feed);
void cg_print_index(struct analysis *a, FILE *out);
void print_name(const struct analysis *a, const struct sym *s, FILE *out);
int print_name_only(const struct analysis *a, const struct sym *s, FILE *out);
const char *print_dname(const struct analysis *a, const struct sym *s);

#endif
