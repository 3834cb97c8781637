/* A stable merge sort of pointers with a context pointer (msort.c). */
#ifndef TGPROF_MSORT_H
#define TGPROF_MSORT_H

#include <stddef.h>

typedef int (*cmp_fn)(const void *a, const void *b, void *ctx);
void msort_ptrs(void **base, size_t n, cmp_fn cmp, void *ctx);

/* msort_ptrs with the comparison inline, for sorts of tens of thousands of entries (a
 * call through a pointer for each comparison was most of one): NAME(TYPE *b, size_t n,
 * TYPE *tmp, size_t off, void *ctx) makes exactly msort_ptrs's comparisons, CMP(x, y)
 * (pointers to two entries) <= 0 keeping X first.  TMP has room for N entries.  PART(b,
 * n, tmp, off, ctx) may sort a part (the N entries that were at OFF of the input) itself
 * and return 1, where any sort gives what the merge sort gives there (CMP a total order
 * on its entries); MSORT_WHOLE never does. */
#define MSORT_WHOLE(b, n, tmp, off, ctx) 0
#define MSORT_INLINE(name, type, cmp, part)                                             \
	static void name(type *b, size_t n, type *tmp, size_t off, void *ctx)           \
	{                                                                               \
		if (n <= 1 || part(b, n, tmp, off, ctx))                                \
			return;                                                         \
		size_t n1 = n / 2, n2 = n - n1;                                         \
		type *b1 = b;                                                           \
		type *b2 = b + n1;                                                      \
		type *t = tmp;                                                          \
		name(b1, n1, tmp, off, ctx);                                            \
		name(b2, n2, tmp, off + n1, ctx);                                       \
		while (n1 > 0 && n2 > 0) {                                              \
			if (cmp(b1, b2) <= 0) {                                         \
				*t++ = *b1++;                                           \
				--n1;                                                   \
			} else {                                                        \
				*t++ = *b2++;                                           \
				--n2;                                                   \
			}                                                               \
		}                                                                       \
		if (n1 > 0)                                                             \
			memcpy(t, b1, n1 * sizeof *t);                                  \
		memcpy(b, tmp, (n - n2) * sizeof *b);                                   \
	}

#endif
