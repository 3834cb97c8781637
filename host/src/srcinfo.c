/* Source file and line of an address, from DWARF (units and functions: dwinfo.c; line
 * tables and their file entries as BFD decodes them: linetab.c), found the way BFD finds
 * them for gprof.  BFD reads compilation units lazily, in .debug_info order, until one
 * holds the address; it remembers the ranges of the units it has read, and of the
 * functions and line sequences of the units it has looked into, in a trie whose leaves
 * keep them in the order learnt (a range touching or overlapping one of the unit's in
 * that leaf extends it: addrtrie.c), and asks the units of the address's leaf in that
 * order.  So the answer can depend on the questions asked before and on where the
 * leaves' bounds fall (sections dropped by --gc-sections leave ranges at 0 in early
 * units; assembler output gives Thumb functions ranges one byte past their unit, into
 * the next unit's first address); the same state is kept here, and gprof's questions
 * are asked in gprof's order.  A relative file name is
 * prefixed with the unit's compilation directory, as BFD does.
 *
 * A unit is looked into when it is first asked: its line table decoded (the spans of its
 * line sequences learnt), then its functions scanned (their ranges learnt).  A unit
 * without a line table, or with one BFD cannot decode, never answers, and its functions
 * are never scanned. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gelf.h>
#include "addrtrie.h"
#include "dwinfo.h"
#include "error.h"
#include "linetab.h"
#include "radix.h"
#include "srcinfo.h"

struct range {
	uint64_t lo, hi;
	size_t cu;
};

/* A unit's functions (subprograms, inlined subroutines), as BFD's lookup table, from
 * dwinfo.c (seq: DIE order, BFD prefers the later of two equal ranges).  Their names
 * are read when first asked for (-l only). */
#define func dwfunc

/* From LO up to the next segment's LO, the innermost function is v[f] (NONE: none). */
struct fseg {
	uint64_t lo;
	size_t f;
};

struct functab {
	struct func *v;         /* by lo */
	size_t n;
	struct fseg *seg;       /* by lo: the innermost function at every address */
	size_t nseg;
	size_t hint;            /* the last segment func_at found after its address */
	const char **name;      /* per function, once asked (NULL: not yet) */
	unsigned char *linkage; /* per function: the name is a linkage name */
	unsigned char *named;   /* per function: its name was asked for */
	int built;
};

struct srcinfo {
	Elf *elf;
	struct dwreader dw;     /* the debugging entries (dwinfo.c) */
	struct functab *funcs;  /* per unit, built when BFD would scan it */
	struct dwunit *cus;
	size_t ncus;
	struct range *curanges; /* every unit's own ranges, in unit order */
	size_t ncuranges;
	size_t *cufirst;        /* per unit: its first entry in curanges (ncus + 1) */
	size_t nread;           /* units read so far */
	struct addrtrie trie;   /* the ranges learnt so far, as BFD keeps them */
	size_t *without;        /* read units without ranges, in the order read (BFD asks the
				 * latest first) */
	size_t nwithout;
	unsigned long *mark;    /* per unit: asked already in the lookup numbered so (BFD's */
	unsigned long lookups;  /* unit->mark, cleared for the leaf's units each time) */
	/* the line tables (linetab.c) */
	struct linesecs secs;
	struct linetab **lines; /* per unit, once looked into (NULL: BFD's unit error) */
	char ***paths;          /* per unit, its file entries' paths, once asked */
	size_t *npaths;
	size_t last_cu;         /* the unit that gave the last answer */
	size_t last_fn;         /* its innermost function at that address (NONE: none) */
	uint64_t until;         /* the answers of the units asked so far hold up to here */
	struct srcinfo_again {  /* the last lookup answered from a leaf (lookup's shortcut): */
		int valid;
		size_t cu;      /* the unit that answered */
		uint64_t addr;  /* at this address, */
		uint64_t others;/* the other units' answers, the ranges and the leaf hold below */
		unsigned long learnt;
	} again;
	unsigned long learnt;   /* counts what was learnt: units read, looked into, ranges */
	unsigned long damage_reported;  /* dw.damaged when srcinfo_report last said it */
};

