/* The options of a run, as main parses them. */
#ifndef TGPROF_OPTIONS_H
#define TGPROF_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

/* Symspec table ids (bits of struct sym.sel). */
enum { INCL_GRAPH, EXCL_GRAPH, INCL_ARCS, EXCL_ARCS, INCL_FLAT, EXCL_FLAT,
       INCL_TIME, EXCL_TIME, INCL_EXEC, EXCL_EXEC, INCL_ANNO, EXCL_ANNO, NUM_TABLES };

enum { STYLE_FLAT = 1, STYLE_GRAPH = 2, STYLE_INFO = 4, STYLE_SUM = 8, STYLE_EXEC = 16,
       STYLE_ORDER = 32, STYLE_ANNO = 64, STYLE_FILE_ORDER = 128, STYLE_TASKS = 256 };

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
	const char *tasks_file, *task;   /* gmon.tasks; --task: the one task reported */
	int clones;                /* --clones: CLONES_DEFAULT, _FOLD or _OWN (clones.h) */
	double dot_threshold;
	int extra_warnings;
	unsigned table_len[NUM_TABLES];
	struct arc_entry *arc_tab[2];  /* INCL_ARCS, EXCL_ARCS */
	size_t arc_tab_len[2];
};

#endif
