/* radix.c: a stable order of 64-bit keys by counting, for the many-thousand-entry tables
 * a program's DWARF gives (a merge sort moved each entry log n times). */
#ifndef TGPROF_RADIX_H
#define TGPROF_RADIX_H

#include <stddef.h>
#include <stdint.h>

/* ORDER[0..N) := the indices of KEY's N keys, lowest key first, equal keys in index
 * order.  TMP has room for N indices.  N must be below 2^32. */
void radix_order(const uint64_t *key, size_t n, uint32_t *order, uint32_t *tmp);

#endif
