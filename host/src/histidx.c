/* A profile's histogram records by address range: AVL trees over record indexes
 * (balanced in the worst case, whatever order a file gives the ranges in). */
#include <stdlib.h>
#include "error.h"
#include "gmon_io.h"
#include "histidx.h"

static int proper(uint64_t lo, uint64_t hi)
{
	return lo < hi;
}

/* (lo, hi) against record i's range, as memcmp. */
static int cmp(const struct hist *h, unsigned i, uint64_t lo, uint64_t hi)
{
	if (lo != h[i].lowpc)
		return lo < h[i].lowpc ? -1 : 1;
	if (hi != h[i].highpc)
		return hi < h[i].highpc ? -1 : 1;
	return 0;
}

unsigned hidx_find(const struct hist_index *x, const struct hist *h, uint64_t lo,
		   uint64_t hi)
{
	unsigned i = x->node ? x->root[!proper(lo, hi)] : HIDX_NONE;
	while (i != HIDX_NONE) {
		int c = cmp(h, i, lo, hi);
		if (c == 0)
			return i;
		i = c < 0 ? x->node[i].left : x->node[i].right;
	}
	return i;
}

/* The proper ranges are disjoint, so ordered by lowpc their highpcs are in order too:
 * of those starting below hi, only the last can reach past lo. */
unsigned hidx_overlap(const struct hist_index *x, const struct hist *h, uint64_t lo,
		      uint64_t hi)
{
	if (!proper(lo, hi) || !x->node)
		return HIDX_NONE;
	unsigned i = x->root[0], last = HIDX_NONE;
	while (i != HIDX_NONE) {
		if (h[i].lowpc < hi) {
			last = i;
			i = x->node[i].right;
		} else {
			i = x->node[i].left;
		}
	}
	return last != HIDX_NONE && h[last].highpc > lo ? last : HIDX_NONE;
}

static int height(const struct hist_index *x, unsigned i)
{
	return i == HIDX_NONE ? 0 : x->node[i].height;
}

static void update(struct hist_index *x, unsigned i)
{
	int l = height(x, x->node[i].left), r = height(x, x->node[i].right);
	x->node[i].height = 1 + (l > r ? l : r);
}

/* Rotates the subtree at i towards its left (dir 0) or right (dir 1); its new root. */
static unsigned rotate(struct hist_index *x, unsigned i, int dir)
{
	struct hidx_node *n = &x->node[i];
	unsigned c = dir ? n->left : n->right;
	if (dir) {
		n->left = x->node[c].right;
		x->node[c].right = i;
	} else {
		n->right = x->node[c].left;
		x->node[c].left = i;
	}
	update(x, i);
	update(x, c);
	return c;
}

static unsigned rebalance(struct hist_index *x, unsigned i)
{
	update(x, i);
	struct hidx_node *n = &x->node[i];
	int bal = height(x, n->left) - height(x, n->right);
	if (bal > 1) {
		if (height(x, x->node[n->left].left) < height(x, x->node[n->left].right))
			n->left = rotate(x, n->left, 0);
		return rotate(x, i, 1);
	}
	if (bal < -1) {
		if (height(x, x->node[n->right].right) < height(x, x->node[n->right].left))
			n->right = rotate(x, n->right, 1);
		return rotate(x, i, 0);
	}
	return i;
}

/* Recursion as deep as the tree: 1.44 log2 n, under 50 for any file. */
static unsigned insert(struct hist_index *x, const struct hist *h, unsigned at, unsigned i)
{
	if (at == HIDX_NONE)
		return i;
	if (cmp(h, at, h[i].lowpc, h[i].highpc) < 0)
		x->node[at].left = insert(x, h, x->node[at].left, i);
	else
		x->node[at].right = insert(x, h, x->node[at].right, i);
	return rebalance(x, at);
}

void hidx_add(struct hist_index *x, const struct hist *h, unsigned i)
{
	if (!x->node)
		x->root[0] = x->root[1] = HIDX_NONE;
	if (i >= x->cap) {
		x->cap = x->cap ? 2 * x->cap : 16;
		while (x->cap <= i)
			x->cap *= 2;
		x->node = xrealloc(x->node, x->cap * sizeof *x->node);
	}
	x->node[i] = (struct hidx_node){HIDX_NONE, HIDX_NONE, 1};
	unsigned *root = &x->root[!proper(h[i].lowpc, h[i].highpc)];
	*root = insert(x, h, *root, i);
}

void hidx_release(struct hist_index *x)
{
	free(x->node);
	x->node = NULL;
	x->cap = 0;
}
