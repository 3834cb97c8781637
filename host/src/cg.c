/* The call graph: arcs, depth-first numbering with cycle detection, time propagation.
 * Same results as gprof's cg_arcs.c/cg_dfn.c, in O(n log n): arcs are found through a
 * hash table, and cycles are merged with union-find instead of rescanning the stack. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "cg_arcs.h"
#include "error.h"
#include "gmon_io.h"
#include "msort.h"
#include "options.h"
#include "stacks.h"
#include "strrank.h"
#include "symspec.h"
#include "symtab.h"

#define DFN_NAN 0
#define DFN_BUSY -1

/* ---- arcs --------------------------------------------------------------------------- */
struct arcmap {
	size_t *slot;              /* arc index + 1, 0 empty */
	size_t mask;
};

static size_t hash2(size_t a, size_t b)
{
	uint64_t h = (uint64_t)a * 0x9E3779B97F4A7C15ull ^ ((uint64_t)b + 0x632BE59BD9B4E019ull);
	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 32;
	return (size_t)h;
}

/* A new arc of COUNT calls from PARENT to CHILD, first in both symbols' lists. */
static void arc_new(struct analysis *a, struct sym *parent, struct sym *child,
		    unsigned long count)
{
	struct arc *arc = &a->arcs[a->narcs++];
	arc->parent = parent;
	arc->child = child;
	arc->count = count;
	arc->seq = a->narcs;
	arc->next_child = parent->children;
	parent->children = arc;
	arc->next_parent = child->parents;
	child->parents = arc;
}

/* Add COUNT calls from PARENT to CHILD: to their arc if there is one (found through M),
 * else to a new arc, linked into both symbols' lists. */
static void arc_tally(struct analysis *a, struct arcmap *m, struct sym *parent,
		      struct sym *child, unsigned long count)
{
	size_t pi = parent - a->tab->base, ci = child - a->tab->base;
	size_t h = hash2(pi, ci) & m->mask;
	while (m->slot[h]) {
		struct arc *c = &a->arcs[m->slot[h] - 1];
		if (c->parent == parent && c->child == child) {
			c->count += count;
			return;
		}
		h = (h + 1) & m->mask;
	}
	arc_new(a, parent, child, count);
	m->slot[h] = a->narcs;
}

/* A Cortex-M handler's mcount (and that of a function it tail-calls) sees the
 * exception-return value the hardware left in lr as its caller: the target records such
 * a call as an arc from that value, at or above 0xFFFFFF00, where no code is. */
static int interrupt_entry(const struct symtab *tab, uint64_t from)
{
	return tab->machine == 40 /* EM_ARM */ && !tab->is64 && from >= 0xFFFFFF00u &&
	       from <= 0xFFFFFFFFu;
}

int cg_build(struct analysis *a)
{
	struct profile *p = a->prof;
	struct symtab *tab = a->tab;
	size_t cap = 16;
	while (cap < 2 * p->narcs + 16)
		cap *= 2;
	struct arcmap m = {xcalloc(cap, sizeof(size_t)), cap - 1};
	/* -c adds arcs for the call instructions found: room for one per 0xe8 byte */
	size_t extra = 0;
	if (a->opt->static_calls)
		for (size_t i = 0; i < tab->text_size; i++)
			extra += tab->text[i] == 0xe8;
	a->arcs_cap = p->narcs + extra + 1;
	a->arcs = xcalloc(a->arcs_cap, sizeof *a->arcs);
	a->narcs = 0;
	size_t unmatched = 0;
	uint64_t entries = 0;
	for (size_t i = 0; i < p->narcs; i++) {
		struct sym *parent = symtab_lookup(tab, p->arcs[i].from);
		struct sym *child = symtab_lookup(tab, p->arcs[i].self);
		if (!parent && child && interrupt_entry(tab, p->arcs[i].from)) {
			entries += p->arcs[i].count;   /* gprof leaves them out too */
			continue;
		}
		if (!parent || !child) {
			unmatched++;
			continue;
		}
		/* The callee is the function symbol at or before its address (gprof's cg_tally):
		 * with -l the parent is the calling line, the child its function; without, an
		 * address after a non-function symbol (etext, a label) goes to the function
		 * before it. */
		while (child > tab->base && !child->is_func)
			child--;
		if (!child->is_func)
			continue;
		if (!(symspec_arc_selected(a->opt, parent, child, INCL_ARCS) ||
		      (a->opt->table_len[INCL_ARCS] == 0 &&
		       !symspec_arc_selected(a->opt, parent, child, EXCL_ARCS))))
			continue;
		unsigned long count = (unsigned long)p->arcs[i].count;
		child->ncalls += count;
		arc_tally(a, &m, parent, child, count);
	}
	free(m.slot);
	if (unmatched && a->opt->extra_warnings)
		warning("%zu call arcs have an address that matches no symbol (ignored)",
			unmatched);
	if (entries && a->opt->extra_warnings && !quiet)
		fprintf(stderr, "%s: %llu calls from interrupt entries (arcs from an "
			"exception-return value): counted, from no function (gprof shows such a "
			"handler as <spontaneous>)\n", progname, (unsigned long long)entries);
	return 0;
}

