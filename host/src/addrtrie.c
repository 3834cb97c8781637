/* The ranges BFD remembers of the compilation units it has read and looked into, kept as
 * BFD keeps them (bfd/dwarf2.c, binutils 2.39 on: insert_arange_in_trie), because the
 * order in which it asks units depends on it: a trie over 64-bit addresses, a byte a
 * level, whose leaves hold up to 16 ranges in the order they came (a full leaf above the
 * bottom becomes an interior node, its ranges inserted again into the children; at the
 * bottom it doubles).  A range that overlaps or touches one of the same unit in a leaf
 * extends that one in place, so it keeps its place there; in a leaf without such a range
 * it goes at the end.  So which unit is asked first about an address is decided leaf by
 * leaf: where the range of one unit ends exactly where the next one's starts and an
 * assembler's Thumb function range reaches one byte past its unit, the address there may
 * be answered by either, depending on how the leaves fell.  Nodes live until the trie is
 * freed: a lookup walks a leaf that a question to a unit may have replaced meanwhile, as
 * BFD's does. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "addrtrie.h"
#include "error.h"

#define LEAF_SIZE 16
#define VMA_BITS 64

struct addrtrie_node {
	unsigned room;                  /* a leaf's capacity; 0: an interior node */
	unsigned n;                     /* a leaf's ranges in use */
	struct addrtrie_range *r;       /* a leaf's ranges */
	struct addrtrie_node **child;   /* an interior node's 256 children */
};

/* SIZE zeroed bytes that live until the trie is freed.  Nodes come from large chunks:
 * a C++ program makes thousands, and a calloc each (and a free each at the end) was a
 * tenth of its run.  Each is zeroed as it is handed out (a small program uses a little of
 * its one chunk). */
#define CHUNK ((size_t)256 << 10)
static void *alloc(struct addrtrie *t, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (size > t->left) {
		size_t n = size > CHUNK ? size : CHUNK;
		if (t->nchunks == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 16;
			t->chunks = xrealloc(t->chunks, t->cap * sizeof *t->chunks);
		}
		t->chunks[t->nchunks++] = t->at = xmalloc(n);
		t->left = n;
	}
	void *p = t->at;
	t->at += size;
	t->left -= size;
	return memset(p, 0, size);
}

static struct addrtrie_node *node_new(struct addrtrie *t, unsigned room)
{
	struct addrtrie_node *n = alloc(t, sizeof *n);
	n->room = room;
	if (room)
		n->r = alloc(t, room * sizeof *n->r);
	else
		n->child = alloc(t, 256 * sizeof *n->child);
	return n;
}

/* BFD's ranges_overlap: equal ends, or one starting inside (or at the end of) the other. */
static int ranges_overlap(uint64_t lo1, uint64_t hi1, uint64_t lo2, uint64_t hi2)
{
	if (lo1 == lo2 || hi1 == hi2)
		return 1;
	if (lo1 > lo2) {
		uint64_t l = lo1, h = hi1;
		lo1 = lo2, hi1 = hi2, lo2 = l, hi2 = h;
	}
	return lo2 <= hi1;
}

/* Into LEAF: the range extends the first of CU's it overlaps or touches, or goes at the
 * end; 0 if it does neither, the leaf being full. */
static int leaf_add(struct addrtrie_node *leaf, size_t cu, uint64_t lo, uint64_t hi)
{
	for (unsigned i = 0; i < leaf->n; i++) {
		struct addrtrie_range *r = &leaf->r[i];
		if (r->cu == cu && ranges_overlap(lo, hi, r->lo, r->hi)) {
			if (lo < r->lo)
				r->lo = lo;
			if (hi > r->hi)
				r->hi = hi;
			return 1;
		}
	}
	if (leaf->n == leaf->room)
		return 0;
	leaf->r[leaf->n++] = (struct addrtrie_range){lo, hi, cu};
	return 1;
}

static struct addrtrie_node *insert(struct addrtrie *t, struct addrtrie_node *node, uint64_t pc,
				    unsigned bits, size_t cu, uint64_t lo, uint64_t hi)
{
	int full = 0;
	if (node->room) {
		if (leaf_add(node, cu, lo, hi))
			return node;
		full = 1;
	}
	if (full && bits < VMA_BITS) {
		struct addrtrie_node *leaf = node;
		node = node_new(t, 0);
		full = 0;
		for (unsigned i = 0; i < leaf->n; i++)
			insert(t, node, pc, bits, leaf->r[i].cu, leaf->r[i].lo, leaf->r[i].hi);
	}
	if (full) {
		struct addrtrie_node *bigger = node_new(t, node->room * 2);
		for (unsigned i = 0; i < node->n; i++)
			bigger->r[i] = node->r[i];
		bigger->n = node->n;
		node = bigger;
	}
	if (node->room) {
		node->r[node->n++] = (struct addrtrie_range){lo, hi, cu};
		return node;
	}
	uint64_t clo = lo, chi = hi;
	if (bits > 0) {
		uint64_t bucket_high = pc + (UINT64_MAX >> bits);   /* inclusive, as BFD's */
		if (clo < pc)
			clo = pc;
		if (chi > bucket_high)
			chi = bucket_high;
	}
	unsigned shift = VMA_BITS - bits - 8;
	unsigned from = (unsigned)(clo >> shift) & 0xff, to = (unsigned)((chi - 1) >> shift) & 0xff;
	for (unsigned ch = from; ch <= to; ch++) {
		struct addrtrie_node *child = node->child[ch];
		if (!child)
			child = node_new(t, LEAF_SIZE);
		/* (a leaf with room takes it here: a range may span hundreds of them) */
		if (child->room && leaf_add(child, cu, lo, hi))
			node->child[ch] = child;
		else
			node->child[ch] = insert(t, child, pc + ((uint64_t)ch << shift), bits + 8,
						 cu, lo, hi);
	}
	return node;
}

void addrtrie_add(struct addrtrie *t, size_t cu, uint64_t lo, uint64_t hi)
{
	if (lo == hi)
		return;
	if (!t->root)
		t->root = node_new(t, LEAF_SIZE);
	t->root = insert(t, t->root, 0, 0, cu, lo, hi);
}

/* The leaf that holds ADDR (NULL: none), and the last address of the block it covers. */
const struct addrtrie_node *addrtrie_leaf(const struct addrtrie *t, uint64_t addr, uint64_t *last)
{
	const struct addrtrie_node *n = t->root;
	int bits = VMA_BITS - 8;
	uint64_t span = UINT64_MAX;              /* the addresses below the bits walked */
	while (n && n->room == 0) {
		n = n->child[(addr >> bits) & 0xff];
		span = bits ? UINT64_MAX >> (VMA_BITS - bits) : 0;
		bits -= 8;
	}
	*last = addr | span;
	return n;
}

const struct addrtrie_range *addrtrie_leaf_ranges(const struct addrtrie_node *leaf, size_t *n)
{
	*n = leaf ? leaf->n : 0;
	return leaf ? leaf->r : NULL;
}

void addrtrie_free(struct addrtrie *t)
{
	for (size_t i = 0; i < t->nchunks; i++)
		free(t->chunks[i]);
	free(t->chunks);
	*t = (struct addrtrie){0};
}