#define NONE SIZE_MAX

/* Learn a range of unit CU (BFD's arange_add into its trie). */
static void learn(struct srcinfo *si, uint64_t lo, uint64_t hi, size_t cu)
{
	si->learnt++;
	if (hi > lo)
		addrtrie_add(&si->trie, cu, lo, hi);
}

static void until_min(struct srcinfo *si, uint64_t next)
{
	if (next < si->until)
		si->until = next;
}

/* The contents of section SCN, decompressed (SHF_COMPRESSED) as BFD reads it; NULL if it
 * has none.  (GNU's older .zdebug_ sections are not read: gprof 2.40 finds no source
 * files in them.) */
static const unsigned char *section_data(Elf_Scn *scn, size_t *size)
{
	GElf_Shdr sh;
	Elf_Data *d;
	if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
		return NULL;
	if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
		return NULL;
	if (!(d = elf_getdata(scn, NULL)) || !d->d_buf)
		return NULL;
	*size = d->d_size;
	return d->d_buf;
}

/* Where the sections read here are: .debug_line and the string sections its tables refer
 * to, for linetab_read; the debugging entries' sections, for dwinfo.c (NULL: not there,
 * or not readable).  0, or -1 if there is no .debug_info. */
static int find_sections(struct srcinfo *si)
{
	Elf *e = si->elf;
	size_t shstrndx;
	GElf_Ehdr eh;
	if (!gelf_getehdr(e, &eh) || elf_getshdrstrndx(e, &shstrndx) != 0)
		return -1;
	struct linesecs *ls = &si->secs;
	struct dwsecs ds = {.big = eh.e_ident[EI_DATA] == ELFDATA2MSB};
	ls->big = ds.big;
	const struct {
		const char *name;
		const unsigned char **data;
		size_t *size;
	} want[] = {
		{"line", &ls->line, &ls->line_size},
		{"line_str", &ls->line_str, &ls->line_str_size},
		{"str", &ls->str, &ls->str_size},
		{"info", &ds.info, &ds.info_size},
		{"abbrev", &ds.abbrev, &ds.abbrev_size},
		{"ranges", &ds.ranges, &ds.ranges_size},
		{"rnglists", &ds.rnglists, &ds.rnglists_size},
		{"addr", &ds.addr, &ds.addr_size},
		{"str_offsets", &ds.str_offsets, &ds.str_offsets_size},
	};
	for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)) ||
		    strncmp(name, ".debug_", 7))
			continue;
		for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
			if (!*want[i].data && !strcmp(name + 7, want[i].name))
				*want[i].data = section_data(scn, want[i].size);
	}
	ds.str = ls->str;
	ds.str_size = ls->str_size;
	ds.line_str = ls->line_str;
	ds.line_str_size = ls->line_str_size;
	dwreader_init(&si->dw, &ds);
	return ds.info ? 0 : -1;
}

/* Unit CU's own ranges. */
static void add_curanges(struct srcinfo *si, size_t cu, const struct dwfunc *v, size_t n,
			 size_t *cap)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i].hi <= v[i].lo)
			continue;
		if (si->ncuranges == *cap) {
			*cap = *cap ? 2 * *cap : 256;
			si->curanges = xrealloc(si->curanges, *cap * sizeof *si->curanges);
		}
		si->curanges[si->ncuranges++] = (struct range){v[i].lo, v[i].hi, cu};
	}
}

/* Every unit of .debug_info, in order (a unit whose own entry cannot be read is left
 * out), with its own ranges. */
