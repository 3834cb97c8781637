/* gmon.stacks (doc/format.md): the target's calling-context tree, from the stack-profiling
 * mode.  Decoded field by field in the byte order its header states; every check names
 * the file and the offset.  And the measured call graph: each arc's share of a function's
 * time from the tree, instead of gprof's estimate from call counts. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "cg_arcs.h"
#include "error.h"
#include "filebuf.h"
#include "gmon_io.h"
#include "stacks.h"
#include "symtab.h"

#define STACKS_HEADER 56u
#define NO_PARENT 0xFFFFFFFFu

static int stacks_check_header(struct stacks *st, const unsigned char *b, size_t len)
{
	const char *path = st->path;
	if (filebuf_check_start(path, b, len, "gmon.stacks", STACKS_HEADER, "gmst",
				&st->big, &st->addr))
		return -1;
	uint32_t f[10];
	for (unsigned i = 0; i < 10; i++)
		f[i] = (uint32_t)filebuf_get(b + 16 + 4 * i, 4, st->big);
	st->rate = f[0];
	st->n = f[1];
	st->samples = f[2];
	st->overhead = f[3];
	st->truncated = f[4];
	st->unrecorded = f[5];
	st->repaired = f[6];
	st->unhooked = f[7];
	st->unswitched = f[8];
	uint64_t want = STACKS_HEADER + (uint64_t)st->n * (12 + 2 * st->addr);
	if (want != len)
		return error("%s: offset 20: %u nodes need %llu bytes, the file has %zu", path,
			     st->n, (unsigned long long)want, len);
	return 0;
}

int stacks_read(struct stacks *st, const char *path)
{
	memset(st, 0, sizeof *st);
	st->path = path;
	unsigned char *b;
	size_t len;
	if (filebuf_read(path, &b, &len))
		return -1;
	int rc = stacks_check_header(st, b, len);
	if (!rc)
		rc = stacks_decode_nodes(st, b);
	free(b);
	if (rc)
		stacks_release(st);
	else
		stacks_report(st);
	return rc;
}

/* Does the tree go with the gmon files read? Its header repeats gmon.out's samples and
 * overhead (the same snapshot): a tree of another moment (over TFTP: a gmon.stacks got
 * after another gmon.out; or an old one left beside) would give measured times that are
 * not this profile's. 0 if it does; else, said on standard error, -1 for a tree named on
 * the command line (an error) and 1 for one found beside the gmon file (a warning: the
 * caller goes on without it). */
int stacks_fit_gmon(const struct stacks *st, const struct profile *p, int named)
{
	uint64_t sum[3];
	gmon_counters(p, sum);
	if (sum[0] == st->samples && sum[1] == st->overhead) {
		/* the rate is not used (the times are the histogram's), but another one says
		 * the tree was not written with this gmon.out */
		if (p->have_rate && st->rate != p->hz)
			warning("%s: offset 16: profiling rate %u, but %s's histogram has %u per "
				"second: not written with it? (the times shown are gmon.out's)",
				st->path, st->rate, p->files[0].name, p->hz);
		return 0;
	}
	char why[1024];
	snprintf(why, sizeof why, "%s: offset 24: %u samples and %u overhead, but %s%s holds "
		 "%llu and %llu: not the tree of this profile", st->path, st->samples,
		 st->overhead, p->files[0].name, p->nfiles > 1 ? " and the other gmon files" : "",
		 (unsigned long long)sum[0], (unsigned long long)sum[1]);
	return filebuf_refuse(named, why, " (over TFTP: get gmon.stacks right after its gmon.out)");
}

/* The target's loss counters, on standard error when not zero. */
void stacks_report(const struct stacks *st)
{
	if (st->unrecorded || st->truncated)
		warning("%s: the calling-context tree was full (%u nodes): %u calls got no node "
			"of their own, %u samples went to the deepest node kept (raise "
			"CYGNUM_PROFILE_STACKS_NODES)", st->path, st->n, st->unrecorded,
			st->truncated);
	if (st->unhooked)
		warning("%s: %u calls were deeper than a shadow stack keeps (raise "
			"CYGNUM_PROFILE_STACKS_DEPTH)", st->path, st->unhooked);
	if (st->unswitched)
		warning("%s: %u thread switches found no shadow stack free (raise "
			"CYGNUM_PROFILE_STACKS_THREADS)", st->path, st->unswitched);
	if (st->repaired)
		warning("%s: %u frames were left without their exit and dropped: a longjmp, a "
			"thread switched without profile_stack_switch, or else a hooked function "
			"inlined with another stack pointer than its caller's (alloca, a "
			"variable-length array: mark it no_instrument_function)", st->path,
			st->repaired);
}

