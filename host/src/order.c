/* -r: a suggested function order for the linker, by gprof's greedy placement: unused
 * functions last, functions called from many hot call sites first, then chains built
 * along the most used arcs.  Same steps, thresholds and tie orders as gprof. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "cg_arcs.h"
#include "error.h"
#include "mapfile.h"
#include "msort.h"
#include "order.h"
#include "symtab.h"

/* gprof's placement state, kept from -r to -R as gprof keeps it in its symbols and arcs. */
struct placement {
	struct sym **next, **prev;      /* chains, by symbol index */
	unsigned char *sym_placed, *arc_placed;
	unsigned long *nuses;
	struct sym *base;
	struct arc *arcs;
	void **order;                   /* gprof's arc array: every arc but self calls, in the
					 * order made (-r sorts it by count) */
	size_t norder;
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

/* The two ends of S's chain: FIRST, NPREV links back, and LAST, NNEXT links on. */
static void chain_ends(const struct placement *pl, struct sym *s, struct sym **first,
		       int *nprev, struct sym **last, int *nnext)
{
	*first = *last = s;
	*nprev = *nnext = 0;
	while (pl->next[SI(*last)]) {
		*last = pl->next[SI(*last)];
		++*nnext;
	}
	while (pl->prev[SI(*first)]) {
		*first = pl->prev[SI(*first)];
		++*nprev;
	}
}

/* The end of S's chain that S is not at (gprof: the last if S has a next, else the first). */
static struct sym *chain_far_end(const struct placement *pl, struct sym *s)
{
	struct sym *first, *last;
	int np, nn;
	chain_ends(pl, s, &first, &np, &last, &nn);
	return pl->next[SI(s)] ? last : first;
}

/* Link PARENT and CHILD (chain ends) for ARC, on the sides gprof joins them. */
static void chain_link(struct placement *pl, struct arc *arc, struct sym *parent,
		       struct sym *child)
{
	int parent_first;           /* parent goes after child (child->next = parent) */
	if (pl->next[SI(parent)]) {
		if (pl->next[SI(child)])
			return;
		parent_first = 0;
	} else if (pl->prev[SI(parent)]) {
		if (pl->prev[SI(child)])
			return;
		parent_first = 1;
	} else {
		parent_first = !pl->prev[SI(child)];
	}
	if (parent_first) {
		pl->next[SI(parent)] = child;
		pl->prev[SI(child)] = parent;
	} else {
		pl->prev[SI(parent)] = child;
		pl->next[SI(child)] = parent;
	}
	pl->arc_placed[AI(arc)] = 1;
}

/* Try to join ARC's ends into one chain: 0, or -1 if the arc stays unplaced. */
static int chain_arc(struct placement *pl, struct arc *arc)
{
	struct sym *child = arc->child, *parent = arc->parent, *first, *last;
	int np, nn;
	if (pl->next[SI(parent)] && pl->prev[SI(parent)] && pl->next[SI(child)] &&
	    pl->prev[SI(child)])
		return -1;
	if (!pl->next[SI(parent)] && !pl->prev[SI(parent)]) {
		chain_ends(pl, child, &first, &np, &last, &nn);
		child = nn < np ? last : first;
	} else if (!pl->next[SI(child)] && !pl->prev[SI(child)]) {
		chain_ends(pl, parent, &first, &np, &last, &nn);
		parent = np < nn ? first : last;
	} else {
		return -1;
	}
	/* do not tie two ends of one chain together */
	if (chain_far_end(pl, parent) == child && chain_far_end(pl, child) == parent)
		return -1;
	chain_link(pl, arc, parent, child);
	return 0;
}

/* Print the chains the arcs made (and, with ALL, the parents of the arcs left). */
static void dump_chains(struct placement *pl, struct arc **the_arcs, size_t arc_count, int all,
			FILE *out)
{
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
		if ((!all && (double)tmp_arcs / (double)total_arcs > 0.99) ||
		    pl->sym_placed[SI(arc->child)] || pl->sym_placed[SI(arc->parent)] ||
		    chain_arc(pl, arc))
			unplaced[(*nunplaced)++] = arc;
	}
	dump_chains(pl, the_arcs, arc_count, all, out);
}

