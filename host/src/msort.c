/* A merge sort of pointer arrays that makes exactly the comparisons glibc's qsort (a
 * top-down merge sort) makes, in the same order.  gprof's comparison functions are not
 * always consistent (two cycle headers with equal time each claim to go first), so only
 * the same algorithm gives the same order. */
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "msort.h"

static void msort_rec(void **b, size_t n, void **tmp, cmp_fn cmp, void *ctx)
{
	if (n <= 1)
		return;
	size_t n1 = n / 2, n2 = n - n1;
	void **b1 = b, **b2 = b + n1;
	msort_rec(b1, n1, tmp, cmp, ctx);
	msort_rec(b2, n2, tmp, cmp, ctx);
	void **t = tmp;
	while (n1 > 0 && n2 > 0) {
		if (cmp(*b1, *b2, ctx) <= 0) {
			*t++ = *b1++;
			--n1;
		} else {
			*t++ = *b2++;
			--n2;
		}
	}
	if (n1 > 0)
		memcpy(t, b1, n1 * sizeof *t);
	memcpy(b, tmp, (n - n2) * sizeof *b);
}

void msort_ptrs(void **base, size_t n, cmp_fn cmp, void *ctx)
{
	if (n < 2)
		return;
	void **tmp = xmalloc(n * sizeof *tmp);
	msort_rec(base, n, tmp, cmp, ctx);
	free(tmp);
}