/* ---- -c: calls found in the code (gprof's i386_find_call) ---------------------------- */
static int in_histogram(const struct profile *p, uint64_t addr)
{
	for (unsigned i = 0; i < p->nhists; i++)
		if (p->hists[i].lowpc <= addr && addr < p->hists[i].highpc)
			return 1;
	return 0;
}

static void add_static_arc(struct analysis *a, struct sym *parent, struct sym *child)
{
	for (struct arc *arc = parent->children; arc; arc = arc->next_child)
		if (child->addr >= arc->child->addr && child->end_addr <= arc->child->end_addr)
			return;                   /* count += 0 */
	if (a->narcs + 1 >= a->arcs_cap)
		return;
	arc_new(a, parent, child, 0);
}

static void find_calls(struct analysis *a, struct sym *parent, uint64_t lo, uint64_t hi)
{
	const struct profile *p = a->prof;
	const struct symtab *tab = a->tab;
	int found = 0;
	for (unsigned i = 0; i < p->nhists; i++) {      /* gprof's hist_clip_symbol_address */
		uint64_t cl = p->hists[i].lowpc > lo ? p->hists[i].lowpc : lo;
		uint64_t ch = p->hists[i].highpc < hi ? p->hists[i].highpc : hi;
		if (cl < ch) {
			if (found)
				return;
			found = 1;
			lo = cl;
			hi = ch;
		}
	}
	if (!found)
		return;
	uint64_t start = tab->text_start;
	for (uint64_t pc = lo; pc < hi; pc++) {
		if (pc < start || pc - start + 5 > tab->text_size)
			continue;
		const unsigned char *ip = tab->text + (pc - start);
		if (ip[0] != 0xe8)
			continue;
		/* the displacement is not sign-extended (as in gprof: backward calls are missed) */
		uint64_t disp = (uint64_t)ip[1] | (uint64_t)ip[2] << 8 | (uint64_t)ip[3] << 16 |
				(uint64_t)ip[4] << 24;
		uint64_t dest = disp + pc + 5;
		if (!in_histogram(p, dest))
			continue;
		struct sym *child = symtab_lookup(tab, dest);
		if (child && child->addr == dest)
			add_static_arc(a, parent, child);
	}
}

/* ---- depth-first numbering ------------------------------------------------------------ */
static struct sym *root_of(struct sym *s)
{
	struct sym *r = s;
	while (r->uf_parent != r)
		r = r->uf_parent;
	while (s->uf_parent != r) {
		struct sym *n = s->uf_parent;
		s->uf_parent = r;
		s = n;
	}
	return r;
}

struct dfn {
	struct sym **stack;        /* 1-based */
	struct arc **iter;
	int depth, cap;
	int *ung;                  /* stack positions of entries not glommed into a cycle */
	int nung;
	int counter;
};

