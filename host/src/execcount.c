/* -C: execution counts per function ("file:line: (name:0xaddr) N executions"), gprof's
 * output when a profile has neither a histogram nor a call graph. */
#include <stdlib.h>
#include <string.h>
#include "tgprof.h"

static int cmp_bb(const void *l, const void *r, void *ctx)
{
	const struct sym *a = l, *b = r;
	(void)ctx;
	if (a->file && b->file) {
		int c = strcmp(a->file, b->file);
		if (c)
			return c;
		if (a->line != b->line)
			return a->line - b->line;
	}
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

void exec_counts_print(struct analysis *a, FILE *out)
{
	struct symtab *tab = a->tab;
	void **v = xmalloc((tab->len + 1) * sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < tab->len; i++) {
		struct sym *s = &tab->base[i];
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
	}
	free(v);
}