static void read_units(struct srcinfo *si)
{
	size_t cap = 0, rcap = 0;
	uint64_t off = 0;
	struct dwunit u;
	struct dwfunc *v;
	size_t n;
	int r;
	while ((r = dwreader_unit(&si->dw, off, &u, &v, &n)) >= 0) {
		if (r == 0) {
			if (si->ncus + 1 >= cap) {
				cap = cap ? 2 * cap : 64;
				si->cus = xrealloc(si->cus, cap * sizeof *si->cus);
				si->cufirst = xrealloc(si->cufirst, (cap + 1) * sizeof *si->cufirst);
			}
			size_t cu = si->ncus++;
			si->cus[cu] = u;
			si->cufirst[cu] = si->ncuranges;
			add_curanges(si, cu, v, n, &rcap);
			free(v);
		}
		off = u.end;
	}
	si->cufirst = xrealloc(si->cufirst, (si->ncus + 1) * sizeof *si->cufirst);
	si->cufirst[si->ncus] = si->ncuranges;
}

struct srcinfo *srcinfo_open(int fd)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e)
		return NULL;
	struct srcinfo *si = xcalloc(1, sizeof *si);
	si->elf = e;
	if (elf_kind(e) != ELF_K_ELF || find_sections(si)) {
		dwreader_release(&si->dw);
		elf_end(e);
		free(si);
		return NULL;
	}
	read_units(si);
	si->funcs = xcalloc(si->ncus + 1, sizeof *si->funcs);
	si->without = xmalloc((si->ncus + 1) * sizeof *si->without);
	si->mark = xcalloc(si->ncus + 1, sizeof *si->mark);
	si->lines = xcalloc(si->ncus + 1, sizeof *si->lines);
	si->paths = xcalloc(si->ncus + 1, sizeof *si->paths);
	si->npaths = xcalloc(si->ncus + 1, sizeof *si->npaths);
	si->last_cu = SIZE_MAX;
	si->last_fn = NONE;
	return si;
}

/* Function N's name: by its linkage name if it has one (*LINKAGE set), else its own. */
static const char *func_name(struct srcinfo *si, struct functab *t, size_t n, int *linkage)
{
	if (!t->name) {
		t->name = xcalloc(t->n, sizeof *t->name);
		t->linkage = xcalloc(t->n, sizeof *t->linkage);
		t->named = xcalloc(t->n, sizeof *t->named);
	}
	if (!t->named[n]) {
		int l;
		t->name[n] = t->v[n].origin != UINT64_MAX   /* (no need to read its entry again) */
			     ? dwreader_origin_name(&si->dw, t->v[n].origin, &l)
			     : dwreader_name(&si->dw, t->v[n].die, &l);
		t->linkage[n] = (unsigned char)l;
		t->named[n] = 1;
	}
	*linkage = t->linkage[n];
	return t->name[n];
}

/* Whether function A is the better answer where both hold an address: the smaller
 * range, of two equal ones the later DIE (BFD's lookup_address_in_function_table). */
static int better_func(const struct func *a, const struct func *b)
{
	uint64_t la = a->hi - a->lo, lb = b->hi - b->lo;
	return la < lb || (la == lb && a->seq > b->seq);
}

/* A binary heap of function indices, the better on top. */
struct fheap {
	size_t *h, n;
	const struct func *v;
};

static void fheap_push(struct fheap *q, size_t f)
{
	size_t i = q->n++;
	for (; i > 0 && better_func(&q->v[f], &q->v[q->h[(i - 1) / 2]]); i = (i - 1) / 2)
		q->h[i] = q->h[(i - 1) / 2];
	q->h[i] = f;
}

static void fheap_pop(struct fheap *q)
{
	size_t last = q->h[--q->n], i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= q->n)
			break;
		if (c + 1 < q->n && better_func(&q->v[q->h[c + 1]], &q->v[q->h[c]]))
			c++;
		if (!better_func(&q->v[q->h[c]], &q->v[last]))
			break;
		q->h[i] = q->h[c];
		i = c;
	}
	if (q->n)
		q->h[i] = last;
}