static int find_cycle(struct dfn *d, struct sym *child)
{
	int top = 0;
	if (child->stack_pos > 0)
		top = child->stack_pos;
	struct sym *r = root_of(child);
	if (r != child && r->stack_pos > top)
		top = r->stack_pos;
	if (top <= 0)
		return error("call graph: couldn't find head of cycle");
	if (top == d->depth)
		return 0;
	struct sym *head = root_of(d->stack[top]);
	struct sym *tail = head->uf_tail;
	int first = d->nung;
	while (first > 0 && d->ung[first - 1] > top)
		first--;
	for (int k = first; k < d->nung; k++) {
		struct sym *c = d->stack[d->ung[k]];
		tail->cyc_next = c;
		c->uf_parent = head;
		tail = c->uf_tail;
	}
	head->uf_tail = tail;
	d->nung = first;
	return 0;
}

static void push(struct dfn *d, struct sym *s)
{
	if (++d->depth >= d->cap) {
		d->cap = d->cap ? 2 * d->cap : 1024;
		d->stack = xrealloc(d->stack, d->cap * sizeof *d->stack);
		d->iter = xrealloc(d->iter, d->cap * sizeof *d->iter);
		d->ung = xrealloc(d->ung, d->cap * sizeof *d->ung);
	}
	d->stack[d->depth] = s;
	d->iter[d->depth] = s->children;
	d->ung[d->nung++] = d->depth;
	s->stack_pos = d->depth;
	s->top_order = DFN_BUSY;
}

static void pop(struct dfn *d)
{
	struct sym *s = d->stack[d->depth];
	if (root_of(s) == s) {
		++d->counter;
		for (struct sym *m = s; m; m = m->cyc_next)
			m->top_order = d->counter;
	}
	if (d->nung && d->ung[d->nung - 1] == d->depth)
		d->nung--;
	s->stack_pos = 0;
	d->depth--;
}

static int dfn_visit(struct dfn *d, struct sym *start)
{
	if (start->top_order != DFN_NAN)
		return 0;
	push(d, start);
	while (d->depth > 0) {
		struct arc *arc = d->iter[d->depth];
		if (!arc) {
			pop(d);
			continue;
		}
		d->iter[d->depth] = arc->next_child;
		struct sym *c = arc->child;
		if (c->top_order != DFN_NAN && c->top_order != DFN_BUSY)
			continue;
		if (c->top_order == DFN_BUSY) {
			if (find_cycle(d, c))
				return -1;
			continue;
		}
		push(d, c);
	}
	return 0;
}

/* ---- cycles and propagation ---------------------------------------------------------- */
/* The cycles, from the heads depth-first numbering left: each of the N symbols V's head
 * is found, and its topological number counted into TOPO_COUNT (by_topo_order's), in one
 * pass. */
static void cycle_link(struct analysis *a, struct sym **v, size_t nv, size_t *topo_count)
{
	int n = 0;
	for (size_t i = 0; i < nv; i++) {
		struct sym *s = v[i];
		s->cyc_head = root_of(s);
		topo_count[s->top_order + 1]++;
		if (s->cyc_head == s && s->cyc_next)
			n++;
	}
	a->ncycles = n;
	a->cycles = xcalloc(n + 1, sizeof *a->cycles);
	int num = 0;
	for (size_t i = 0; n && i < nv; i++) {
		struct sym *s = v[i];
		if (!(s->cyc_head == s && s->cyc_next))
			continue;
		struct sym *cyc = &a->cycles[++num];
		cyc->print_flag = 1;
		cyc->top_order = DFN_NAN;
		cyc->cyc_num = num;
		cyc->cyc_head = cyc;
		cyc->cyc_next = s;
		cyc->order = a->tab->len + num - 1;
		for (struct sym *m = s; m; m = m->cyc_next) {
			m->cyc_num = num;
			m->cyc_head = cyc;
		}
		for (struct sym *m = s; m; m = m->cyc_next)
			for (struct arc *arc = m->parents; arc; arc = arc->next_parent) {
				if (arc->parent == m)
					continue;
				if (arc->parent->cyc_num == num)
					cyc->self_calls += arc->count;
				else
					cyc->ncalls += arc->count;
			}
	}
}

