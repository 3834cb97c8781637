/* Symbol specifications (symspecs) of -p/-P/-q/-Q/-n/-N/-k, matched as gprof does:
 * "file:function", "file:line", "file" (has a dot), "line" (digits), "function". */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "options.h"
#include "symspec.h"
#include "symtab.h"

static void parse_one(char *spec, char **file, char **name, int *line)
{
	*file = *name = NULL;
	*line = 0;
	char *colon = strrchr(spec, ':');
	if (colon) {
		*colon = 0;
		if (colon > spec)
			*file = spec;
		spec = colon + 1;
		if (*spec) {
			if (isdigit((unsigned char)spec[0]))
				*line = atoi(spec);
			else
				*name = spec;
		}
	} else if (*spec) {
		if (strchr(spec, '.'))
			*file = spec;
		else if (isdigit((unsigned char)*spec))
			*line = atoi(spec);
		else
			*name = spec;
	}
}

int symspec_add(struct options *o, const char *spec, int table)
{
	o->specs = xrealloc(o->specs, (o->nspecs + 1) * sizeof *o->specs);
	struct symspec *s = &o->specs[o->nspecs++];
	memset(s, 0, sizeof *s);
	s->table = table;
	char *copy = xstrdup(spec);
	char *slash = strchr(copy, '/');
	if (slash && (table == INCL_ARCS || table == EXCL_ARCS)) {
		*slash = 0;
		s->has_right = 1;
		parse_one(slash + 1, &s->rfile, &s->rname, &s->rline);
	}
	parse_one(copy, &s->file, &s->name, &s->line);
	s->owned = copy;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static int match(const char *file, const char *name, int line, const struct sym *sym)
{
	if (file && (!sym->file || strcmp(file, base_name(sym->file))))
		return 0;
	if (line && line != sym->line)
		return 0;
	if (name && (!sym->name || strcmp(name, sym->name)))
		return 0;
	return 1;
}

static int cmp_entry(const void *l, const void *r)
{
	const struct arc_entry *x = l, *y = r;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* gprof's sym_id_parse for one table of arcs: every run of consecutive symbols a spec's
 * FROM matches is an entry (specs taken last given first, as gprof keeps them), sorted
 * by address; of the entries at one address only the first survives (symtab_finalize),
 * that is, the spec given last.  So a FROM without /TO, which has no arcs, deletes
 * nothing, but it hides an earlier FROM/TO of the same FROM, as in gprof. */
static void arc_table_build(struct options *o, const struct symtab *tab, int table,
			    struct arc_entry **out, size_t *out_len)
{
	*out = NULL;
	*out_len = 0;
	size_t k = 0;
	while (k < o->nspecs && o->specs[k].table != table)
		k++;
	if (k == o->nspecs)
		return;                /* (no spec of this table: no symbol to match) */
	size_t *last = xcalloc(o->nspecs + 1, sizeof *last);   /* symbol index + 1 */
	size_t *open = xcalloc(o->nspecs + 1, sizeof *open);   /* its run's entry */
	struct arc_entry *e = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < tab->len; i++) {
		const struct sym *sym = &tab->base[i];
		for (size_t k = o->nspecs; k-- > 0;) {
			const struct symspec *s = &o->specs[k];
			if (s->table != table || !match(s->file, s->name, s->line, sym))
				continue;
			if (last[k] && last[k] == i) {
				e[open[k]].end_addr = sym->end_addr;
			} else {
				if (n == cap) {
					cap = cap ? 2 * cap : 16;
					e = xrealloc(e, cap * sizeof *e);
				}
				e[n] = (struct arc_entry){sym->addr, sym->end_addr, k, n};
				open[k] = n++;
			}
			last[k] = i + 1;
		}
	}
	if (n)
		qsort(e, n, sizeof *e, cmp_entry);
	size_t kept = 0;
	for (size_t j = 0; j < n; j++)
		if (!kept || e[kept - 1].addr != e[j].addr)
			e[kept++] = e[j];
	free(last);
	free(open);
	*out = e;
	*out_len = kept;
}

/* Whether every spec selects by function name alone: then two symbols of one name (-l's
 * lines of a function) are selected alike. */
static int names_only(const struct options *o)
{
	for (size_t k = 0; k < o->nspecs; k++)
		if (o->specs[k].file || o->specs[k].line)
			return 0;
	return 1;
}

/* A name's selection, remembered (symspec_apply). */
struct sel_memo {
	const char *name;
	unsigned sel;
	unsigned len[NUM_TABLES];
};

void symspec_apply(struct options *o, struct symtab *tab)
{
	/* where names alone select, a name met again (by pointer: -l's lines of a function
	 * and of what is inlined into it share theirs) is selected as before */
	enum { MEMO = 256 };
	struct sel_memo *memo = names_only(o) ? xcalloc(MEMO, sizeof *memo) : NULL;
	for (size_t i = 0; i < tab->len; i++) {
		struct sym *sym = &tab->base[i];
		struct sel_memo *m = NULL, one;
		if (memo) {
			m = &memo[((uintptr_t)sym->name >> 3 ^ (uintptr_t)sym->name >> 11) % MEMO];
			if (m->name && m->name == sym->name) {
				sym->sel = m->sel;
				for (int t = 0; m->sel && t < NUM_TABLES; t++)
					o->table_len[t] += m->len[t];
				continue;
			}
		} else {
			m = &one;
		}
		memset(m, 0, sizeof *m);
		for (size_t k = 0; k < o->nspecs; k++) {
			struct symspec *s = &o->specs[k];
			if (match(s->file, s->name, s->line, sym)) {
				m->sel |= 1u << s->table;
				m->len[s->table]++;
			}
		}
		m->name = sym->name;
		sym->sel = m->sel;
		for (int t = 0; m->sel && t < NUM_TABLES; t++)
			o->table_len[t] += m->len[t];
	}
	free(memo);
	arc_table_build(o, tab, INCL_ARCS, &o->arc_tab[0], &o->arc_tab_len[0]);
	arc_table_build(o, tab, EXCL_ARCS, &o->arc_tab[1], &o->arc_tab_len[1]);
}

/* gprof's sym_id_arc_is_present: an entry holds PARENT's address and its spec's TO
 * matches CHILD. */
int symspec_arc_selected(const struct options *o, const struct sym *parent,
			 const struct sym *child, int table)
{
	int t = table == EXCL_ARCS;
	for (size_t j = 0; j < o->arc_tab_len[t]; j++) {
		const struct arc_entry *e = &o->arc_tab[t][j];
		const struct symspec *s = &o->specs[e->spec];
		if (parent->addr >= e->addr && parent->addr <= e->end_addr && s->has_right &&
		    match(s->rfile, s->rname, s->rline, child))
			return 1;
	}
	return 0;
}

unsigned symspec_table_len(const struct options *o, int table)
{
	return o->table_len[table];
}

void symspec_release(struct options *o)
{
	for (size_t k = 0; k < o->nspecs; k++)
		free(o->specs[k].owned);
	free(o->specs);
	o->specs = NULL;
	for (int t = 0; t < 2; t++) {
		free(o->arc_tab[t]);
		o->arc_tab[t] = NULL;
		o->arc_tab_len[t] = 0;
	}
	o->nspecs = 0;
}
