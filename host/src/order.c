/* -r: a suggested function order for the linker, by gprof's greedy placement: unused
 * functions last, functions called from many hot call sites first, then chains built
 * along the most used arcs.  Same steps, thresholds and tie orders as gprof. */
#include <stdlib.h>
#include <string.h>
#include "tgprof.h"

struct placement {
	struct sym **next, **prev;      /* chains, by symbol index */
	unsigned char *sym_placed, *arc_placed;
	unsigned long *nuses;
	struct sym *base;
	struct arc *arcs;
};

#define SI(s) ((size_t)((s) - pl->base))
#define AI(a) ((size_t)((a) - pl->arcs))

static int cmp_arc_count(const void *l, const void *r, void *ctx)
{
	const struct arc *a = l, *b = r;
	(void)ctx;
	return a->count > b->count ? -1 : a->count < b->count;
}

static int cmp_fun_nuses(const void *l, const void *r, void *ctx)
{
	const struct placement *pl = ctx;
	const struct sym *a = l, *b = r;
	unsigned long x = pl->nuses[SI(a)], y = pl->nuses[SI(b)];
	return x > y ? -1 : x < y;
}

static void order_and_dump(struct placement *pl, struct arc **the_arcs, size_t arc_count, int all,
			   struct arc **unplaced, size_t *nunplaced, FILE *out)
{
	unsigned long long tmp_arcs = 0, total_arcs = 0;
	if (!all)
		for (size_t i = 0; i < arc_count; i++)
			total_arcs += the_arcs[i]->count;
	for (size_t i = 0; i < arc_count; i++) {
		struct arc *arc = the_arcs[i];
		tmp_arcs += arc->count;
		if (pl->arc_placed[AI(arc)])
			continue;
		struct sym *child = arc->child, *parent = arc->parent;
		if ((!all && (double)tmp_arcs / (double)total_arcs > 0.99) ||
		    pl->sym_placed[SI(child)] || pl->sym_placed[SI(parent)]) {
			unplaced[(*nunplaced)++] = arc;
			continue;
		}
		if (pl->next[SI(parent)] && pl->prev[SI(parent)] && pl->next[SI(child)] &&
		    pl->prev[SI(child)]) {
			unplaced[(*nunplaced)++] = arc;
			continue;
		}
		if (!pl->next[SI(parent)] && !pl->prev[SI(parent)]) {
			int nc = 0, pc = 0;
			struct sym *p = child, *n = child;
			while (pl->next[SI(n)]) {
				n = pl->next[SI(n)];
				nc++;
			}
			while (pl->prev[SI(p)]) {
				p = pl->prev[SI(p)];
				pc++;
			}
			child = nc < pc ? n : p;
		} else if (!pl->next[SI(child)] && !pl->prev[SI(child)]) {
			int nc = 0, pc = 0;
			struct sym *p = parent, *n = parent;
			while (pl->next[SI(n)]) {
				n = pl->next[SI(n)];
				nc++;
			}
			while (pl->prev[SI(p)]) {
				p = pl->prev[SI(p)];
				pc++;
			}
			parent = pc < nc ? p : n;
		} else {
			unplaced[(*nunplaced)++] = arc;
			continue;
		}
		/* do not tie two ends of one chain together */
		struct sym *s1 = parent, *s2 = child;
		if (pl->next[SI(s1)])
			while (pl->next[SI(s1)])
				s1 = pl->next[SI(s1)];
		else
			while (pl->prev[SI(s1)])
				s1 = pl->prev[SI(s1)];
		if (pl->next[SI(s2)])
			while (pl->next[SI(s2)])
				s2 = pl->next[SI(s2)];
		else
			while (pl->prev[SI(s2)])
				s2 = pl->prev[SI(s2)];
		if (s1 == child && s2 == parent) {
			unplaced[(*nunplaced)++] = arc;
			continue;
		}
		if (pl->next[SI(parent)]) {
			if (!pl->next[SI(child)]) {
				pl->prev[SI(parent)] = child;
				pl->next[SI(child)] = parent;
				pl->arc_placed[AI(arc)] = 1;
			}
		} else if (pl->prev[SI(parent)]) {
			if (!pl->prev[SI(child)]) {
				pl->next[SI(parent)] = child;
				pl->prev[SI(child)] = parent;
				pl->arc_placed[AI(arc)] = 1;
			}
		} else if (pl->prev[SI(child)]) {
			pl->prev[SI(parent)] = child;
			pl->next[SI(child)] = parent;
			pl->arc_placed[AI(arc)] = 1;
		} else {
			pl->next[SI(parent)] = child;
			pl->prev[SI(child)] = parent;
			pl->arc_placed[AI(arc)] = 1;
		}
	}
	/* the chains made */
	for (size_t i = 0; i < arc_count; i++) {
		struct arc *arc = the_arcs[i];
		if (pl->sym_placed[SI(arc->parent)] || pl->sym_placed[SI(arc->child)])
			continue;
		struct sym *s = arc->parent;
		if (!pl->next[SI(s)] && !pl->prev[SI(s)])
			continue;
		while (pl->prev[SI(s)])
			s = pl->prev[SI(s)];
		for (; s; s = pl->next[SI(s)]) {
			pl->sym_placed[SI(s)] = 1;
			fprintf(out, "%s\n", s->name);
		}
	}
	if (all)
		for (size_t i = 0; i < arc_count; i++) {
			struct arc *arc = the_arcs[i];
			if (pl->sym_placed[SI(arc->parent)] || pl->sym_placed[SI(arc->child)])
				continue;
			pl->sym_placed[SI(arc->parent)] = 1;
			fprintf(out, "%s\n", arc->parent->name);
		}
}