int stacks_decode_nodes(struct stacks *st, const unsigned char *b)
{
	unsigned a = st->addr, size = 12 + 2 * a;
	uint64_t sum = 0;
	st->nodes = xcalloc(st->n ? st->n : 1, sizeof *st->nodes);
	for (uint32_t i = 0; i < st->n; i++) {
		const unsigned char *p = b + STACKS_HEADER + (size_t)i * size;
		struct stack_node *n = &st->nodes[i];
		n->parent = (uint32_t)filebuf_get(p, 4, st->big);
		n->self = filebuf_get(p + 4, a, st->big);
		n->from = filebuf_get(p + 4 + a, a, st->big);
		n->calls = (uint32_t)filebuf_get(p + 4 + 2 * a, 4, st->big);
		n->samples = (uint32_t)filebuf_get(p + 8 + 2 * a, 4, st->big);
		if (n->parent != NO_PARENT && n->parent >= i)
			return error("%s: offset %zu: node %u's parent %u does not come before it",
				     st->path, (size_t)(p - b), i, n->parent);
		sum += n->samples;
	}
	if (sum + st->overhead != st->samples)
		return error("%s: offset 24: %u samples, but the nodes hold %llu and the "
			     "overhead %u", st->path, st->samples, (unsigned long long)sum,
			     st->overhead);
	return 0;
}

void stacks_release(struct stacks *st)
{
	free(st->nodes);
	st->nodes = NULL;
	st->n = 0;
}

/* ---- the measured call graph ---------------------------------------------------------- */

static int cmp_arc_ends(const void *l, const void *r)
{
	const struct arc *x = *(struct arc *const *)l, *y = *(struct arc *const *)r;
	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return x->child < y->child ? -1 : x->child > y->child;
}

/* Each node's arc (from its parent's function to its own), or NULL: by a search in the
 * arcs sorted by their ends. */
static struct arc **node_arcs(struct analysis *a, const struct stacks *st, struct sym **fn)
{
	struct arc **by = xmalloc((a->narcs + 1) * sizeof *by);
	for (size_t k = 0; k < a->narcs; k++)
		by[k] = &a->arcs[k];
	qsort(by, a->narcs, sizeof *by, cmp_arc_ends);
	struct arc **of = xcalloc(st->n + 1, sizeof *of);
	for (uint32_t i = 0; i < st->n; i++) {
		uint32_t p = st->nodes[i].parent;
		if (p == NO_PARENT || !fn[i] || !fn[p])
			continue;
		struct arc key = {.parent = fn[p], .child = fn[i]}, *kp = &key;
		struct arc **hit = a->narcs ? bsearch(&kp, by, a->narcs, sizeof *by, cmp_arc_ends) : NULL;
		of[i] = hit ? *hit : NULL;
	}
	free(by);
	return of;
}

/* incl[arc]: the samples of every path through the arc, each once however often the arc
 * is on it.  That is the samples under each node whose arc no ancestor has (their subtrees
 * are disjoint): a walk of the tree, without recursion, counting each arc on the path. */
static void arcs_inclusive(const struct analysis *a, const struct stacks *st,
			   struct arc **of, double *incl)
{
	uint32_t n = st->n, *start = xcalloc(n + 2, sizeof *start), *kid = xmalloc((n + 1) * 4);
	uint64_t *sub = xcalloc(n + 1, sizeof *sub);
	for (uint32_t i = n; i-- > 0;) {
		sub[i] += st->nodes[i].samples;
		if (st->nodes[i].parent != NO_PARENT)
			sub[st->nodes[i].parent] += sub[i];
	}
	/* children by parent, the roots under a virtual node n */
	for (uint32_t i = 0; i < n; i++)
		start[(st->nodes[i].parent == NO_PARENT ? n : st->nodes[i].parent) + 1]++;
	for (uint32_t i = 0; i <= n; i++)
		start[i + 1] += start[i];
	uint32_t *fill = xmalloc((n + 1) * 4), *stack = xmalloc((n + 2) * 4), *next = xmalloc((n + 2) * 4);
	memcpy(fill, start, (n + 1) * 4);
	for (uint32_t i = 0; i < n; i++)
		kid[fill[st->nodes[i].parent == NO_PARENT ? n : st->nodes[i].parent]++] = i;
	uint32_t *on_path = xcalloc(a->narcs + 1, sizeof *on_path), depth = 0;
	stack[0] = n;
	next[0] = start[n];
	for (;;) {
		uint32_t v = stack[depth];
		if (next[depth] < start[v + 1]) {
			uint32_t k = kid[next[depth]++];
			struct arc *arc = of[k];
			if (arc && on_path[arc - a->arcs]++ == 0)
				incl[arc - a->arcs] += (double)sub[k];
			stack[++depth] = k;
			next[depth] = start[k];
			continue;
		}
		if (!depth)
			break;
		if (of[v])
			on_path[of[v] - a->arcs]--;
		depth--;
	}
	free(on_path);
	free(next);
	free(stack);
	free(fill);
	free(sub);
	free(kid);
	free(start);
}

