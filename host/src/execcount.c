/* -C: execution counts per function ("file:line: (name:0xaddr) N executions"), gprof's
 * output when a profile has neither a histogram nor a call graph; with -l, the
 * basic-block counts of each line too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "error.h"
#include "execcount.h"
#include "gmon_io.h"
#include "msort.h"
#include "options.h"
#include "symtab.h"

static int cmp_bb(const void *l, const void *r, void *ctx)
{
	const struct sym *a = l, *b = r;
	(void)ctx;
	if (a->file && b->file) {
		int c = a->file == b->file ? 0 : strcmp(a->file, b->file);
		if (c)
			return c;
		if (a->line != b->line)
			return a->line - b->line;
	}
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Whether S prints a line when zeros are left out. */
static int has_counts(const struct sym *s)
{
	if (s->ncalls > 0)
		return 1;
	for (int j = 0; s->bb && j < NBBS && s->bb->addr[j]; j++)
		if (s->bb->calls[j] > 0)
			return 1;
	return 0;
}

/* Whether a symbol that prints nothing may be left out of the sort: cmp_bb orders
 * consistently where every symbol has a file, or none has (so the others' order stays). */
static int may_leave_out(const struct analysis *a)
{
	const struct symtab *tab = a->tab;
	if (!a->opt->ignore_zeros || !tab->len)
		return 0;
	for (size_t i = 1; i < tab->len; i++)
		if (!tab->base[i].file != !tab->base[0].file)
			return 0;
	return 1;
}

void exec_counts_print(struct analysis *a, FILE *out)
{
	struct symtab *tab = a->tab;
	void **v = xmalloc((tab->len + 1) * sizeof *v);
	size_t n = 0;
	int leave_out = may_leave_out(a);
	for (size_t i = 0; i < tab->len; i++) {
		struct sym *s = &tab->base[i];
		if (leave_out && !has_counts(s))
			continue;
		if ((s->sel >> INCL_EXEC & 1) ||
		    (a->opt->table_len[INCL_EXEC] == 0 && !(s->sel >> EXCL_EXEC & 1)))
			v[n++] = s;
	}
	msort_ptrs(v, n, cmp_bb, NULL);
	for (size_t i = 0; i < n; i++) {
		const struct sym *s = v[i];
		if (s->ncalls > 0 || !a->opt->ignore_zeros)
			fprintf(out, "%s:%d: (%s:0x%lx) %lu executions\n", s->file ? s->file : "<unknown>",
				s->line, s->name, (unsigned long)s->addr, s->ncalls);
		for (int j = 0; s->bb && j < NBBS && s->bb->addr[j]; j++)
			if (s->bb->calls[j] > 0 || !a->opt->ignore_zeros)
				fprintf(out, "%s:%d: (%s:0x%lx) %lu executions\n",
					s->file ? s->file : "<unknown>", s->line, s->name,
					(unsigned long)s->bb->addr[j], s->bb->calls[j]);
	}
	free(v);
}

/* gprof's bb_read_rec under -l: each block's count goes to the symbol (line) holding
 * its address, in one of NBBS slots by address; further addresses are dropped. */
void bb_assign(struct symtab *tab, const struct profile *p)
{
	for (size_t i = 0; i < p->nbbs; i++) {
		struct sym *s = symtab_lookup(tab, p->bbs[i].addr);
		if (!s)
			continue;
		if (!s->bb)
			s->bb = xcalloc(1, sizeof *s->bb);
		for (int j = 0; j < NBBS; j++)
			if (!s->bb->addr[j] || s->bb->addr[j] == p->bbs[i].addr) {
				s->bb->addr[j] = p->bbs[i].addr;
				s->bb->calls[j] += (unsigned long)p->bbs[i].count;
				break;
			}
	}
}
