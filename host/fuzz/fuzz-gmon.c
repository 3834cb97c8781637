/* libFuzzer target: the gmon.out reader (all formats, both widths and byte orders, as
 * chosen by the first input byte), then the analysis and both reports on a small fixed
 * symbol table, so the histogram, call-graph and basic-block code sees the hostile data
 * too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "cg_arcs.h"
#include "cg_print.h"
#include "error.h"
#include "execcount.h"
#include "fixed-analysis.h"
#include "gmon_io.h"
#include "hist.h"
#include "options.h"
#include "symspec.h"
#include "symtab.h"

static void fixed_symtab(struct symtab *tab, int is64)
{
	static const char *const names[] = {"main", "a", "b", "c", "d", "e", "f", "g"};
	fixed_symbols(tab, names);
	for (size_t i = 0; i < 8; i++)
		tab->base[i].is_static = i & 1;
	tab->is64 = is64;
	symtab_finalize(tab);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size < 1)
		return 0;
	quiet = 1;
	int mode = data[0];
	struct symtab tab;
	fixed_symtab(&tab, mode & 1);
	struct profile p = {0};
	p.is64 = mode & 1;
	p.big_endian = (mode >> 1) & 1;
	strcpy(p.dimension, "seconds");
	p.abbrev = 's';
	struct options o = {0};
	o.ignore_zeros = (mode >> 3) & 1;
	o.width = 80;
	o.brief = 1;
	if (gmon_parse(&p, "fuzz", data + 1, size - 1, (mode >> 4) % 3) == 0) {
		struct analysis a = {.tab = &tab, .prof = &p, .opt = &o, .tscale = 1.0,
				     .tunit = "seconds"};
		symspec_apply(&o, &tab);
		bb_assign(&tab, &p);
		FILE *devnull = fopen("/dev/null", "w");
		if (devnull && cg_build(&a) == 0) {
			if (p.input_hist)
				hist_assign(&a);
			if (p.input_cg)
				cg_assemble(&a);
			flat_print(&a, devnull);
			if (a.cg_sorted) {
				cg_print(&a, devnull, 1);
				cg_print_index(&a, devnull);
			}
			exec_counts_print(&a, devnull);
		}
		if (devnull)
			fclose(devnull);
		free(a.cg_sorted);
		free(a.cycles);
		free(a.arcs);
	}
	profile_release(&p);
	for (size_t i = 0; i < tab.len; i++)
		free(tab.base[i].bb);
	free(tab.base);
	return 0;
}
