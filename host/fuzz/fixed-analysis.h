/* The fuzz targets' fixed analysis: a small symbol table and profile for what is made of
 * a fuzzed companion file (gmon.stacks, gmon.tasks) to be made over. */
#ifndef TGPROF_FIXED_ANALYSIS_H
#define TGPROF_FIXED_ANALYSIS_H

#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "error.h"
#include "gmon_io.h"
#include "options.h"
#include "symtab.h"

/* Eight functions at 0x1000 + 0x40 i, and arcs between each and the next two. */
static void fixed_analysis(struct symtab *tab, struct profile *p, struct analysis *a,
			   struct options *o)
{
	static const char *names[] = {"main", "_ZN1a1fEv", "b", "c", "d", "e", "f", "g"};
	memset(tab, 0, sizeof *tab);
	tab->len = tab->alloc_len = 8;
	tab->base = xcalloc(9, sizeof *tab->base);
	for (size_t i = 0; i < 8; i++) {
		tab->base[i].addr = 0x1000 + 0x40 * i;
		tab->base[i].name = names[i];
		tab->base[i].is_func = 1;
		tab->base[i].order = i;
		tab->base[i].time = (double)i;
	}
	tab->text_end = 0x1200;
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
static void fixed_analysis_release(struct symtab *tab, struct profile *p, struct analysis *a)
{
	free(a->cg_sorted);
	free(a->cycles);
	free(a->arcs);
	profile_release(p);
	symtab_release(tab);
}

#endif