static void inherit_flags(struct sym *child)
{
	struct sym *head = child->cyc_head;
	if (child == head) {
		child->print_flag = 0;
		child->prop_fract = 0.0;
		for (struct arc *arc = child->parents; arc; arc = arc->next_parent) {
			struct sym *parent = arc->parent;
			if (child == parent)
				continue;
			child->print_flag |= parent->print_flag;
			if (child->ncalls)
				child->prop_fract += parent->prop_fract *
						     (((double)arc->count) / ((double)child->ncalls));
		}
	} else {
		head->print_flag = 0;
		head->prop_fract = 0.0;
		for (struct sym *m = head->cyc_next; m; m = m->cyc_next)
			for (struct arc *arc = m->parents; arc; arc = arc->next_parent) {
				if (arc->parent->cyc_head == head)
					continue;
				struct sym *parent = arc->parent;
				head->print_flag |= parent->print_flag;
				if (head->ncalls)
					head->prop_fract += parent->prop_fract *
						(((double)arc->count) / ((double)head->ncalls));
			}
		for (struct sym *m = head; m; m = m->cyc_next) {
			m->print_flag = head->print_flag;
			m->prop_fract = head->prop_fract;
		}
	}
}

/* CHILD's flags from the selections (-q, -Q, -n, -N), after what it inherited. */
static void select_flags(struct analysis *a, struct sym *child)
{
	if (!child->print_flag) {
		if (symspec_selects(a->opt, child, INCL_GRAPH, EXCL_GRAPH))
			child->print_flag = 1;
	} else if (symspec_excludes(child, INCL_GRAPH, EXCL_GRAPH)) {
		child->print_flag = 0;
	}
	if (child->prop_fract == 0.0) {
		if (symspec_selects(a->opt, child, INCL_TIME, EXCL_TIME))
			child->prop_fract = 1.0;
	} else if (symspec_excludes(child, INCL_TIME, EXCL_TIME)) {
		child->prop_fract = 0.0;
	}
	child->prop_self = child->time * child->prop_fract;
	a->print_time += child->prop_self;
}

/* The N symbols SYMS in topological order, the last first. */
static void propagate_flags(struct analysis *a, struct sym **syms, size_t n)
{
	struct sym *old_head = NULL;
	for (size_t idx = n; idx-- > 0;) {
		struct sym *child = syms[idx];
		if (child->cyc_head != old_head) {
			old_head = child->cyc_head;
			inherit_flags(child);
		}
		select_flags(a, child);
	}
}

static void cycle_time(struct analysis *a)
{
	for (int i = 1; i <= a->ncycles; i++) {
		struct sym *cyc = &a->cycles[i];
		for (struct sym *m = cyc->cyc_next; m; m = m->cyc_next) {
			if (m->prop_fract == 0.0)
				continue;
			cyc->time += m->time;
		}
		cyc->prop_self = cyc->prop_fract * cyc->time;
	}
}

static void propagate_time(struct sym *parent)
{
	if (parent->prop_fract == 0.0)
		return;
	for (struct arc *arc = parent->children; arc; arc = arc->next_child) {
		struct sym *child = arc->child;
		if (arc->count == 0 || child == parent || child->prop_fract == 0)
			continue;
		if (child->cyc_head != child) {
			if (parent->cyc_num == child->cyc_num)
				continue;
			child = child->cyc_head;
		} else if (parent->top_order <= child->top_order) {
			continue;
		}
		if (child->ncalls == 0)
			continue;
		arc->time = child->time * (((double)arc->count) / ((double)child->ncalls));
		arc->child_time = child->child_time * (((double)arc->count) / ((double)child->ncalls));
		double share = arc->time + arc->child_time;
		parent->child_time += share;
		double prop_share = parent->prop_fract * share;
		parent->prop_child += prop_share;
		arc->time *= parent->prop_fract;
		arc->child_time *= parent->prop_fract;
		if (parent->cyc_head != parent) {
			parent->cyc_head->child_time += share;
			parent->cyc_head->prop_child += prop_share;
		}
	}
}

/* The N symbols V by topological order, as a stable sort would put them: counted, since
 * the numbers are at most the symbols' count (or DFN_BUSY, DFN_NAN where numbering
 * stopped).  FIRST holds each number's count (at number + 1: 0 ... n + 1). */
static struct sym **by_topo_order(struct sym **v, size_t n, size_t *first)
{
	struct sym **out = xmalloc((n + 1) * sizeof *out);
	for (size_t k = 0, sum = 0; k < n + 2; k++) {
		size_t c = first[k];
		first[k] = sum;
		sum += c;
	}
	for (size_t i = 0; i < n; i++)
		out[first[v[i]->top_order + 1]++] = v[i];
	return out;
}

