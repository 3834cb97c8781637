/* Histogram: samples credited to symbols, and the flat profile. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "blurb.h"
#include "cg_print.h"
#include "error.h"
#include "gmon_io.h"
#include "hist.h"
#include "msort.h"
#include "numfmt.h"
#include "options.h"
#include "symspec.h"
#include "symtab.h"


/* (uint64_t)d without undefined behaviour when a hostile header makes d huge. */
static uint64_t to_u64(double d)
{
	if (!(d >= 0.0))
		return 0;
	if (d >= 18446744073709551616.0)
		return UINT64_MAX;
	return (uint64_t)d;
}

static void assign_one(struct analysis *a, const struct hist *h)
{
	struct symtab *tab = a->tab;
	double scale = a->prof->hist_scale;
	uint64_t lowpc = h->lowpc / 2;
	size_t j, k = 1;
	for (uint32_t i = 0; i < h->num_bins; i++) {
		uint64_t bin_count = h->sample[i];
		if (!bin_count) {
			/* (most bins are empty: skipped four at a time) */
			while (i + 4 < h->num_bins && !(h->sample[i + 1] | h->sample[i + 2] |
							 h->sample[i + 3] | h->sample[i + 4]))
				i += 4;
			continue;
		}
		uint64_t bin_low = lowpc + to_u64(scale * i);
		uint64_t bin_high = lowpc + to_u64(scale * (i + 1));
		double count_time = (double)(unsigned)bin_count;
		a->total_time += count_time;
		for (j = k - 1; j < tab->len; k = ++j) {
			uint64_t sym_low = tab->base[j].scaled_addr;
			/* gprof reads one entry past the table here; that entry's scaled
			 * address is never set, so the last symbol gets no samples. */
			uint64_t sym_high = j + 1 < tab->len ? tab->base[j + 1].scaled_addr : 0;
			if (bin_high < sym_low)
				break;
			if (bin_low >= sym_high)
				continue;
			uint64_t overlap = (bin_high < sym_high ? bin_high : sym_high) -
					   (bin_low > sym_low ? bin_low : sym_low);
			if (overlap > 0) {
				double credit = overlap * count_time / scale;
				if (symspec_selects(a->opt, &tab->base[j], INCL_FLAT, EXCL_FLAT))
					tab->base[j].time += credit;
				else
					a->total_time -= credit;
			}
		}
	}
}

void hist_assign(struct analysis *a)
{
	for (size_t i = 0; i < a->tab->len; i++)
		a->tab->base[i].scaled_addr = a->tab->base[i].addr / 2;
	for (unsigned i = 0; i < a->prof->nhists; i++)
		assign_one(a, &a->prof->hists[i]);
}

static int cmp_time(const void *l, const void *r, void *ctx)
{
	const struct sym *left = l, *right = r;
	(void)ctx;
	double diff = right->time - left->time;
	if (diff > 0.0)
		return 1;
	if (diff < 0.0)
		return -1;
	if (right->ncalls > left->ncalls)
		return 1;
	if (right->ncalls < left->ncalls)
		return -1;
	return strcmp(left->name, right->name);
}

static const struct { char prefix; double scale; } si_tab[] = {
	{'T', 1e-12}, {'G', 1e-09}, {'M', 1e-06}, {'K', 1e-03}, {' ', 1e-00},
	{'m', 1e+03}, {'u', 1e+06}, {'n', 1e+09}, {'p', 1e+12}, {'f', 1e+15},
	{'a', 1e+18},
};

/* gprof's SI prefix for the per-call columns: the one that shows the largest time per
 * call in [1, 1000) ("ms" under -T). */
static unsigned flat_log_scale(const struct analysis *a, void **sorted, size_t n)
{
	if (a->opt->bsd)
		return 5;
	struct sym *top = NULL;
	double top_time = 0.0;
	unsigned log_scale = 0;
	for (size_t i = 0; i < n; i++) {
		struct sym *s = sorted[i];
		if (s->ncalls) {
			double t = (s->time + s->child_time) / s->ncalls;
			if (t > top_time) {
				top = s;
				top_time = t;
			}
		}
	}
	if (top && top->ncalls && top_time > 0.0) {
		top_time /= a->prof->hz;
		for (log_scale = 0; log_scale < 10; log_scale++) {
			double v = si_tab[log_scale].scale * top_time;
			if (v >= 1.0 && v < 1000.0)
				break;
		}
	}
	return log_scale;
}

/* The symbols to sort for the flat profile (*N of them): every one, or without those it
 * leaves out for having neither time nor calls (-l makes thousands), when their order
 * among the rest cannot change for it: every time a number, so that cmp_time orders
 * consistently. */