static struct placement *placement_of(struct analysis *a)
{
	if (a->placement)
		return a->placement;
	size_t n = a->tab->len;
	struct placement *pl = a->placement = xcalloc(1, sizeof *pl);
	pl->next = xcalloc(n + 1, sizeof *pl->next);
	pl->prev = xcalloc(n + 1, sizeof *pl->prev);
	pl->sym_placed = xcalloc(n + 1, 1);
	pl->arc_placed = xcalloc(a->narcs + 1, 1);
	pl->nuses = xcalloc(n + 1, sizeof *pl->nuses);
	pl->base = a->tab->base;
	pl->arcs = a->arcs;
	pl->order = xmalloc((a->narcs + 1) * sizeof *pl->order);
	for (size_t i = 0; i < a->narcs; i++)
		if (a->arcs[i].parent != a->arcs[i].child)
			pl->order[pl->norder++] = &a->arcs[i];
	return pl;
}

void order_release(struct analysis *a)
{
	struct placement *pl = a->placement;
	if (!pl)
		return;
	free(pl->next);
	free(pl->prev);
	free(pl->sym_placed);
	free(pl->arc_placed);
	free(pl->nuses);
	free(pl->order);
	free(pl);
	a->placement = NULL;
}

/* gprof's first step of -r: the functions most used by the hottest arcs (90% of the
 * calls), up to 1.25% of those called, printed, and the arcs between them (HIGH). */
static size_t pick_hot(struct placement *pl, struct sym **used, size_t nused, void **scratch,
		       struct arc **high, struct arc **scratch_arcs, FILE *out)
{
	size_t nhigh = 0, nscratch_arcs = 0, scratch_index = 0;
	unsigned long long total = 0, tmp = 0;
	for (size_t i = 0; i < pl->norder; i++)
		total += ((struct arc *)pl->order[i])->count;
	for (size_t i = 0; i < pl->norder; i++) {
		tmp += ((struct arc *)pl->order[i])->count;
		if ((double)tmp / (double)total > 0.90)
			break;
		pl->nuses[SI(((struct arc *)pl->order[i])->child)]++;
	}
	memcpy(scratch, used, nused * sizeof *scratch);
	msort_ptrs(scratch, nused, cmp_fun_nuses, pl);
	for (size_t i = 0; i < nused / 80; i++) {
		struct sym *s = scratch[i];
		if (pl->nuses[SI(s)] == 5)
			break;
		for (struct arc *arc = s->children; arc; arc = arc->next_child) {
			if (arc->parent != arc->child)
				scratch_arcs[nscratch_arcs++] = arc;
			pl->arc_placed[AI(arc)] = 1;
		}
		for (struct arc *arc = s->parents; arc; arc = arc->next_parent) {
			if (arc->parent != arc->child)
				scratch_arcs[nscratch_arcs++] = arc;
			pl->arc_placed[AI(arc)] = 1;
		}
		scratch_index = i;
		pl->sym_placed[SI(s)] = 1;
	}
	for (size_t i = 0; i < nscratch_arcs; i++) {
		struct arc *arc = scratch_arcs[i];
		if (pl->sym_placed[SI(arc->child)] && pl->sym_placed[SI(arc->parent)]) {
			high[nhigh++] = arc;
			pl->sym_placed[SI(arc->child)] = 0;
			pl->sym_placed[SI(arc->parent)] = 0;
		}
	}
	for (size_t i = 0; i < scratch_index; i++)
		if (pl->sym_placed[SI((struct sym *)scratch[i])])
			fprintf(out, "%s\n", ((struct sym *)scratch[i])->name);
	return nhigh;
}