/* Whether node i is a function inlined into its parent's frame: its enter hook saw the
 * enclosing function's call site (doc/profiling.md, "inlining"), so its from_pc is its
 * parent's.  A real call's from_pc is in the caller's code, never the same as the
 * caller's own; the recursion f -> f -> f from one site, where it is, keeps f's time f's
 * either way.  An inlined frame's samples are PCs of its caller's code, which the
 * histogram gives to the caller. */
static int inlined(const struct stacks *st, uint32_t i)
{
	uint32_t p = st->nodes[i].parent;
	return p != NO_PARENT && st->nodes[p].self && st->nodes[i].self &&
	       st->nodes[i].from == st->nodes[p].from;
}

/* own[i]: the samples of node i's frame as the histogram has them, its inlined frames'
 * included (nodes come parents first: an inlined chain ends at a real frame); an inlined
 * node is no call, so of[] has no arc for it. */
static double *frame_samples(const struct stacks *st, struct arc **of)
{
	double *own = xcalloc(st->n + 1, sizeof *own);
	uint32_t *owner = xmalloc((st->n + 1) * sizeof *owner);
	for (uint32_t i = 0; i < st->n; i++) {
		owner[i] = inlined(st, i) ? owner[st->nodes[i].parent] : i;
		own[owner[i]] += st->nodes[i].samples;
		if (owner[i] != i)
			of[i] = NULL;
	}
	free(owner);
	return own;
}

/* A function in no cycle of several (gprof's cycles keep their estimates). */
static int plain(const struct sym *s)
{
	return s && s->cyc_head == s && s->cyc_next == NULL;
}

/*
 * After gprof's propagation: every arc P -> C gets C's self time apportioned by the
 * samples taken in C's frames called from P, the frames of functions inlined into them
 * included (arc->time), and as its children's time the other samples under those frames,
 * each sample once per arc on its path however deep the recursion (arc->child_time);
 * every function's children time is its arcs' sum. Times in ticks, as the histogram's.
 * (An inlined frame's samples are in C's histogram time: counted as children too, they
 * were counted twice.)
 */
void stacks_measure(struct analysis *a, const struct stacks *st)
{
	struct sym **fn = xcalloc(st->n ? st->n : 1, sizeof *fn);
	for (uint32_t i = 0; i < st->n; i++)
		fn[i] = st->nodes[i].self ? symtab_lookup(a->tab, st->nodes[i].self) : NULL;
	/* the tree's self samples of each arc's callee frames, and their sum per callee */
	double *self_via = xcalloc(a->narcs + 1, sizeof *self_via);
	double *incl = xcalloc(a->narcs + 1, sizeof *incl);
	struct arc **of = node_arcs(a, st, fn);
	double *own = frame_samples(st, of);
	for (uint32_t i = 0; i < st->n; i++)
		if (of[i])
			self_via[of[i] - a->arcs] += own[i];
	free(own);
	arcs_inclusive(a, st, of, incl);
	free(of);
	struct symtab *tab = a->tab;
	double *self_sum = xcalloc(tab->len + 1, sizeof *self_sum);
	for (size_t k = 0; k < a->narcs; k++)
		self_sum[a->arcs[k].child - tab->base] += self_via[k];
	for (size_t k = 0; k < a->narcs; k++) {
		struct arc *arc = &a->arcs[k];
		if (!plain(arc->parent) || !plain(arc->child) || arc->parent == arc->child)
			continue;
		double total = self_sum[arc->child - tab->base];
		arc->time = total > 0 ? arc->child->time * self_via[k] / total : 0.0;
		double rest = incl[k] - self_via[k];
		arc->child_time = rest > 0 ? rest : 0.0;
	}
	for (size_t i = 0; i < tab->len; i++) {
		struct sym *s = &tab->base[i];
		if (!plain(s))
			continue;
		s->child_time = 0.0;
		for (struct arc *arc = s->children; arc; arc = arc->next_child)
			if (arc->child != s)
				s->child_time += arc->time + arc->child_time;
		s->prop_child = s->child_time;
		s->prop_self = s->time;
	}
	free(self_sum);
	free(incl);
	free(self_via);
	free(fn);
}
