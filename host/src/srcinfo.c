/* Source file and line of an address, from DWARF (units, functions and file names
 * through libdw, line tables as BFD decodes them: linetab.c), found the way BFD finds
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
#include <dwarf.h>
#include <gelf.h>
#include <elfutils/libdw.h>
#include "addrtrie.h"
#include "error.h"
#include "linetab.h"
#include "srcinfo.h"

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
	struct functab *funcs;  /* per unit, built when BFD would scan it */
	Dwarf_Die *cus;
	size_t ncus;
	struct range *curanges; /* every unit's own ranges, in unit order */
	size_t ncuranges;
	size_t *cufirst;        /* per unit: its first entry in curanges (ncus + 1) */
	size_t nread;           /* units read so far */
	struct addrtrie trie;   /* the ranges learnt so far, as BFD keeps them */
	size_t *without;        /* read units without ranges, latest first */
	size_t nwithout;
	unsigned char *mark;    /* per unit: asked already (BFD's unit->mark) */
	char *path;             /* the last answer */
	/* the line tables (linetab.c) */
	const unsigned char *line_sec; /* .debug_line */
	size_t line_size;
	int line_big;
	struct linetab **lines; /* per unit, once looked into (NULL: BFD's unit error) */
	size_t last_cu;         /* the unit that gave the last answer */
};

/* Learn a range of unit CU (BFD's arange_add into its trie). */
static void learn(struct srcinfo *si, uint64_t lo, uint64_t hi, size_t cu)
{
	if (hi > lo)
		addrtrie_add(&si->trie, cu, lo, hi);
}

/* Where .debug_line is, for linetab_read (line_sec NULL: not there, or not readable). */
static void find_line_section(struct srcinfo *si)
{
	Elf *e = dwarf_getelf(si->dw);
	size_t shstrndx;
	GElf_Ehdr eh;
	if (!e || !gelf_getehdr(e, &eh) || elf_getshdrstrndx(e, &shstrndx) != 0)
		return;
	si->line_big = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".debug_line") != 0)
			continue;
		Elf_Data *d;
		if (sh.sh_type == SHT_NOBITS || (sh.sh_flags & SHF_COMPRESSED) ||
		    !(d = elf_getdata(scn, NULL)) || !d->d_buf)
			return;      /* (libdw has decompressed what it reads) */
		si->line_sec = d->d_buf;
		si->line_size = d->d_size;
		return;
	}
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
			if (si->ncus + 1 >= cap) {
				cap = cap ? 2 * cap : 64;
				si->cus = xrealloc(si->cus, cap * sizeof *si->cus);
				si->cufirst = xrealloc(si->cufirst, (cap + 1) * sizeof *si->cufirst);
			}
			size_t cu = si->ncus++;
			si->cus[cu] = die;
			si->cufirst[cu] = si->ncuranges;
			Dwarf_Addr base, lo, hi;
			ptrdiff_t r = 0;
			while ((r = dwarf_ranges(&die, r, &base, &lo, &hi)) > 0) {
				if (hi <= lo)
					continue;
				if (si->ncuranges == rcap) {
					rcap = rcap ? 2 * rcap : 256;
					si->curanges = xrealloc(si->curanges, rcap * sizeof *si->curanges);
				}
				si->curanges[si->ncuranges++] = (struct range){lo, hi, cu};
			}
		}
		off = next;
	}
	si->cufirst = xrealloc(si->cufirst, (si->ncus + 1) * sizeof *si->cufirst);
	si->cufirst[si->ncus] = si->ncuranges;
	si->funcs = xcalloc(si->ncus + 1, sizeof *si->funcs);
	si->without = xmalloc((si->ncus + 1) * sizeof *si->without);
	si->mark = xcalloc(si->ncus + 1, sizeof *si->mark);
	si->lines = xcalloc(si->ncus + 1, sizeof *si->lines);
	si->last_cu = SIZE_MAX;
	find_line_section(si);
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
	const struct functab *t = &si->funcs[cu];
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

/* Look into unit CU, once, as BFD's comp_unit_maybe_decode_line_info: decode its line
 * table, learning its sequences' spans, then scan its functions, learning their ranges;
 * 0 if the unit has no line table BFD can read (its functions are then never scanned). */
