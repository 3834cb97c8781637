/* LSD radix sort of indices by their keys, 11 bits a pass over the bits the keys differ
 * in (the span from the least key up): addresses within a program take two or three. */
#include <string.h>
#include "radix.h"

#define RADIX_BITS 11
#define RADIX_SIZE (1u << RADIX_BITS)

void radix_order(const uint64_t *key, size_t n, uint32_t *order, uint32_t *tmp)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < n; i++) {
		order[i] = (uint32_t)i;
		if (key[i] < lo)
			lo = key[i];
		if (key[i] > hi)
			hi = key[i];
	}
	if (n < 2)
		return;
	unsigned bits = 0;
	for (uint64_t span = hi - lo; span; span >>= 1)
		bits++;
	size_t count[RADIX_SIZE];
	for (unsigned shift = 0; shift < bits; shift += RADIX_BITS) {
		memset(count, 0, sizeof count);
		for (size_t i = 0; i < n; i++)
			count[(key[order[i]] - lo) >> shift & (RADIX_SIZE - 1)]++;
		for (size_t d = 0, sum = 0; d < RADIX_SIZE; d++) {
			size_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(key[order[i]] - lo) >> shift & (RADIX_SIZE - 1)]++] = order[i];
		memcpy(order, tmp, n * sizeof *order);
	}
}
