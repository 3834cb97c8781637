/* addrtrie.c: BFD's trie of the address ranges of compilation units. */
#ifndef TGPROF_ADDRTRIE_H
#define TGPROF_ADDRTRIE_H

#include <stddef.h>
#include <stdint.h>

struct addrtrie_range {
	uint64_t lo, hi;
	size_t cu;
};
struct addrtrie_node;
struct addrtrie {
	struct addrtrie_node *root;
	void **chunks;                  /* the memory of every node made, freed together */
	size_t nchunks, cap;
	unsigned char *at;              /* the free part of the last chunk */
	size_t left;
};
void addrtrie_add(struct addrtrie *t, size_t cu, uint64_t lo, uint64_t hi);
const struct addrtrie_node *addrtrie_leaf(const struct addrtrie *t, uint64_t addr, uint64_t *last);
/* A leaf's ranges, *N of them (adding a range may move them) */
const struct addrtrie_range *addrtrie_leaf_ranges(const struct addrtrie_node *leaf, size_t *n);
void addrtrie_free(struct addrtrie *t);

#endif
