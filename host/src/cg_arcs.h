/* The call graph: arcs between symbols, cycles and the propagation of time (cg.c). */
#ifndef TGPROF_CG_ARCS_H
#define TGPROF_CG_ARCS_H

#include <stddef.h>

struct analysis;
struct sym;

struct arc {
	struct sym *parent, *child;
	unsigned long count;
	double time, child_time;
	struct arc *next_parent, *next_child;
	size_t seq;                /* creation order */
};

int cg_build(struct analysis *a);
void cg_assemble(struct analysis *a);

#endif
