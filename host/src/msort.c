/* A stable merge sort of pointer arrays, like glibc's qsort (which is a merge sort). */
#include <stdlib.h>
#include <string.h>
#include "tgprof.h"

static void merge_pass(void **a, void **tmp, size_t n, cmp_fn cmp, void *ctx)
{
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = cmp(a[j], a[i], ctx) < 0 ? a[j++] : a[i++];
			while (i < mid)
				tmp[k++] = a[i++];
			while (j < hi)
				tmp[k++] = a[j++];
		}
		memcpy(a, tmp, n * sizeof *a);
	}
}

void msort_ptrs(void **base, size_t n, cmp_fn cmp, void *ctx)
{
	if (n < 2)
		return;
	void **tmp = xmalloc(n * sizeof *tmp);
	merge_pass(base, tmp, n, cmp, ctx);
	free(tmp);
}