static int cmp_total(const void *l, const void *r, void *ctx)
{
	const struct sym *left = l, *right = r;
	(void)ctx;
	double diff = (left->prop_self + left->prop_child) - (right->prop_self + right->prop_child);
	if (diff < 0.0)
		return 1;
	if (diff > 0.0)
		return -1;
	if (!left->name && left->cyc_num != 0)
		return -1;
	if (!right->name && right->cyc_num != 0)
		return 1;
	if (!left->name)
		return -1;
	if (!right->name)
		return 1;
	if (left->name[0] != '_' && right->name[0] == '_')
		return -1;
	if (left->name[0] == '_' && right->name[0] != '_')
		return 1;
	if (left->ncalls > right->ncalls)
		return -1;
	if (left->ncalls < right->ncalls)
		return 1;
	return strcmp(left->name, right->name);
}

/* Symbols by name, for the many that tie on everything else: cmp_total's order of names
 * (those not starting with '_' first, then strcmp), by rank (strrank.c). */
static int name_order(const char *a, const char *b)
{
	if ((a[0] == '_') != (b[0] == '_'))
		return a[0] == '_' ? 1 : -1;
	return strcmp(a, b);
}

/* Whether S ties with every symbol like it on cmp_total's keys but the name: named, no
 * time, no calls (-l's lines mostly). */
static int only_name_left(const struct sym *s)
{
	return s->name && s->prop_self + s->prop_child == 0.0 && s->ncalls == 0;
}

/* S's place in the table (a cycle's: after every symbol). */
static size_t sym_place(const struct symtab *tab, const struct sym *s)
{
	return s >= tab->base && s < tab->base + tab->len ? (size_t)(s - tab->base) : SIZE_MAX;
}

/* The symbols, then the cycles, in cmp_total's order, as glibc's merge sort puts them.
 * That sort is stable, and cmp_total's one inconsistency (two cycles of equal time each
 * first) always falls to the earlier.  So where every time is a number, the symbols that
 * differ only by name are counted into place by their names' ranks (the rest sorted as
 * before), and the two lists merged, ties to the earlier. */
static void **by_total(struct analysis *a)
{
	struct symtab *tab = a->tab;
	size_t n = tab->len + a->ncycles, nz = 0, nr = 0;
	void **ts = xmalloc((n + 1) * sizeof *ts);
	for (size_t i = 0; i < tab->len; i++)
		ts[i] = &tab->base[i];
	for (int i = 1; i <= a->ncycles; i++)
		ts[tab->len + i - 1] = &a->cycles[i];
	/* (one pass over the symbols: they are many, and each is 192 bytes) */
	struct sym **z = xmalloc((n + 1) * sizeof *z), **rest = xmalloc((n + 1) * sizeof *rest);
	for (size_t i = 0; i < n; i++) {
		struct sym *s = ts[i];
		if (!isfinite(s->prop_self + s->prop_child)) {
			nz = 0;
			break;
		}
		if (only_name_left(s))
			z[nz++] = s;
		else
			rest[nr++] = s;
	}
	if (nz < 2) {
		free(z);
		free(rest);
		msort_ptrs(ts, n, cmp_total, NULL);
		return ts;
	}
	msort_ptrs((void **)rest, nr, cmp_total, NULL);
	size_t *rank = xmalloc((nz + 1) * sizeof *rank);
	const char **names = xmalloc((nz + 1) * sizeof *names);
	for (size_t i = 0; i < nz; i++)
		names[i] = z[i]->name;
	size_t nranks = str_ranks(names, nz, name_order, rank);
	free(names);
	size_t *first = xcalloc(nranks + 1, sizeof *first);
	for (size_t i = 0; i < nz; i++)
		first[rank[i]]++;
	for (size_t k = 0, sum = 0; k <= nranks; k++) {
		size_t c = first[k];
		first[k] = sum;
		sum += c;
	}
	struct sym **zs = xmalloc((nz + 1) * sizeof *zs);
	for (size_t i = 0; i < nz; i++)
		zs[first[rank[i]]++] = z[i];
	free(rank);
	/* ties to the earlier (only symbols of one name tie) */
	size_t i = 0, j = 0, k = 0;
	while (i < nr && j < nz) {
		int c = cmp_total(rest[i], zs[j], NULL);
		if (c < 0 || (c == 0 && sym_place(tab, rest[i]) < sym_place(tab, zs[j])))
			ts[k++] = rest[i++];
		else
			ts[k++] = zs[j++];
	}
	while (i < nr)
		ts[k++] = rest[i++];
	while (j < nz)
		ts[k++] = zs[j++];
	free(first);
	free(zs);
	free(z);
	free(rest);
	return ts;
}

