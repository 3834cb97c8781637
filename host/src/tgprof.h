/* tgprof: a gprof-compatible profile analyzer.  The modules' headers, and what is not
 * yet in one of its own. */
#ifndef TGPROF_H
#define TGPROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "addrtrie.h"
#include "elfsym.h"
#include "error.h"
#include "gmon_io.h"
#include "linetab.h"
#include "msort.h"
#include "srcinfo.h"
#include "stacks.h"
#include "sum.h"
#include "symtab.h"

struct arc {
	struct sym *parent, *child;
	unsigned long count;
	double time, child_time;
	struct arc *next_parent, *next_child;
	size_t seq;                /* creation order */
};

/* Symspec table ids (bits of struct sym.sel). */
enum { INCL_GRAPH, EXCL_GRAPH, INCL_ARCS, EXCL_ARCS, INCL_FLAT, EXCL_FLAT,
       INCL_TIME, EXCL_TIME, INCL_EXEC, EXCL_EXEC, INCL_ANNO, EXCL_ANNO, NUM_TABLES };

/* ---- options ---------------------------------------------------------------------- */
struct symspec {
	char *file, *name;
	int line;
	int has_right;
	char *rfile, *rname;
	int rline;
	int table;
	char *owned;
};

/* gprof's table of arcs for -k and -q/-Q FROM/TO: one entry per run of consecutive
 * symbols a spec's FROM matches, one entry per address (symspec.c). */
struct arc_entry {
	uint64_t addr, end_addr;
	size_t spec;               /* index into struct options.specs */
	size_t seq;                /* creation order (ties) */
};

struct options {
	int brief;                 /* -b */
	int ignore_zeros;          /* default 1, -z clears */
	int style, user_specified; /* STYLE_* */
	int bsd;                   /* -T */
	int width;                 /* -w */
	int print_path;            /* -L */
	int lines;                 /* -l: line-by-line */
	int inline_files;          /* --inline-file-names */
	int static_calls;          /* -c */
	int all_lines, separate_files, table_length, min_count; /* -x -y -t -m */
	char **search;             /* -I */
	size_t nsearch;
	int units;                 /* 0 seconds, 1 ms, 2 us (--time-unit) */
	int no_index;
	int no_demangle;
	struct symspec *specs;
	size_t nspecs;
	const char *dot, *svg, *callgrind, *json;
	const char *stacks, *folded, *flame, *speedscope;   /* gmon.stacks and its outputs */
	double dot_threshold;
	int extra_warnings;
	unsigned table_len[NUM_TABLES];
	struct arc_entry *arc_tab[2];  /* INCL_ARCS, EXCL_ARCS */
	size_t arc_tab_len[2];
};

enum { STYLE_FLAT = 1, STYLE_GRAPH = 2, STYLE_INFO = 4, STYLE_SUM = 8, STYLE_EXEC = 16,
       STYLE_ORDER = 32, STYLE_ANNO = 64, STYLE_FILE_ORDER = 128 };

/* symspec.c */
int symspec_add(struct options *o, const char *spec, int table);
void symspec_apply(struct options *o, struct symtab *tab);
int symspec_arc_selected(const struct options *o, const struct sym *parent,
			 const struct sym *child, int table);
unsigned symspec_table_len(const struct options *o, int table);
void symspec_release(struct options *o);

/* mapfile.c: -R, gprof's map of functions to object files */
struct fmap_entry {
	char *file, *func;
	int is_first;              /* the first line of a run of lines of one file */
};
struct fmap {
	struct fmap_entry *e;      /* in the file's order */
	size_t n;
	void **byname;             /* the entries by function name (stable) */
};
int fmap_read(struct fmap *m, const char *path);
void fmap_apply(const struct fmap *m, struct symtab *tab);
void fmap_release(struct fmap *m);

/* ---- analysis --------------------------------------------------------------------- */
struct analysis {
	struct symtab *tab;
	struct profile *prof;
	struct options *opt;
	double total_time;         /* flat profile total */
	double print_time;         /* call graph total */
	struct sym *cycles;        /* cycle headers, 1-based */
	int ncycles;
	struct sym **cg_sorted;    /* by total time, len + ncycles */
	struct arc *arcs;          /* all arcs */
	size_t narcs, arcs_cap;
	double tscale;             /* --time-unit: 1 (seconds), 1e3 or 1e6 */
	const char *tunit;         /* the dimension name printed, "seconds" unless --time-unit */
	const struct stacks *stacks; /* gmon.stacks: the call graph's times are measured */
	struct placement *placement; /* -r and -R: gprof's placement state (order.c) */
};

void hist_assign(struct analysis *a);
void flat_print(struct analysis *a, FILE *out);
int cg_build(struct analysis *a);
void cg_assemble(struct analysis *a);
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