/* The sorts of a unit's functions and of their ends: merge sorts with the comparison
 * inline (qsort's calls were a fifth of reading a program's DWARF), a half already after
 * the other left as it is, short runs by insertion.  Both orders are total (a function's
 * seq is its own), so any sort gives the same.  NAME sorts N of TYPE at V, BEFORE(A, B)
 * true where *A goes before *B, with room for N / 2 at TMP. */
#define MERGE_SORT(name, type, before)                                                  \
	static void name(type *v, size_t n, type *tmp)                                  \
	{                                                                               \
		if (n <= 16) {                                                          \
			for (size_t i = 1; i < n; i++) {                                \
				type x = v[i];                                          \
				size_t j = i;                                           \
				for (; j > 0 && before(&x, &v[j - 1]); j--)             \
					v[j] = v[j - 1];                                \
				v[j] = x;                                               \
			}                                                               \
			return;                                                         \
		}                                                                       \
		size_t h = n / 2, i = 0, j = h, k = 0;                                  \
		name(v, h, tmp);                                                        \
		name(v + h, n - h, tmp);                                                \
		if (!before(&v[h], &v[h - 1]))                                          \
			return;                                                         \
		memcpy(tmp, v, h * sizeof *v);                                          \
		while (i < h && j < n)                                                  \
			v[k++] = before(&v[j], &tmp[i]) ? v[j++] : tmp[i++];            \
		while (i < h)                                                           \
			v[k++] = tmp[i++];                                              \
	}

static int func_before(const struct func *a, const struct func *b)
{
	return a->lo < b->lo || (a->lo == b->lo && a->seq < b->seq);
}

static int u64_before(const uint64_t *a, const uint64_t *b)
{
	return *a < *b;
}

MERGE_SORT(sort_funcs, struct func, func_before)
#define RADIX_FROM 256          /* (below, a merge sort costs less than the counts) */
MERGE_SORT(sort_u64, uint64_t, u64_before)

/* Unit table T's functions by lo, then seq: a merge sort for a few, else counted by lo
 * (the entries are in seq order already, and the count keeps order). */
static void sort_by_lo(struct functab *t)
{
	if (t->n <= RADIX_FROM || t->n >= UINT32_MAX) {
		struct func *tmp = xmalloc((t->n / 2 + 1) * sizeof *tmp);
		sort_funcs(t->v, t->n, tmp);
		free(tmp);
		return;
	}
	uint64_t *lo = xmalloc(t->n * sizeof *lo);
	uint32_t *order = xmalloc(2 * t->n * sizeof *order);
	for (size_t i = 0; i < t->n; i++)
		lo[i] = t->v[i].lo;
	radix_order(lo, t->n, order, order + t->n);
	struct func *v = xmalloc((t->n + 1) * sizeof *v);
	for (size_t i = 0; i < t->n; i++)
		v[i] = t->v[order[i]];
	free(t->v);
	t->v = v;
	free(order);
	free(lo);
}

/* The innermost function at every address of unit CU's table T (sorted by lo), as
 * segments: a sweep over the ranges' ends, the best open range on a heap (ranges that
 * have ended are dropped when they come to the top).  n log n, whatever the nesting. */
