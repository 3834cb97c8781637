/* A stable merge sort of pointers with a context pointer (msort.c). */
#ifndef TGPROF_MSORT_H
#define TGPROF_MSORT_H

#include <stddef.h>

typedef int (*cmp_fn)(const void *a, const void *b, void *ctx);
void msort_ptrs(void **base, size_t n, cmp_fn cmp, void *ctx);

#endif