static void **unprinted_left_out(const struct analysis *a, size_t *n)
{
	const struct symtab *tab = a->tab;
	void **v = xmalloc((tab->len + 1) * sizeof *v);
	int drop = a->opt->ignore_zeros;
	for (size_t i = 0; drop && i < tab->len; i++)
		if (!isfinite(tab->base[i].time))
			drop = 0;
	size_t k = 0;
	for (size_t i = 0; i < tab->len; i++)
		if (!drop || tab->base[i].ncalls || tab->base[i].time != 0)
			v[k++] = &tab->base[i];
	*n = k;
	return v;
}

/* gprof's (long) hist_scale * sizeof (UNIT): an unsigned product, wrapping.  A scale past
 * long's range (a damaged file's) converts as x86-64's conversion gives it, LONG_MIN, not
 * as undefined behaviour would. */
long hist_granularity(const struct analysis *a)
{
	double hs = a->prof->hist_scale;
	long scale = hs >= -0x1p63 && hs < 0x1p63 ? (long)hs : LONG_MIN;
	return (long)((unsigned long)scale * 2UL);
}

/* The granularity or sample line and the column headings; the total time to divide by. */
static double flat_header(const struct analysis *a, unsigned log_scale, FILE *out)
{
	double hz = a->prof->hz, ts = a->tscale, total = a->total_time;
	const char *dim = a->tunit;
	char unit[64];
	snprintf(unit, sizeof unit, "%c%c/call", si_tab[log_scale].prefix, a->prof->abbrev);
	if (a->opt->bsd) {
		fprintf(out, "\ngranularity: each sample hit covers %ld byte(s)",
			hist_granularity(a));
		if (total > 0.0)
			fprintf(out, " for %.2f%% of %.2f %s\n\n", 100.0 / total, total / hz * ts, dim);
	} else {
		fprintf(out, "\nEach sample counts as %g %s.\n", 1.0 / hz * ts, dim);
	}
	if (total <= 0.0) {
		fputs(" no time accumulated\n\n", out);
		total = 1.0;
	}
	fprintf(out, "%5.5s %10.10s %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "%  ", "cumulative",
		"self  ", "", "self  ", "total ", "");
	fprintf(out, "%5.5s %9.9s  %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "time", dim, dim,
		"calls", unit, unit, "name");
	return total;
}

/* One line of the flat profile: S, ACCUM the running sum of self times. */
static void flat_line(const struct analysis *a, const struct sym *s, double accum, double total,
		      double scale, FILE *out)
{
	double hz = a->prof->hz, ts = a->tscale;
	double pct = total > 0.0 ? 100 * s->time / total : 0.0;
	char line[8 * NUMFMT_MAX], *p = line;     /* gprof's "%6.2f %9.2f %8.2f ..." */
	int bsd = a->opt->bsd;
	p = fmt_f(p, pct, bsd ? 5 : 6, bsd ? 1 : 2);
	*p++ = ' ';
	p = fmt_f(p, accum / hz * ts, bsd ? 10 : 9, 2);
	*p++ = ' ';
	p = fmt_f(p, s->time / hz * ts, 8, 2);
	*p++ = ' ';
	if (s->ncalls) {
		p = fmt_lu(p, s->ncalls, 8);
		*p++ = ' ';
		p = fmt_f(p, scale * s->time / hz / s->ncalls, 8, 2);
		*p++ = ' ';
		p = fmt_f(p, scale * (s->time + s->child_time) / hz / s->ncalls, 8, 2);
	} else {
		p = fmt_blank(p, 8 + 1 + 8 + 1 + 8);
	}
	p = fmt_blank(p, 2);
	fwrite(line, 1, (size_t)(p - line), out);
	if (a->opt->bsd)
		print_name(a, s, out);
	else
		print_name_only(a, s, out);
	fputc('\n', out);
}

void flat_print(struct analysis *a, FILE *out)
{
	const struct options *o = a->opt;
	if (!o->bsd)
		fputs("Flat profile:\n", out);
	else if (!o->brief)
		fprintf(out, "\n\n\nflat profile:\n%s", flat_blurb);
	size_t n = 0;
	void **sorted = unprinted_left_out(a, &n);
	msort_ptrs(sorted, n, cmp_time, NULL);
	unsigned log_scale = flat_log_scale(a, sorted, n);
	double total = flat_header(a, log_scale, out), accum = 0.0;
	for (size_t i = 0; i < n; i++) {
		struct sym *s = sorted[i];
		if (!symspec_selects(a->opt, s, INCL_FLAT, EXCL_FLAT))
			continue;
		if (o->ignore_zeros && s->ncalls == 0 && s->time == 0)
			continue;
		accum += s->time;
		flat_line(a, s, accum, total, si_tab[log_scale].scale, out);
	}
	free(sorted);
	if (!o->brief && !o->bsd)
		fputs(flat_blurb, out);
}
