/* -s: the sum of all profile files, written as a GNU gmon.out (gmon.sum) the way gprof
 * writes it, except that a bin sum over 65535 (or an arc count over 2^32-1) does not
 * get truncated: the rest goes into further records for the same range or arc, which
 * gprof and tgprof add up when they read the file.  The header's spare bytes carry the
 * target's counters summed over the inputs.  Basic-block counts are written as gprof writes
 * them: those kept under -l, none otherwise. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "analysis.h"
#include "cg_arcs.h"
#include "error.h"
#include "gmon_io.h"
#include "sum.h"
#include "symtab.h"

struct writer {
	FILE *f;
	int big_endian, is64;
};

static void put(struct writer *w, uint64_t v, int n)
{
	unsigned char b[8];
	for (int i = 0; i < n; i++)
		b[w->big_endian ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
	fwrite(b, 1, (size_t)n, w->f);
}

static void put_vma(struct writer *w, uint64_t v)
{
	put(w, v, w->is64 ? 8 : 4);
}

/* gprof leaves the header's 12 spare bytes uninitialized; we write the target's counters
 * summed over the inputs (samples, profiler overhead, arcs not recorded), each u32 in
 * the file's byte order, held at 2^32-1 (the arcs at 2^24-1) rather than wrapped, and the
 * check byte over them in the arcs word's top byte, as the target writes them. */
static void put_counters(struct writer *w, const struct profile *p)
{
	uint64_t c[3];
	gmon_counters(p, c);
	uint32_t samples = c[0] > UINT32_MAX ? UINT32_MAX : (uint32_t)c[0];
	uint32_t overhead = c[1] > UINT32_MAX ? UINT32_MAX : (uint32_t)c[1];
	uint32_t arcs = c[2] > 0xffffff ? 0xffffff : (uint32_t)c[2];
	put(w, samples, 4);
	put(w, overhead, 4);
	put(w, arcs | (uint32_t)gmon_counters_check(samples, overhead, arcs) << 24, 4);
}

int gmon_write_sum(const struct profile *p, const struct analysis *a, const char *path)
{
	struct writer w = {fopen(path, "wb"), p->big_endian, p->is64};
	if (!w.f)
		return error_errno("%s", path);
	fwrite("gmon", 1, 4, w.f);
	put(&w, 1, 4);
	put_counters(&w, p);
	for (unsigned r = 0; r < p->nhists; r++) {
		const struct hist *h = &p->hists[r];
		uint64_t done = 0;
		for (int pass = 0;; pass++) {
			int more = 0;
			if (pass > 0) {
				for (uint32_t i = 0; i < h->num_bins && !more; i++)
					more = h->sample[i] > done;
				if (!more)
					break;
			}
			put(&w, 0, 1);
			put_vma(&w, h->lowpc);
			put_vma(&w, h->highpc);
			put(&w, h->num_bins, 4);
			put(&w, p->hz, 4);
			fwrite(p->dimension, 1, 15, w.f);
			fputc(p->abbrev, w.f);
			for (uint32_t i = 0; i < h->num_bins; i++) {
				uint64_t left = h->sample[i] > done ? h->sample[i] - done : 0;
				put(&w, left > 0xffff ? 0xffff : left, 2);
			}
			done += 0xffff;
		}
	}
	const struct symtab *tab = a->tab;
	for (size_t i = 0; i < tab->len; i++)
		for (const struct arc *arc = tab->base[i].children; arc; arc = arc->next_child) {
			unsigned long left = arc->count;
			do {
				unsigned long n = left > 0xffffffffUL ? 0xffffffffUL : left;
				put(&w, 1, 1);
				put_vma(&w, arc->parent->addr);
				put_vma(&w, arc->child->addr);
				put(&w, n, 4);
				left -= n;
			} while (left);
		}
	/* gprof's bb_write_blocks: the blocks kept under -l (else none), by symbol */
	if (p->input_bb) {
		uint32_t nblocks = 0;
		for (size_t i = 0; i < tab->len; i++)
			for (int j = 0; tab->base[i].bb && j < NBBS && tab->base[i].bb->addr[j]; j++)
				nblocks++;
		put(&w, 2, 1);
		put(&w, nblocks, 4);
		for (size_t i = 0; i < tab->len; i++)
			for (int j = 0; tab->base[i].bb && j < NBBS && tab->base[i].bb->addr[j]; j++) {
				put_vma(&w, tab->base[i].bb->addr[j]);
				put_vma(&w, tab->base[i].bb->calls[j]);
			}
	}
	if (ferror(w.f) | fclose(w.f))
		return error("%s: write error", path);
	return 0;
}