static void build_segments(struct functab *t)
{
	uint64_t *ends = xmalloc((t->n + 1) * sizeof *ends);
	for (size_t i = 0; i < t->n; i++)
		ends[i] = t->v[i].hi;
	if (t->n <= RADIX_FROM || t->n >= UINT32_MAX) {
		uint64_t *tmp = xmalloc((t->n / 2 + 1) * sizeof *tmp);
		sort_u64(ends, t->n, tmp);
		free(tmp);
	} else {
		uint32_t *order = xmalloc(2 * t->n * sizeof *order);
		radix_order(ends, t->n, order, order + t->n);
		for (size_t i = 0; i < t->n; i++)
			ends[i] = t->v[order[i]].hi;
		free(order);
	}
	struct fheap q = {xmalloc((t->n + 1) * sizeof *q.h), 0, t->v};
	t->seg = xmalloc((2 * t->n + 1) * sizeof *t->seg);
	size_t i = 0, j = 0;
	while (i < t->n || j < t->n) {
		uint64_t x = i < t->n && (j >= t->n || t->v[i].lo <= ends[j]) ? t->v[i].lo : ends[j];
		for (; i < t->n && t->v[i].lo == x; i++)
			fheap_push(&q, i);
		for (; j < t->n && ends[j] == x; j++)
			;
		while (q.n && t->v[q.h[0]].hi <= x)
			fheap_pop(&q);
		size_t best = q.n ? q.h[0] : NONE;
		if (!t->nseg || t->seg[t->nseg - 1].f != best)
			t->seg[t->nseg++] = (struct fseg){x, best};
	}
	free(q.h);
	free(ends);
}

/* The innermost function of unit CU at ADDR (an index into its table, or NONE); *NEXT
 * the address where that may change. */
