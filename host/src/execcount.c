/* -C: execution counts per function ("file:line: (name:0xaddr) N executions"), gprof's
 * output when a profile has neither a histogram nor a call graph; with -l, the
 * basic-block counts of each line too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "error.h"
#include "execcount.h"
#include "gmon_io.h"
#include "msort.h"
#include "radix.h"
#include "strrank.h"
#include "options.h"
#include "symspec.h"
#include "symtab.h"

/* gprof's order for -C: by file and line where both have a file, else by address.  It is
 * not a total order, so the sort must make gprof's comparisons (MSORT_INLINE does): file
 * names are compared by their ranks, found once, and each symbol's keys are read from a
 * small array, not the symbol. */
struct bbkey {
	size_t file_rank;          /* 0: no file */
	int line;
	uint64_t addr;
	const struct sym *s;
};

static inline int cmp_bb(const struct bbkey *const *l, const struct bbkey *const *r)
{
	const struct bbkey *a = *l, *b = *r;
	if (a->file_rank && b->file_rank) {
		if (a->file_rank != b->file_rank)
			return a->file_rank < b->file_rank ? -1 : 1;
		if (a->line != b->line)
			return a->line - b->line;
	}
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* A part of the sort where every symbol has a file: cmp_bb orders by (rank, line,
 * address) there, a total order (one symbol an address), so the part is ordered by
 * counting on those keys packed into 64 bits, not merged (FILELESS[i]: how many of the
 * input's first i symbols have no file). */
struct bb_sort {
	const size_t *fileless;
	unsigned line_bits, addr_bits;
	uint64_t addr_lo;
	uint64_t *key;
	uint32_t *order;
};

#define BB_COUNTED_FROM 256     /* (below, merging costs less than the counts) */

static int sort_bb_part(const struct bbkey **b, size_t n, const struct bbkey **tmp, size_t off,
			void *ctx)
{
	struct bb_sort *bs = ctx;
	if (!bs || n < BB_COUNTED_FROM || bs->fileless[off + n] != bs->fileless[off])
		return 0;
	for (size_t i = 0; i < n; i++)
		bs->key[i] = (uint64_t)b[i]->file_rank << (bs->line_bits + bs->addr_bits) |
			     (uint64_t)(unsigned)b[i]->line << bs->addr_bits |
			     (b[i]->addr - bs->addr_lo);
	radix_order(bs->key, n, bs->order, bs->order + n);
	for (size_t i = 0; i < n; i++)
		tmp[i] = b[bs->order[i]];
	memcpy(b, tmp, n * sizeof *b);
	return 1;
}

MSORT_INLINE(sort_bb, const struct bbkey *, cmp_bb, sort_bb_part)

static unsigned bits_of(uint64_t x)
{
	unsigned n = 0;
	for (; x; x >>= 1)
		n++;
	return n;
}

/* KEYS' N symbols into V in gprof's order. */
static void sort_exec(struct bbkey *keys, size_t n, const struct bbkey **v)
{
	uint64_t rank_hi = 0, line_hi = 0, lo = UINT64_MAX, hi = 0;
	int negative = 0;           /* (a line below 0 would not pack in order) */
	size_t *fileless = xmalloc((n + 1) * sizeof *fileless);
	fileless[0] = 0;
	for (size_t i = 0; i < n; i++) {
		v[i] = &keys[i];
		fileless[i + 1] = fileless[i] + !keys[i].file_rank;
		if (!keys[i].file_rank)
			continue;
		negative |= keys[i].line < 0;
		rank_hi = keys[i].file_rank > rank_hi ? keys[i].file_rank : rank_hi;
		line_hi = (unsigned)keys[i].line > line_hi ? (unsigned)keys[i].line : line_hi;
		lo = keys[i].addr < lo ? keys[i].addr : lo;
		hi = keys[i].addr > hi ? keys[i].addr : hi;
	}
	struct bb_sort bs = {fileless, bits_of(line_hi), lo <= hi ? bits_of(hi - lo) : 0, lo,
			     NULL, NULL};
	/* (the keys packed must fit in 64 bits, and the counts' indices in 32) */
	int counted = !negative && bits_of(rank_hi) + bs.line_bits + bs.addr_bits <= 64 &&
		      n < UINT32_MAX;
	if (counted) {
		bs.key = xmalloc((n + 1) * sizeof *bs.key);
		bs.order = xmalloc(2 * (n + 1) * sizeof *bs.order);
	}
	sort_bb(v, n, v + n + 1, 0, counted ? &bs : NULL);
	free(bs.key);
	free(bs.order);
	free(fileless);
}

/* KEYS' N symbols' file ranks (strrank.c). */
static void rank_files(struct bbkey *keys, size_t n)
{
	const char **files = xmalloc((n + 1) * sizeof *files);
	size_t *rank = xmalloc((n + 1) * sizeof *rank);
	for (size_t i = 0; i < n; i++)
		files[i] = keys[i].s->file;
	str_ranks(files, n, strcmp, rank);
	for (size_t i = 0; i < n; i++)
		keys[i].file_rank = rank[i];
	free(rank);
	free(files);
}

/* Whether S prints a line when zeros are left out. */
static int has_counts(const struct sym *s)
{
	if (s->ncalls > 0)
		return 1;
	for (int j = 0; s->bb && j < NBBS && s->bb->addr[j]; j++)
		if (s->bb->calls[j] > 0)
			return 1;
	return 0;
}

/* Whether a symbol that prints nothing may be left out of the sort: cmp_bb orders
 * consistently where every symbol has a file, or none has (so the others' order stays). */
static int may_leave_out(const struct analysis *a)
{
	const struct symtab *tab = a->tab;
	if (!a->opt->ignore_zeros || !tab->len)
		return 0;
	for (size_t i = 1; i < tab->len; i++)
		if (!tab->base[i].file != !tab->base[0].file)
			return 0;
	return 1;
}

void exec_counts_print(struct analysis *a, FILE *out)
{
	struct symtab *tab = a->tab;
	struct bbkey *keys = xmalloc((tab->len + 1) * sizeof *keys);
	size_t n = 0;
	int leave_out = may_leave_out(a);
	for (size_t i = 0; i < tab->len; i++) {
		struct sym *s = &tab->base[i];
		if (leave_out && !has_counts(s))
			continue;
		if (symspec_selects(a->opt, s, INCL_EXEC, EXCL_EXEC))
			keys[n++] = (struct bbkey){0, s->line, s->addr, s};
	}
	rank_files(keys, n);
	const struct bbkey **v = xmalloc(2 * (n + 1) * sizeof *v);
	sort_exec(keys, n, v);
	for (size_t i = 0; i < n; i++) {
		const struct sym *s = v[i]->s;
		if (s->ncalls > 0 || !a->opt->ignore_zeros)
			fprintf(out, "%s:%d: (%s:0x%lx) %lu executions\n", s->file ? s->file : "<unknown>",
				s->line, s->name, (unsigned long)s->addr, s->ncalls);
		for (int j = 0; s->bb && j < NBBS && s->bb->addr[j]; j++)
			if (s->bb->calls[j] > 0 || !a->opt->ignore_zeros)
				fprintf(out, "%s:%d: (%s:0x%lx) %lu executions\n",
					s->file ? s->file : "<unknown>", s->line, s->name,
					(unsigned long)s->bb->addr[j], s->bb->calls[j]);
	}
	free(v);
	free(keys);
}

/* gprof's bb_read_rec under -l: each block's count goes to the symbol (line) holding
 * its address, in one of NBBS slots by address; further addresses are dropped. */
void bb_assign(struct symtab *tab, const struct profile *p)
{
	for (size_t i = 0; i < p->nbbs; i++) {
		struct sym *s = symtab_lookup(tab, p->bbs[i].addr);
		if (!s)
			continue;
		if (!s->bb)
			s->bb = xcalloc(1, sizeof *s->bb);
		for (int j = 0; j < NBBS; j++)
			if (!s->bb->addr[j] || s->bb->addr[j] == p->bbs[i].addr) {
				s->bb->addr[j] = p->bbs[i].addr;
				s->bb->calls[j] += (unsigned long)p->bbs[i].count;
				break;
			}
	}
}