static int look_into(struct srcinfo *si, size_t cu)
{
	struct functab *t = &si->funcs[cu];
	if (t->built)
		return si->lines[cu] != NULL;
	t->built = 1;
	Dwarf_Attribute at;
	Dwarf_Word off;
	Dwarf_Die cudie;
	uint8_t addr_size = 0;
	if (!dwarf_attr(&si->cus[cu], DW_AT_stmt_list, &at) || dwarf_formudata(&at, &off) != 0 ||
	    !dwarf_diecu(&si->cus[cu], &cudie, &addr_size, NULL))
		return 0;
	si->lines[cu] = linetab_read(si->line_sec, si->line_size, off, si->line_big, addr_size);
	if (!si->lines[cu])
		return 0;
	const uint64_t (*spans)[2];
	size_t nspans = linetab_spans(si->lines[cu], &spans);
	for (size_t i = 0; i < nspans; i++)
		learn(si, spans[i][0], spans[i][1], cu);
	size_t cap = 0, seq = 0;
	collect_funcs(t, &cap, &si->cus[cu], 0, &seq);
	for (size_t i = 0; i < t->n; i++)
		learn(si, t->v[i].lo, t->v[i].hi, cu);
	if (t->n > 1)
		qsort(t->v, t->n, sizeof *t->v, cmp_func);
	return 1;
}

/* Unit CU's file entry FILE, prefixed with the unit's compilation directory if it is
 * relative (as BFD does); NULL if there is no such entry. */
static const char *file_name(struct srcinfo *si, size_t cu, unsigned file)
{
	Dwarf_Files *files;
	size_t nfiles;
	const char *f;
	if (dwarf_getsrcfiles(&si->cus[cu], &files, &nfiles) != 0 || file >= nfiles ||
	    !(f = dwarf_filesrc(files, file, NULL, NULL)))
		return NULL;
	free(si->path);
	si->path = NULL;
	Dwarf_Attribute at;
	const char *dir = dwarf_formstring(dwarf_attr(&si->cus[cu], DW_AT_comp_dir, &at));
	if (f[0] == '/' || !dir || !*dir)
		return f;
	size_t n = strlen(dir) + strlen(f) + 2;
	si->path = xmalloc(n);
	snprintf(si->path, n, "%s/%s", dir, f);
	return si->path;
}

/* Ask unit CU (BFD's comp_unit_find_nearest_line): 1 answered, 0 this unit does not
 * know, -1 this unit stops the search unanswered (it has a function there, or a row
 * without a line number or file). */
static int answer(struct srcinfo *si, size_t cu, uint64_t addr, const char **file, int *line)
{
	si->last_cu = cu;
	if (!look_into(si, cu))
		return 0;
	const struct func *fn = func_at(si, cu, addr);
	unsigned ln, fi;
	if (!linetab_lookup(si->lines[cu], addr, &ln, &fi))
		return fn ? -1 : 0;
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

int srcinfo_lookup(struct srcinfo *si, uint64_t addr, const char **file, int *line)
{
	if (!si)
		return 0;
	int r;
	/* the units of the leaf that holds the address whose ranges there hold it, in the
	 * leaf's order (asking a unit can add ranges to the leaf: they are looked at too) */
	const struct addrtrie_node *leaf = addrtrie_leaf(&si->trie, addr);
	for (size_t i = 0; i < addrtrie_leaf_size(leaf); i++)
		si->mark[addrtrie_leaf_range(leaf, i)->cu] = 0;
	for (size_t i = 0; i < addrtrie_leaf_size(leaf); i++) {
		const struct addrtrie_range *k = addrtrie_leaf_range(leaf, i);
		size_t cu = k->cu;
		if (si->mark[cu] || addr < k->lo || addr >= k->hi)
			continue;
		si->mark[cu] = 1;
		if ((r = answer(si, cu, addr, file, line)) != 0)
			return r > 0;
	}
	for (size_t i = 0; i < si->nwithout; i++)
		if ((r = answer(si, si->without[i], addr, file, line)) != 0)
			return r > 0;
	/* read on */
	while (si->nread < si->ncus) {
		size_t cu = si->nread++;
		for (size_t i = si->cufirst[cu]; i < si->cufirst[cu + 1]; i++)
			learn(si, si->curanges[i].lo, si->curanges[i].hi, cu);
		int none = si->cufirst[cu] == si->cufirst[cu + 1];
		if (none) {
			memmove(si->without + 1, si->without, si->nwithout * sizeof *si->without);
			si->without[0] = cu;
			si->nwithout++;
		}
		if ((none || cu_holds(si, cu, addr)) && (r = answer(si, cu, addr, file, line)) != 0)
			return r > 0;
	}
	return 0;
}

/* The name BFD gives the function at ADDR (after a successful srcinfo_lookup of ADDR):
 * the innermost function of the answering unit, by its linkage name if it has one;
 * NULL if there is none. */
const char *srcinfo_function(struct srcinfo *si, uint64_t addr, int *linkage)
{
	*linkage = 0;
	if (!si || si->last_cu >= si->ncus)
		return NULL;
	const struct func *f = func_at(si, si->last_cu, addr);
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
	free(si->cufirst);
	free(si->curanges);
	addrtrie_free(&si->trie);
	for (size_t i = 0; i < si->ncus; i++) {
		linetab_free(si->lines[i]);
	}
	free(si->lines);
	free(si->without);
	free(si->mark);
	free(si->path);
	free(si);
}
