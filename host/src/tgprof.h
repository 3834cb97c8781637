/* tgprof: a gprof-compatible profile analyzer.  The modules' headers, and what is not
 * yet in one of its own. */
#ifndef TGPROF_H
#define TGPROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "addrtrie.h"
#include "analysis.h"
#include "cg_arcs.h"
#include "elfsym.h"
#include "error.h"
#include "gmon_io.h"
#include "hist.h"
#include "linetab.h"
#include "mapfile.h"
#include "msort.h"
#include "options.h"
#include "srcinfo.h"
#include "stacks.h"
#include "sum.h"
#include "symspec.h"
#include "symtab.h"

void cg_print(struct analysis *a, FILE *out, int form_feed);
void cg_print_index(struct analysis *a, FILE *out);
void exec_counts_print(struct analysis *a, FILE *out);
void bb_assign(struct symtab *tab, const struct profile *p);
void function_order_print(struct analysis *a, FILE *out);
void file_order_print(struct analysis *a, const struct fmap *m, FILE *out);
void order_release(struct analysis *a);
int annotated_source_print(struct analysis *a, int *first_output);
void print_name(const struct analysis *a, const struct sym *s, FILE *out);
int print_name_only(const struct analysis *a, const struct sym *s, FILE *out);
const char *print_dname(const struct analysis *a, const struct sym *s);

/* demangle.c */
char *demangle(const char *name);

/* respfile.c: @FILE arguments */
char **args_expand(int *argc, char **argv);

/* blurb.c */
extern const char flat_blurb[], callg_blurb[], bsd_callg_blurb[];

/* extra outputs */
int dot_write(struct analysis *a, const char *path, double threshold);
void elide_templates(const char *name, char *out);
int svg_write(struct analysis *a, const char *path, double threshold);
int callgrind_write(struct analysis *a, const char *path);
int json_write(struct analysis *a, const char *path);

#endif
