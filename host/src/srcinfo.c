/* Source file and line of an address, from DWARF through libdw, found the way BFD finds
 * them for gprof: the first compilation unit (in .debug_info order) whose ranges hold
 * the address answers, even where a later unit would be the better answer (sections
 * dropped by --gc-sections leave ranges at address 0 in the earlier units), and a
 * relative file name is prefixed with the unit's compilation directory. */
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include "tgprof.h"

struct range {
	uint64_t lo, hi;
	size_t cu;
};

struct srcinfo {
	Dwarf *dw;
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
			while ((r = dwarf_ranges(&die, r, &base, &lo, &hi)) > 0) {
				if (hi <= lo)
					continue;
				if (si->nranges == rcap) {
					rcap = rcap ? 2 * rcap : 256;
					si->ranges = xrealloc(si->ranges, rcap * sizeof *si->ranges);
				}
				si->ranges[si->nranges++] = (struct range){lo, hi, cu};
				si->has_ranges[cu] = 1;
			}
		}
		off = next;
	}
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

/* Does a function (or inlined call) of the unit hold ADDR?  BFD's search stops at such a
 * unit even when its line table has nothing for the address. */
static int has_function_at(Dwarf_Die *die, uint64_t addr, int depth)
{
	Dwarf_Die child;
	if (depth > 64 || dwarf_child(die, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);
		if ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) &&
		    dwarf_haspc(&child, addr) == 1)
			return 1;
		if ((tag == DW_TAG_subprogram || tag == DW_TAG_namespace ||
		     tag == DW_TAG_lexical_block || tag == DW_TAG_class_type ||
		     tag == DW_TAG_structure_type) && has_function_at(&child, addr, depth + 1))
			return 1;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/* 1: answered, 0: this unit does not know, -1: this unit stops the search unanswered. */
static int answer(struct srcinfo *si, size_t cu, uint64_t addr, const char **file, int *line)
{
	Dwarf_Line *l = dwarf_getsrc_die(&si->cus[cu], addr);
	if (!l)
		return has_function_at(&si->cus[cu], addr, 0) ? -1 : 0;
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

void srcinfo_close(struct srcinfo *si)
{
	if (!si)
		return;
	dwarf_end(si->dw);
	free(si->cus);
	free(si->has_ranges);
	free(si->ranges);
	free(si->edges);
	free(si->owner);
	free(si->path);
	free(si);
}