static size_t func_at(struct srcinfo *si, size_t cu, uint64_t addr, uint64_t *next)
{
	struct functab *t = &si->funcs[cu];
	size_t lo = 0, hi = t->nseg;            /* first segment with lo > addr */
	/* (mostly the segment after the last one asked for, or that one again) */
	for (size_t h = t->hint; h < t->nseg && h <= t->hint + 1; h++)
		if (t->seg[h].lo > addr && (h == 0 || t->seg[h - 1].lo <= addr)) {
			lo = hi = h;
			break;
		}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->seg[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	t->hint = lo;
	*next = lo < t->nseg ? t->seg[lo].lo : UINT64_MAX;
	return lo ? t->seg[lo - 1].f : NONE;
}

/* Look into unit CU, once, as BFD's comp_unit_maybe_decode_line_info: decode its line
 * table, learning its sequences' spans, then scan its functions, learning their ranges;
 * 0 if the unit has no line table BFD can read (its functions are then never scanned). */
static int look_into(struct srcinfo *si, size_t cu)
{
	struct functab *t = &si->funcs[cu];
	if (t->built)
		return si->lines[cu] != NULL;
	t->built = 1;
	si->learnt++;
	if (!si->cus[cu].has_stmt_list)
		return 0;
	si->lines[cu] = linetab_read(&si->secs, si->cus[cu].stmt_list, si->cus[cu].addr_size);
	if (!si->lines[cu])
		return 0;
	const uint64_t (*spans)[2];
	size_t nspans = linetab_spans(si->lines[cu], &spans);
	for (size_t i = 0; i < nspans; i++)
		learn(si, spans[i][0], spans[i][1], cu);
	dwreader_funcs(&si->dw, si->cus[cu].off, &t->v, &t->n);
	for (size_t i = 0; i < t->n; i++)
		learn(si, t->v[i].lo, t->v[i].hi, cu);
	sort_by_lo(t);
	build_segments(t);
	return 1;
}

/* The path of a file entry as BFD's concat_filename makes it: NAME if it is absolute,
 * else after its directory DIR if that is absolute, else after the unit's compilation
 * directory COMP (and DIR between them). */
static char *join_path(const char *comp, const char *dir, const char *name)
{
	if (name[0] == '/')
		return xstrdup(name);
	const char *first = dir && dir[0] == '/' ? NULL : comp, *second = dir;
	if (!first) {
		first = second;
		second = NULL;
	}
	if (!first)
		return xstrdup(name);
	size_t n = strlen(first) + (second ? strlen(second) + 1 : 0) + strlen(name) + 2;
	char *p = xmalloc(n);
	if (second)
		snprintf(p, n, "%s/%s/%s", first, second, name);
	else
		snprintf(p, n, "%s/%s", first, name);
	return p;
}

/* Unit CU's file entry FILE, made a path once; NULL if there is no such entry. */
static const char *file_name(struct srcinfo *si, size_t cu, unsigned file)
{
	if (file < si->npaths[cu] && si->paths[cu][file])
		return si->paths[cu][file];     /* (made before: most rows ask again) */
	const char *name, *dir;
	if (!linetab_file(si->lines[cu], file, &name, &dir) || !name)
		return NULL;
	if (file >= si->npaths[cu]) {
		size_t n = si->npaths[cu], want = (size_t)file + 16;
		si->paths[cu] = xrealloc(si->paths[cu], want * sizeof *si->paths[cu]);
		memset(si->paths[cu] + n, 0, (want - n) * sizeof *si->paths[cu]);
		si->npaths[cu] = want;
	}
	if (!si->paths[cu][file]) {
		const char *comp = si->cus[cu].comp_dir;
		si->paths[cu][file] = join_path(comp && *comp ? comp : NULL, dir, name);
	}
	return si->paths[cu][file];
}

/* Ask unit CU (BFD's comp_unit_find_nearest_line): 1 answered, 0 this unit does not
 * know, -1 this unit stops the search unanswered (it has a function there, or a row
 * without a line number or file). */
static int answer(struct srcinfo *si, size_t cu, uint64_t addr, const char **file, int *line)
{
	si->last_cu = cu;
	si->last_fn = NONE;
	if (!look_into(si, cu))
		return 0;
	uint64_t fnext, lnext;
	size_t fn = si->last_fn = func_at(si, cu, addr, &fnext);
	unsigned ln, fi;
	int found = linetab_lookup(si->lines[cu], addr, &ln, &fi, &lnext);
	until_min(si, fnext);
	until_min(si, lnext);
	if (!found)
		return fn != NONE ? -1 : 0;
	const char *f;
	if (ln == 0 || ln > INT_MAX || !(f = file_name(si, cu, fi)))
		return -1;
	*file = f;
	*line = (int)ln;
	return 1;
}

static int cu_holds(const struct srcinfo *si, size_t cu, uint64_t addr)
{
	for (size_t i = si->cufirst[cu]; i < si->cufirst[cu + 1]; i++)
		if (si->curanges[i].lo <= addr && addr < si->curanges[i].hi)
			return 1;
	return 0;
}

/* The leaf's part in how far an answer holds: its end, its ranges' ends. */
static void leaf_until(struct srcinfo *si, const struct addrtrie_node *leaf, uint64_t addr,
		       uint64_t last)
{
	si->until = last == UINT64_MAX ? UINT64_MAX : last + 1;
	size_t n;
	const struct addrtrie_range *k = addrtrie_leaf_ranges(leaf, &n);
	for (size_t i = 0; i < n; i++)
		until_min(si, k[i].lo > addr ? k[i].lo : k[i].hi > addr ? k[i].hi : UINT64_MAX);
}

static int lookup(struct srcinfo *si, uint64_t addr, const char **file, int *line)
{
	int r;
	/* Where nothing but the answering unit's row or function can have changed since
	 * the last lookup (no range, leaf end, or other unit's row or function starts or
	 * ends in between, nothing learnt), the units before it answer as they did: only
	 * it is asked again.  A walk line by line mostly moves so. */
	struct srcinfo_again *g = &si->again;
	g->valid &= si->learnt == g->learnt && addr >= g->addr && addr < g->others;
	if (g->valid) {
		si->until = g->others;
		if ((r = answer(si, g->cu, addr, file, line)) != 0) {
			g->addr = addr;
			return r > 0;
		}
		g->valid = 0;
	}
	/* the units of the leaf that holds the address whose ranges there hold it, in the
	 * leaf's order (asking a unit can add ranges to the leaf: they are looked at too) */
	unsigned long learnt = si->learnt;
	uint64_t last;
	const struct addrtrie_node *leaf = addrtrie_leaf(&si->trie, addr, &last);
	leaf_until(si, leaf, addr, last);
	size_t n;
	const struct addrtrie_range *k = addrtrie_leaf_ranges(leaf, &n);
	unsigned long now = ++si->lookups;
	for (size_t i = 0; i < n; i++) {
		size_t cu = k[i].cu;
		if (si->mark[cu] == now || addr < k[i].lo || addr >= k[i].hi)
			continue;
		si->mark[cu] = now;
		uint64_t others = si->until;
		if ((r = answer(si, cu, addr, file, line)) != 0) {
			*g = (struct srcinfo_again){si->learnt == learnt, cu, addr, others, learnt};
			return r > 0;
		}
		k = addrtrie_leaf_ranges(leaf, &n);      /* (asking may have added some) */
	}
	for (size_t i = si->nwithout; i-- > 0;)
		if ((r = answer(si, si->without[i], addr, file, line)) != 0)
			return r > 0;
	/* read on */
	while (si->nread < si->ncus) {
		size_t cu = si->nread++;
		for (size_t i = si->cufirst[cu]; i < si->cufirst[cu + 1]; i++)
			learn(si, si->curanges[i].lo, si->curanges[i].hi, cu);
		int none = si->cufirst[cu] == si->cufirst[cu + 1];
		if (none)
			si->without[si->nwithout++] = cu;
		if ((none || cu_holds(si, cu, addr)) && (r = answer(si, cu, addr, file, line)) != 0)
			return r > 0;
	}
	return 0;
}

/* ADDR's source FILE and LINE: 1, or 0 if none.  If UNTIL is not NULL, *UNTIL is an
 * address above ADDR below which every address gets the same answer, the same function
 * and the same state: the same units asked, each answering as for ADDR (no range, row
 * or function of theirs starts or ends between), nothing new learnt. */
int srcinfo_lookup(struct srcinfo *si, uint64_t addr, const char **file, int *line,
		   uint64_t *until)
{
	if (!si)
		return 0;
	unsigned long learnt = si->learnt;
	int r = lookup(si, addr, file, line);
	if (until)
		*until = si->learnt == learnt && si->until > addr ? si->until : addr + 1;
	return r;
}

/* The name BFD gives the function at the address of the last successful srcinfo_lookup:
 * the innermost function of the answering unit, by its linkage name if it has one;
 * NULL if there is none. */
const char *srcinfo_function(struct srcinfo *si, int *linkage)
{
	*linkage = 0;
	if (!si || si->last_cu >= si->ncus || si->last_fn == NONE)
		return NULL;
	return func_name(si, &si->funcs[si->last_cu], si->last_fn, linkage);
}

void srcinfo_report(struct srcinfo *si, const char *path)
{
	if (!si || si->dw.damaged == si->damage_reported)
		return;
	warning("%s: .debug_info offset 0x%llx: %s; %lu damaged %s in all, %s", path,
		(unsigned long long)si->dw.damaged_at, si->dw.damaged_what, si->dw.damaged,
		si->dw.damaged == 1 ? "entry" : "entries",
		"whose names and files are left out (GNU gprof stops on such a file)");
	si->damage_reported = si->dw.damaged;
}

void srcinfo_close(struct srcinfo *si)
{
	if (!si)
		return;
	for (size_t i = 0; i < si->ncus; i++) {
		free(si->funcs[i].v);
		free(si->funcs[i].seg);
		free(si->funcs[i].name);
		free(si->funcs[i].linkage);
		free(si->funcs[i].named);
	}
	free(si->funcs);
	free(si->cus);
	dwreader_release(&si->dw);
	free(si->cufirst);
	free(si->curanges);
	addrtrie_free(&si->trie);
	for (size_t i = 0; i < si->ncus; i++) {
		linetab_free(si->lines[i]);
		for (size_t k = 0; k < si->npaths[i]; k++)
			free(si->paths[i][k]);
		free(si->paths[i]);
	}
	free(si->lines);
	free(si->paths);
	free(si->npaths);
	free(si->without);
	free(si->mark);
	elf_end(si->elf);
	free(si);
}