/* Whether no arc touches S and no time was charged to it (-l's lines mostly): the graph's
 * walks have nothing to do there.  It is finished in the first pass (its flags are what
 * inherit_flags and select_flags give a symbol without callers) and left out of them:
 * the others' numbers keep their order, and so do their propagation and the sum of the
 * time printed (to which it adds 0). */
static int idle(const struct sym *s)
{
	return !s->parents && !s->children && s->time == 0.0 && s->ncalls == 0;
}

static void cg_start(struct analysis *a, struct sym *s, size_t i)
{
	struct symtab *tab = a->tab;
	s->child_time = 0.0;
	s->self_calls = 0;
	for (struct arc *arc = s->children; arc; arc = arc->next_child)
		if (arc->child == s) {
			s->ncalls -= arc->count;
			s->self_calls = arc->count;
			break;
		}
	s->prop_fract = s->prop_self = s->prop_child = 0.0;
	s->print_flag = 0;
	s->top_order = DFN_NAN;
	s->cyc_num = 0;
	s->cyc_head = s;
	s->cyc_next = NULL;
	s->uf_parent = s;
	s->uf_tail = s;
	s->stack_pos = 0;
	if (a->opt->static_calls && tab->text)
		find_calls(a, s, s->addr, i + 1 < tab->len ? tab->base[i + 1].addr : s->addr);
}

void cg_assemble(struct analysis *a)
{
	struct symtab *tab = a->tab;
	/* (-c adds arcs as it goes, to symbols further on: those are told idle after) */
	int later = a->opt->static_calls && tab->text;
	struct sym **busy = xmalloc((tab->len + 1) * sizeof *busy);
	size_t nbusy = 0;
	for (size_t i = 0; i < tab->len; i++) {
		struct sym *s = &tab->base[i];
		cg_start(a, s, i);
		if (later || !idle(s)) {
			busy[nbusy++] = s;
			continue;
		}
		inherit_flags(s);
		select_flags(a, s);
	}
	if (later) {
		size_t n = nbusy;
		nbusy = 0;
		for (size_t i = 0; i < n; i++) {
			if (!idle(busy[i])) {
				busy[nbusy++] = busy[i];
				continue;
			}
			inherit_flags(busy[i]);
			select_flags(a, busy[i]);
		}
	}
	struct dfn d = {0};
	for (size_t i = 0; i < nbusy; i++) {
		struct sym *s = busy[i];
		if (!s->children && s->top_order == DFN_NAN) {
			s->top_order = ++d.counter;   /* (a push and a pop) */
			continue;
		}
		if (dfn_visit(&d, s))
			break;
	}
	free(d.stack);
	free(d.iter);
	free(d.ung);
	size_t *topo_count = xcalloc(nbusy + 3, sizeof *topo_count);
	cycle_link(a, busy, nbusy, topo_count);

	struct sym **top = by_topo_order(busy, nbusy, topo_count);
	free(topo_count);
	free(busy);
	propagate_flags(a, top, nbusy);
	cycle_time(a);
	for (size_t i = 0; i < nbusy; i++)
		propagate_time(top[i]);
	free(top);
	if (a->stacks)
		stacks_measure(a, a->stacks);   /* gmon.stacks: measured, not estimated */

	size_t n = tab->len + a->ncycles;
	void **ts = by_total(a);
	for (size_t i = 0; i < n; i++)
		((struct sym *)ts[i])->index = (int)i + 1;
	a->cg_sorted = (struct sym **)ts;
}
