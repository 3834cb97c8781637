/* gmon.stacks: the calling-context tree, read (stacks.c) and written as folded stacks,
 * a flame graph and speedscope's format (stackout.c). */
#ifndef TGPROF_STACKS_H
#define TGPROF_STACKS_H

#include <stdint.h>

struct analysis;
struct profile;

struct stack_node {
	uint32_t parent;           /* 0xFFFFFFFF: a root */
	uint64_t self, from;       /* the function (0: a thread's context), its call site */
	uint32_t calls, samples;
};
struct stacks {
	const char *path;
	int big;                   /* byte order of the file */
	unsigned addr;             /* address bytes */
	uint32_t rate, n, samples, overhead, truncated, unrecorded, repaired, unhooked,
		 unswitched;
	struct stack_node *nodes;  /* n, parents first */
};
int stacks_read(struct stacks *st, const char *path);
int stacks_fit_gmon(const struct stacks *st, const struct profile *p, int named);
int stacks_decode_nodes(struct stacks *st, const unsigned char *b);
void stacks_release(struct stacks *st);
void stacks_report(const struct stacks *st);
void stacks_measure(struct analysis *a, const struct stacks *st);

/* stackout.c */
int stacks_write_folded(const struct stacks *st, const struct analysis *a, const char *path);
int stacks_write_flame(const struct stacks *st, const struct analysis *a, const char *path);
int stacks_write_speedscope(const struct stacks *st, const struct analysis *a,
			    const char *path);

#endif
