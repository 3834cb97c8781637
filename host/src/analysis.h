/* The analysis of one run: the symbols, the profile, the options, and what is computed
 * from them (totals, cycles, the call graph's arcs), handed to every output. */
#ifndef TGPROF_ANALYSIS_H
#define TGPROF_ANALYSIS_H

#include <stddef.h>

struct symtab;
struct profile;
struct options;
struct sym;
struct arc;
struct stacks;
struct tasks;
struct placement;

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
	const struct tasks *tasks;   /* gmon.tasks: the tasks' samples and names */
	const unsigned char *chosen_tasks; /* --task: a flag per task (slot order), or NULL */
	struct placement *placement; /* -r and -R: gprof's placement state (order.c) */
};

#endif
