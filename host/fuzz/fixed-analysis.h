/* The fuzz targets' fixed symbols (every target's) and analysis (over which what is made of
 * a fuzzed companion file, gmon.stacks or gmon.tasks, is made). */
#ifndef TGPROF_FIXED_ANALYSIS_H
#define TGPROF_FIXED_ANALYSIS_H

#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "error.h"
#include "gmon_io.h"
#include "options.h"
#include "symtab.h"

/* Eight functions, NAMES, at 0x1000 + 0x40 i, and .text's end after them (the caller
 * sets what else it needs and finalizes the table). */
static inline void fixed_symbols(struct symtab *tab, const char *const names[8])
{
	memset(tab, 0, sizeof *tab);
	tab->len = tab->alloc_len = 8;
	tab->base = xcalloc(9, sizeof *tab->base);
	for (size_t i = 0; i < 8; i++) {
		tab->base[i].addr = 0x1000 + 0x40 * i;
		tab->base[i].name = names[i];
		tab->base[i].is_func = 1;
		tab->base[i].order = i;
	}
	tab->text_end = 0x1000 + 0x40 * 8;
}

/* Eight functions with samples (a C++ name among them), and arcs between each and the
 * next two. */
static inline void fixed_analysis(struct symtab *tab, struct profile *p, struct analysis *a,
				  struct options *o)
{
	static const char *const names[] = {"main", "_ZN1a1fEv", "b", "c", "d", "e", "f", "g"};
	fixed_symbols(tab, names);
	for (size_t i = 0; i < 8; i++)
		tab->base[i].time = (double)i;
	symtab_finalize(tab);
	memset(p, 0, sizeof *p);
	for (unsigned i = 0; i < 8; i++)
		for (unsigned d = 1; d <= 2; d++) {
			p->arcs = xrealloc(p->arcs, (p->narcs + 1) * sizeof *p->arcs);
			p->arcs[p->narcs++] = (struct raw_arc){0x1004 + 0x40 * i,
							       0x1000 + 0x40 * ((i + d) % 8), 3};
		}
	p->input_cg = 1;
	memset(o, 0, sizeof *o);
	o->ignore_zeros = 1;
	*a = (struct analysis){.tab = tab, .prof = p, .opt = o, .tscale = 1.0, .tunit = "seconds"};
}

/* What fixed_analysis and the analysis allocated. */
static inline void fixed_analysis_release(struct symtab *tab, struct profile *p, struct analysis *a)
{
	free(a->cg_sorted);
	free(a->cycles);
	free(a->arcs);
	profile_release(p);
	symtab_release(tab);
}

#endif