void function_order_print(struct analysis *a, FILE *out)
{
	struct symtab *tab = a->tab;
	size_t n = tab->len, narcs = a->narcs;
	struct placement *pl = placement_of(a);
	struct sym **unused = xmalloc((n + 1) * sizeof *unused);
	struct sym **used = xmalloc((n + 1) * sizeof *used);
	void **scratch = xmalloc((n + 1) * sizeof *scratch);
	struct arc **high = xmalloc((narcs + 1) * sizeof *high);
	struct arc **scratch_arcs = xmalloc((3 * narcs + 1) * sizeof *scratch_arcs);
	struct arc **unplaced = xmalloc((3 * narcs + 1) * sizeof *unplaced);
	size_t nunused = 0, nused = 0, nscratch_arcs = 0, nunplaced = 0;

	for (size_t i = 0; i < n; i++) {
		if (tab->base[i].ncalls == 0) {
			unused[nunused++] = &tab->base[i];
			pl->sym_placed[i] = 1;
		} else {
			used[nused++] = &tab->base[i];
		}
	}
	msort_ptrs(pl->order, pl->norder, cmp_arc_count, NULL);
	size_t nhigh = pick_hot(pl, used, nused, scratch, high, scratch_arcs, out);
	msort_ptrs((void **)high, nhigh, cmp_arc_count, NULL);
	order_and_dump(pl, high, nhigh, 1, unplaced, &nunplaced, out);
	order_and_dump(pl, (struct arc **)pl->order, pl->norder, 0, unplaced, &nunplaced, out);
	order_and_dump(pl, unplaced, nunplaced, 1, scratch_arcs, &nscratch_arcs, out);
	for (size_t i = 0; i < nused; i++)
		if (!pl->sym_placed[SI(used[i])])
			fprintf(out, "%s\n", used[i]->name);
	for (size_t i = 0; i < nunused; i++)
		fprintf(out, "%s\n", unused[i]->name);
	free(unused);
	free(used);
	free(scratch);
	free(high);
	free(scratch_arcs);
	free(unplaced);
}

static int cmp_str(const void *l, const void *r)
{
	return strcmp(*(const char *const *)l, *(const char *const *)r);
}

/* -R: gprof's file ordering.  The chains of the arcs between files' symbols (arcs from or
 * to a function not in the map are left out), the files not placed in symbol order, then
 * the map's files with no symbol of their own (no text), by name. */
void file_order_print(struct analysis *a, const struct fmap *m, FILE *out)
{
	struct symtab *tab = a->tab;
	struct placement *pl = placement_of(a);
	for (size_t i = 0; i < pl->norder; i++) {
		struct arc *arc = pl->order[i];
		if (!arc->parent->mapped || !arc->child->mapped)
			pl->arc_placed[AI(arc)] = 1;
	}
	struct arc **unplaced = xmalloc((pl->norder + 1) * sizeof *unplaced);
	size_t nunplaced = 0, nmapped = 0;
	order_and_dump(pl, (struct arc **)pl->order, pl->norder, 0, unplaced, &nunplaced, out);
	const char **mapped = xmalloc((tab->len + 1) * sizeof *mapped);
	for (size_t i = 0; i < tab->len; i++) {
		if (!tab->base[i].mapped)
			continue;
		mapped[nmapped++] = tab->base[i].name;
		if (!pl->sym_placed[i])
			fprintf(out, "%s\n", tab->base[i].name);
	}
	qsort(mapped, nmapped, sizeof *mapped, cmp_str);
	const char **files = xmalloc((m->n + 1) * sizeof *files);
	for (size_t i = 0; i < m->n; i++)
		files[i] = m->e[i].file;
	qsort(files, m->n, sizeof *files, cmp_str);
	for (size_t i = 0; i < m->n; i++) {
		if (i && !strcmp(files[i - 1], files[i]))
			continue;
		if (!nmapped || !bsearch(&files[i], mapped, nmapped, sizeof *mapped, cmp_str))
			fprintf(out, "%s\n", files[i]);
	}
	free(files);
	free(mapped);
	free(unplaced);
}
