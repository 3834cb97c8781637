/* The profile in callgrind format, for KCachegrind: self cost in samples (gprof's
 * fractional shares rounded so that they add up to the summary: largest remainders get
 * the rest), exact call counts, and the inclusive cost of each call as gprof estimates
 * it (call-count share of the callee's time).  C++ names are demangled, as valgrind
 * writes them. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "cg_arcs.h"
#include "cg_print.h"
#include "error.h"
#include "msort.h"
#include "outputs.h"
#include "symtab.h"

static unsigned long long samples(double t)
{
	return t > 0 ? (unsigned long long)llround(t) : 0;
}

static int cmp_remainder(const void *l, const void *r, void *ctx)
{
	const double *rem = ctx;
	double x = rem[(size_t)(uintptr_t)l], y = rem[(size_t)(uintptr_t)r];
	if (x != y)
		return x > y ? -1 : 1;
	return 0;
}

/* Self costs: each symbol's time rounded down, then one more sample to those with the
 * largest remainders until they add up to the rounded sum of all the times. */
static unsigned long long *self_costs(const struct symtab *tab, unsigned long long *total)
{
	unsigned long long *cost = xcalloc(tab->len + 1, sizeof *cost);
	double *rem = xcalloc(tab->len + 1, sizeof *rem);
	void **order = xmalloc((tab->len + 1) * sizeof *order);
	double sum = 0;
	unsigned long long floors = 0;
	for (size_t i = 0; i < tab->len; i++) {
		double t = tab->base[i].time > 0 ? tab->base[i].time : 0;
		double fl = floor(t);
		sum += t;
		cost[i] = samples(fl);
		floors += cost[i];
		rem[i] = t - fl;
		order[i] = (void *)(uintptr_t)i;
	}
	msort_ptrs(order, tab->len, cmp_remainder, rem);
	unsigned long long want = samples(sum);
	for (size_t k = 0; floors < want && k < tab->len; k++, floors++)
		cost[(size_t)(uintptr_t)order[k]]++;
	*total = floors;
	free(rem);
	free(order);
	return cost;
}

int callgrind_write(struct analysis *a, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return error_errno("%s", path);
	struct symtab *tab = a->tab;
	unsigned long long total;
	unsigned long long *cost = self_costs(tab, &total);
	fprintf(f, "# callgrind format\nversion: 1\ncreator: tgprof\npositions: line\n"
		   "events: Samples\nsummary: %llu\n\n", total);
	for (size_t i = 0; i < tab->len; i++) {
		const struct sym *s = &tab->base[i];
		if (s->time == 0 && !s->children && !s->parents)
			continue;
		if (s->file)
			fprintf(f, "fl=%s\n", s->file);
		else
			fputs("fl=???\n", f);
		/* demangled, as valgrind writes them (unless --no-demangle) */
		fprintf(f, "fn=%s\n%d %llu\n", print_dname(a, s), s->line, cost[i]);
		for (const struct arc *arc = s->children; arc; arc = arc->next_child) {
			const struct sym *c = arc->child;
			if (c->file && c->file != s->file)
				fprintf(f, "cfi=%s\n", c->file);
			fprintf(f, "cfn=%s\ncalls=%lu %d\n%d %llu\n", print_dname(a, c), arc->count,
				c->line, s->line, samples(arc->time + arc->child_time));
		}
		fputc('\n', f);
	}
	free(cost);
	if (ferror(f) | fclose(f))
		return error("%s: write error", path);
	return 0;
}
