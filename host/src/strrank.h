/* strrank.c: the ranks of strings known by pointer, for sorts that tie on a name or a file
 * (the symbols of one function's lines, or of one file, share a pointer). */
#ifndef TGPROF_STRRANK_H
#define TGPROF_STRRANK_H

#include <stddef.h>

/* A total order of strings: < 0, 0 (the same string), > 0. */
typedef int (*str_order_fn)(const char *a, const char *b);

/* RANK[i] := the rank of S[i] among the N strings in ORDER (1 the first; equal strings one
 * rank), 0 for a NULL.  Returns the number of ranks, and one. */
size_t str_ranks(const char *const *s, size_t n, str_order_fn order, size_t *rank);

#endif
