/* histidx.c: a profile's histogram records by address range, so that reading one more
 * record finds the earlier one for the same range, or one it overlaps, in O(log n)
 * instead of a pass over all of them (80 000 one-bin records took 3.5 s). */
#ifndef TGPROF_HISTIDX_H
#define TGPROF_HISTIDX_H

#include <stdint.h>

struct hist;

#define HIDX_NONE 0xffffffffu

/* Two AVL trees over the indexes of the records, ordered by (lowpc, highpc): one of
 * the ranges with lowpc < highpc, which never overlap one another (each is checked
 * before it goes in), and one of the other ranges (empty or reversed: they overlap
 * nothing, as common_low < common_high cannot hold for them). */
struct hist_index {
	struct hidx_node {
		unsigned left, right;
		int height;
	} *node;                   /* by record index */
	unsigned cap;
	unsigned root[2];          /* [0] proper ranges, [1] the others */
};

/* The record for exactly lo..hi, or HIDX_NONE. */
unsigned hidx_find(const struct hist_index *x, const struct hist *h, uint64_t lo,
		   uint64_t hi);
/* A record whose range overlaps lo..hi (as gprof's hist_clip_symbol_address finds
 * common_low < common_high), or HIDX_NONE. */
unsigned hidx_overlap(const struct hist_index *x, const struct hist *h, uint64_t lo,
		      uint64_t hi);
/* Record i of h (its range already found neither equal to nor overlapping another). */
void hidx_add(struct hist_index *x, const struct hist *h, unsigned i);
void hidx_release(struct hist_index *x);

#endif