#define SIP(s) ((size_t)((s) - pl.base))
#define AIP(a) ((size_t)((a) - pl.arcs))

void function_order_print(struct analysis *a, FILE *out)
{
	struct symtab *tab = a->tab;
	size_t n = tab->len;
	struct placement pl = {
		xcalloc(n + 1, sizeof(struct sym *)), xcalloc(n + 1, sizeof(struct sym *)),
		xcalloc(n + 1, 1), xcalloc(a->narcs + 1, 1), xcalloc(n + 1, sizeof(unsigned long)),
		tab->base, a->arcs,
	};
	struct sym **unused = xmalloc((n + 1) * sizeof *unused);
	struct sym **used = xmalloc((n + 1) * sizeof *used);
	void **scratch = xmalloc((n + 1) * sizeof *scratch);
	/* gprof's arc array: every arc but self calls, in the order made */
	void **arcs = xmalloc((a->narcs + 1) * sizeof *arcs);
	struct arc **high = xmalloc((a->narcs + 1) * sizeof *high);
	struct arc **scratch_arcs = xmalloc((3 * a->narcs + 1) * sizeof *scratch_arcs);
	struct arc **unplaced = xmalloc((3 * a->narcs + 1) * sizeof *unplaced);
	size_t nunused = 0, nused = 0, narcs = 0, nhigh = 0, nscratch_arcs = 0, nunplaced = 0;
	size_t scratch_index = 0;

	for (size_t i = 0; i < n; i++) {
		if (tab->base[i].ncalls == 0) {
			unused[nunused++] = &tab->base[i];
			pl.sym_placed[i] = 1;
		} else {
			used[nused++] = &tab->base[i];
		}
	}
	for (size_t i = 0; i < a->narcs; i++)
		if (a->arcs[i].parent != a->arcs[i].child)
			arcs[narcs++] = &a->arcs[i];
	msort_ptrs(arcs, narcs, cmp_arc_count, NULL);
	unsigned long long total = 0, tmp = 0;
	for (size_t i = 0; i < narcs; i++)
		total += ((struct arc *)arcs[i])->count;
	for (size_t i = 0; i < narcs; i++) {
		tmp += ((struct arc *)arcs[i])->count;
		if ((double)tmp / (double)total > 0.90)
			break;
		pl.nuses[SIP(((struct arc *)arcs[i])->child)]++;
	}
	memcpy(scratch, used, nused * sizeof *scratch);
	msort_ptrs(scratch, nused, cmp_fun_nuses, &pl);
	for (size_t i = 0; i < nused / 80; i++) {
		struct sym *s = scratch[i];
		if (pl.nuses[SIP(s)] == 5)
			break;
		for (struct arc *arc = s->children; arc; arc = arc->next_child) {
			if (arc->parent != arc->child)
				scratch_arcs[nscratch_arcs++] = arc;
			pl.arc_placed[AIP(arc)] = 1;
		}
		for (struct arc *arc = s->parents; arc; arc = arc->next_parent) {
			if (arc->parent != arc->child)
				scratch_arcs[nscratch_arcs++] = arc;
			pl.arc_placed[AIP(arc)] = 1;
		}
		scratch_index = i;
		pl.sym_placed[SIP(s)] = 1;
	}
	for (size_t i = 0; i < nscratch_arcs; i++) {
		struct arc *arc = scratch_arcs[i];
		if (pl.sym_placed[SIP(arc->child)] && pl.sym_placed[SIP(arc->parent)]) {
			high[nhigh++] = arc;
			pl.sym_placed[SIP(arc->child)] = 0;
			pl.sym_placed[SIP(arc->parent)] = 0;
		}
	}
	for (size_t i = 0; i < scratch_index; i++)
		if (pl.sym_placed[SIP((struct sym *)scratch[i])])
			fprintf(out, "%s\n", ((struct sym *)scratch[i])->name);
	msort_ptrs((void **)high, nhigh, cmp_arc_count, NULL);
	order_and_dump(&pl, high, nhigh, 1, unplaced, &nunplaced, out);
	order_and_dump(&pl, (struct arc **)arcs, narcs, 0, unplaced, &nunplaced, out);
	nscratch_arcs = 0;
	order_and_dump(&pl, unplaced, nunplaced, 1, scratch_arcs, &nscratch_arcs, out);
	for (size_t i = 0; i < nused; i++)
		if (!pl.sym_placed[SIP(used[i])])
			fprintf(out, "%s\n", used[i]->name);
	for (size_t i = 0; i < nunused; i++)
		fprintf(out, "%s\n", unused[i]->name);
	free(pl.next);
	free(pl.prev);
	free(pl.sym_placed);
	free(pl.arc_placed);
	free(pl.nuses);
	free(unused);
	free(used);
	free(scratch);
	free(arcs);
	free(high);
	free(scratch_arcs);
	free(unplaced);
}
