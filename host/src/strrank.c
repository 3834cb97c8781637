/* The distinct pointers are found through a table that grows as they come (few for many
 * strings: it stays in cache), a string the same pointer as the one before it without a
 * look; only the distinct ones are sorted. */
#include <stdint.h>
#include <stdlib.h>
#include "error.h"
#include "msort.h"
#include "strrank.h"

struct ptr_table {
	const char **key;          /* a pointer per slot, NULL empty */
	size_t *at, mask, n;       /* a slot's pointer's place among the distinct ones */
};

static size_t ptr_slot(const struct ptr_table *t, const char *p)
{
	size_t h = ((uintptr_t)p * 0x9E3779B97F4A7C15ull >> 17) & t->mask;
	while (t->key[h] && t->key[h] != p)
		h = (h + 1) & t->mask;
	return h;
}

/* P's place among the distinct pointers, added (as DISTINCT[n]) if new. */
static size_t ptr_place(struct ptr_table *t, const char *p, const char **distinct)
{
	size_t h = ptr_slot(t, p);
	if (t->key[h])
		return t->at[h];
	if (2 * (t->n + 1) > t->mask + 1) {     /* at most half full */
		struct ptr_table g = {xcalloc(2 * (t->mask + 1), sizeof *g.key),
				      xmalloc(2 * (t->mask + 1) * sizeof *g.at),
				      2 * (t->mask + 1) - 1, t->n};
		for (size_t j = 0; j <= t->mask; j++)
			if (t->key[j]) {
				size_t k = ptr_slot(&g, t->key[j]);
				g.key[k] = t->key[j];
				g.at[k] = t->at[j];
			}
		free(t->key);
		free(t->at);
		*t = g;
		h = ptr_slot(t, p);
	}
	t->key[h] = p;
	t->at[h] = t->n;
	distinct[t->n] = p;
	return t->n++;
}

static int cmp_at(const void *l, const void *r, void *ctx)
{
	str_order_fn order = (str_order_fn)(uintptr_t)ctx;
	return order(*(const char *const *)l, *(const char *const *)r);
}

size_t str_ranks(const char *const *s, size_t n, str_order_fn order, size_t *rank)
{
	struct ptr_table t = {xcalloc(64, sizeof *t.key), xmalloc(64 * sizeof *t.at), 63, 0};
	const char **distinct = xmalloc((n + 1) * sizeof *distinct);
	for (size_t i = 0; i < n; i++)     /* (each its pointer's place, for now) */
		rank[i] = !s[i] ? SIZE_MAX : i > 0 && s[i] == s[i - 1] ? rank[i - 1]
					   : ptr_place(&t, s[i], distinct);
	void **by = xmalloc((t.n + 1) * sizeof *by);
	for (size_t j = 0; j < t.n; j++)
		by[j] = &distinct[j];
	msort_ptrs(by, t.n, cmp_at, (void *)(uintptr_t)order);
	size_t *of = xmalloc((t.n + 1) * sizeof *of), r = 0;
	for (size_t j = 0; j < t.n; j++) {
		if (j == 0 || order(*(const char **)by[j - 1], *(const char **)by[j]))
			r++;
		of[(const char **)by[j] - distinct] = r;
	}
	for (size_t i = 0; i < n; i++)
		rank[i] = rank[i] == SIZE_MAX ? 0 : of[rank[i]];
	free(of);
	free(by);
	free(distinct);
	free(t.at);
	free(t.key);
	return r + 1;
}
