/* Source file and line of an address, from DWARF through libdw, found the way BFD finds
 * them for gprof: the first compilation unit (in .debug_info order) whose ranges hold
 * the address answers, even where a later unit would be the better answer (sections
 * dropped by --gc-sections leave ranges at address 0 in the earlier units), and a
 * relative file name is prefixed with the unit's compilation directory. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include "tgprof.h"

struct range {
	uint64_t lo, hi;
	size_t cu;
};

/* A unit's functions (subprograms, inlined subroutines), as BFD's lookup table. */
struct func {
	uint64_t lo, hi;
	size_t seq;             /* DIE order: BFD prefers the later of two equal ranges */
	const char *name;
	int linkage;
};

struct functab {
	struct func *v;         /* by lo */
	size_t n;
	uint64_t maxlen;
	int built;
};

struct srcinfo {
	Dwarf *dw;
	struct functab *funcs;  /* per unit, built on first use */
	Dwarf_Die *cus;
	size_t ncus;
	struct range *ranges;   /* all ranges, in unit order */
	size_t nranges;
	uint64_t *edges;        /* sorted distinct range ends: elementary segments */
	size_t nedges;
	size_t *owner;          /* per segment: first unit covering it, or SIZE_MAX */
	int *has_ranges;
	char *path;             /* the last answer */
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static size_t seg_of(const struct srcinfo *si, uint64_t addr)
{
	size_t lo = 0, hi = si->nedges;       /* first edge > addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (si->edges[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == 0 ? SIZE_MAX : lo - 1;   /* segment [edges[i], edges[i+1]) */
}

static void add_range(struct srcinfo *si, size_t *rcap, uint64_t lo, uint64_t hi, size_t cu)
{
	if (hi <= lo)
		return;
	if (si->nranges == *rcap) {
		*rcap = *rcap ? 2 * *rcap : 256;
		si->ranges = xrealloc(si->ranges, *rcap * sizeof *si->ranges);
	}
	si->ranges[si->nranges++] = (struct range){lo, hi, cu};
	si->has_ranges[cu] = 1;
}

/* BFD also counts the ranges of a unit's functions as the unit's (assembler output
 * gives Thumb functions ranges one byte past the unit's). */
static void add_function_ranges(struct srcinfo *si, size_t *rcap, Dwarf_Die *die, size_t cu,
				int depth)
{
	Dwarf_Die child;
	if (depth > 8 || dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_subprogram) {
			Dwarf_Addr base, lo, hi;
			ptrdiff_t r = 0;
			while ((r = dwarf_ranges(&child, r, &base, &lo, &hi)) > 0)
				add_range(si, rcap, lo, hi, cu);
		} else if (tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
			   tag == DW_TAG_structure_type) {
			add_function_ranges(si, rcap, &child, cu, depth + 1);
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

struct srcinfo *srcinfo_open(int fd)
{
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw)
		return NULL;
	struct srcinfo *si = xcalloc(1, sizeof *si);
	si->dw = dw;
	size_t cap = 0, rcap = 0;
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die die;
		if (dwarf_offdie(dw, off + hsize, &die)) {
			if (si->ncus == cap) {
				cap = cap ? 2 * cap : 64;
				si->cus = xrealloc(si->cus, cap * sizeof *si->cus);
				si->has_ranges = xrealloc(si->has_ranges, cap * sizeof *si->has_ranges);
			}
			size_t cu = si->ncus++;
			si->cus[cu] = die;
			si->has_ranges[cu] = 0;
			Dwarf_Addr base, lo, hi;
			ptrdiff_t r = 0;
			while ((r = dwarf_ranges(&die, r, &base, &lo, &hi)) > 0)
				add_range(si, &rcap, lo, hi, cu);
			add_function_ranges(si, &rcap, &die, cu, 0);
		}
		off = next;
	}
	si->funcs = xcalloc(si->ncus + 1, sizeof *si->funcs);
	/* Paint each elementary segment with the first unit that covers it. */
	si->edges = xmalloc((2 * si->nranges + 1) * sizeof *si->edges);
	for (size_t i = 0; i < si->nranges; i++) {
		si->edges[2 * i] = si->ranges[i].lo;
		si->edges[2 * i + 1] = si->ranges[i].hi;
	}
	qsort(si->edges, 2 * si->nranges, sizeof *si->edges, cmp_u64);
	size_t ne = 0;
	for (size_t i = 0; i < 2 * si->nranges; i++)
		if (!ne || si->edges[ne - 1] != si->edges[i])
			si->edges[ne++] = si->edges[i];
	si->nedges = ne;
	size_t nseg = ne ? ne - 1 : 0;
	si->owner = xmalloc((nseg + 1) * sizeof *si->owner);
	size_t *skip = xmalloc((nseg + 2) * sizeof *skip);   /* next unpainted segment */
	for (size_t i = 0; i <= nseg; i++) {
		si->owner[i] = SIZE_MAX;
		skip[i] = i;
	}
	skip[nseg + 1] = nseg + 1;
	for (size_t i = 0; i < si->nranges; i++) {   /* ranges are in unit order */
		size_t s = seg_of(si, si->ranges[i].lo);
		uint64_t hi = si->ranges[i].hi;
		for (;;) {
			size_t r = s;                         /* find the next unpainted */
			while (skip[r] != r)
				r = skip[r];
			while (skip[s] != r) {
				size_t n = skip[s];
				skip[s] = r;
				s = n;
			}
			s = r;
			if (s >= nseg || si->edges[s] >= hi)
				break;
			si->owner[s] = si->ranges[i].cu;
			skip[s] = s + 1;
		}
	}
	free(skip);
	return si;
}

static void collect_funcs(struct functab *t, size_t *cap, Dwarf_Die *die, int depth, size_t *seq)
{
	Dwarf_Die child;
	if (depth > 64 || dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
		    tag == DW_TAG_entry_point) {
			Dwarf_Attribute at;
			const char *name = dwarf_formstring(dwarf_attr_integrate(&child, DW_AT_linkage_name, &at));
			if (!name)
				name = dwarf_formstring(dwarf_attr_integrate(&child, DW_AT_MIPS_linkage_name, &at));
			int linkage = name != NULL;
			if (!name)
				name = dwarf_diename(&child);
			size_t my = (*seq)++;
			Dwarf_Addr base, lo, hi;
			ptrdiff_t r = 0;
			while ((r = dwarf_ranges(&child, r, &base, &lo, &hi)) > 0) {
				if (hi <= lo)
					continue;
				if (t->n == *cap) {
					*cap = *cap ? 2 * *cap : 64;
					t->v = xrealloc(t->v, *cap * sizeof *t->v);
				}
				t->v[t->n++] = (struct func){lo, hi, my, name, linkage};
				if (hi - lo > t->maxlen)
					t->maxlen = hi - lo;
			}
		}
		collect_funcs(t, cap, &child, depth + 1, seq);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int cmp_func(const void *l, const void *r)
{
	const struct func *a = l, *b = r;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The innermost function of unit CU at ADDR: the smallest range holding it, the later
 * DIE of two equal ones (BFD's lookup_address_in_function_table). */
static const struct func *func_at(struct srcinfo *si, size_t cu, uint64_t addr)
{
	struct functab *t = &si->funcs[cu];
	if (!t->built) {
		size_t cap = 0, seq = 0;
		t->built = 1;
		collect_funcs(t, &cap, &si->cus[cu], 0, &seq);
		if (t->n > 1)
			qsort(t->v, t->n, sizeof *t->v, cmp_func);
	}
	size_t lo = 0, hi = t->n;               /* first with v.lo > addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->v[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct func *best = NULL;
	for (size_t i = lo; i-- > 0;) {
		const struct func *f = &t->v[i];
		if (addr - f->lo >= t->maxlen && f->lo + t->maxlen <= addr)
			break;
		if (addr >= f->hi)
			continue;
		if (!best || f->hi - f->lo < best->hi - best->lo ||
		    (f->hi - f->lo == best->hi - best->lo && f->seq > best->seq))
			best = f;
	}
	return best;
}

/* The line-table row for ADDR: the last row at or before it, unless that ends a
 * sequence; where one sequence ends at the address another starts at, the new one
 * (libdw's dwarf_getsrc_die may return the end there and so nothing). */
static Dwarf_Line *row_at(Dwarf_Die *cu, uint64_t addr)
{
	Dwarf_Lines *lines;
	size_t n;
	if (dwarf_getsrclines(cu, &lines, &n) != 0 || n == 0)
		return NULL;
	size_t lo = 0, hi = n;                 /* first row with address > addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		Dwarf_Addr a;
		Dwarf_Line *l = dwarf_onesrcline(lines, mid);
		if (!l || dwarf_lineaddr(l, &a) != 0)
			return NULL;
		if (a <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	Dwarf_Addr at;
	dwarf_lineaddr(dwarf_onesrcline(lines, lo - 1), &at);
	for (size_t i = lo; i-- > 0;) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		bool end = false;
		if (!l || dwarf_lineaddr(l, &a) != 0 || a != at)
			break;
		if (dwarf_lineendsequence(l, &end) == 0 && !end)
			return l;
	}
	return NULL;
}

/* 1: answered, 0: this unit does not know, -1: this unit stops the search unanswered. */
static size_t last_cu = SIZE_MAX;
static const void *last_row;

const void *srcinfo_last_row(void)
{
	return last_row;
}

static int answer(struct srcinfo *si, size_t cu, uint64_t addr, const char **file, int *line)
{
	last_cu = cu;
	last_row = NULL;
	Dwarf_Line *l = row_at(&si->cus[cu], addr);
	if (!l)
		return func_at(si, cu, addr) ? -1 : 0;
	int ln = 0;
	if (dwarf_lineno(l, &ln) != 0 || ln == 0)
		return -1;
	const char *f = dwarf_linesrc(l, NULL, NULL);
	if (!f)
		return -1;
	free(si->path);
	si->path = NULL;
	if (f[0] != '/') {
		Dwarf_Attribute at;
		const char *dir = dwarf_formstring(dwarf_attr(&si->cus[cu], DW_AT_comp_dir, &at));
		if (dir && *dir) {
			size_t n = strlen(dir) + strlen(f) + 2;
			si->path = xmalloc(n);
			snprintf(si->path, n, "%s/%s", dir, f);
			f = si->path;
		}
	}
	*file = f;
	*line = ln;
	last_row = l;
	return 1;
}

static int covers(const struct srcinfo *si, size_t cu, uint64_t addr)
{
	for (size_t i = 0; i < si->nranges; i++)
		if (si->ranges[i].cu == cu && si->ranges[i].lo <= addr && addr < si->ranges[i].hi)
			return 1;
	return 0;
}

int srcinfo_lookup(struct srcinfo *si, uint64_t addr, const char **file, int *line)
{
	if (!si)
		return 0;
	size_t s = seg_of(si, addr);
	size_t first = SIZE_MAX;
	if (s != SIZE_MAX && s + 1 < si->nedges)
		first = si->owner[s];
	int r;
	if (first != SIZE_MAX) {
		if ((r = answer(si, first, addr, file, line)) != 0)
			return r > 0;
		for (size_t cu = first + 1; cu < si->ncus; cu++)
			if (covers(si, cu, addr) && (r = answer(si, cu, addr, file, line)) != 0)
				return r > 0;
	}
	for (size_t cu = 0; cu < si->ncus; cu++)     /* units without ranges */
		if (!si->has_ranges[cu] && (r = answer(si, cu, addr, file, line)) != 0)
			return r > 0;
	return 0;
}

/* The name BFD gives the function at ADDR (after a successful srcinfo_lookup of ADDR):
 * the innermost function of the answering unit, by its linkage name if it has one;
 * NULL if there is none. */
const char *srcinfo_function(struct srcinfo *si, uint64_t addr, int *linkage)
{
	*linkage = 0;
	if (!si || last_cu >= si->ncus)
		return NULL;
	const struct func *f = func_at(si, last_cu, addr);
	if (!f)
		return NULL;
	*linkage = f->linkage;
	return f->name;
}

void srcinfo_close(struct srcinfo *si)
{
	if (!si)
		return;
	dwarf_end(si->dw);
	for (size_t i = 0; i < si->ncus; i++)
		free(si->funcs[i].v);
	free(si->funcs);
	free(si->cus);
	free(si->has_ranges);
	free(si->ranges);
	free(si->edges);
	free(si->owner);
	free(si->path);
	free(si);
}
