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
#include "linetab.h"
#include "msort.h"
#include "srcinfo.h"
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

/* ---- profile data (gmon.c) -------------------------------------------------------- */
struct hist {
	uint64_t lowpc, highpc;
	uint32_t num_bins;
	uint64_t *sample;          /* sums (gprof keeps int; we keep wide sums) */
};

struct raw_arc {
	uint64_t from, self;
	uint64_t count;
};

struct raw_bb {
	uint64_t addr, count;
};

struct gmon_file_info {
	const char *name;
	int version;
	int nhist, narcs, nbbs;
	int format;                /* 0 GNU, 1 4.4BSD, 2 old BSD */
	uint32_t prof_rate;
	/* The project's target's counters, from the GNU header's spare bytes (0 in other
	 * files): samples taken, profiler-overhead samples (in no bin), arcs not recorded. */
	uint32_t samples_total, samples_overhead, arcs_dropped;
	int counters_marked;       /* the arcs word's check byte is right (doc/format.md) */
	uint64_t samples_binned;   /* what this file added to the histogram bins */
};

struct profile {
	int is64, big_endian;
	struct hist *hists;
	unsigned nhists;
	int have_rate;
	unsigned hz;
	char dimension[16];
	char abbrev;
	double hist_scale;
	struct raw_arc *arcs;
	size_t narcs, arcs_alloc;
	struct raw_bb *bbs;        /* basic-block counts, in file order */
	size_t nbbs, bbs_alloc;
	struct gmon_file_info *files;
	unsigned nfiles;
	int input_hist, input_cg, input_bb;
};

int gmon_read(struct profile *p, const char *path, int format);
void gmon_counters(const struct profile *p, uint64_t sum[3]);
unsigned gmon_counters_check(uint32_t samples, uint32_t overhead, uint32_t arcs);
void gmon_report_overhead(const struct profile *p);
int gmon_parse(struct profile *p, const char *name, const unsigned char *buf, size_t len,
	       int format);
int hist_check_overlap(struct profile *p);
void profile_release(struct profile *p);

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

/* ---- gmon.stacks: the calling-context tree (stacks.c, stackout.c) ----------------- */
struct stack_node {
	uint32_t parent;           /* 0xFFFFFFFF: a root */
	uint64_t self, from;       /* the function (0: a thread's context), its call site */
	uint32_t calls, samples;
};
struct stacks {
	const char *path;
	int big;                   /* byte order of the file */
	unsigned addr;             /* address bytes */
	uint32_t rate, n, samples, overhead, truncated, unrecorded, repaired, unhooked,
		 unswitched;
	struct stack_node *nodes;  /* n, parents first */
};
int stacks_read(struct stacks *st, const char *path);
int stacks_fit_gmon(const struct stacks *st, const struct profile *p, int named);
int stacks_decode_nodes(struct stacks *st, const unsigned char *b);
void stacks_release(struct stacks *st);
void stacks_report(const struct stacks *st);
void stacks_measure(struct analysis *a, const struct stacks *st);
int stacks_write_folded(const struct stacks *st, const struct analysis *a, const char *path);
int stacks_write_flame(const struct stacks *st, const struct analysis *a, const char *path);
int stacks_write_speedscope(const struct stacks *st, const struct analysis *a,
			    const char *path);

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

/* sum.c */
int gmon_write_sum(const struct profile *p, const struct analysis *a, const char *path);

/* blurb.c */
extern const char flat_blurb[], callg_blurb[], bsd_callg_blurb[];

/* extra outputs */
int dot_write(struct analysis *a, const char *path, double threshold);
void elide_templates(const char *name, char *out);
int svg_write(struct analysis *a, const char *path, double threshold);
int callgrind_write(struct analysis *a, const char *path);
int json_write(struct analysis *a, const char *path);

#endif
