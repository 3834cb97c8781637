/* gmon.tasks: each task's share of the samples (the target's per-task time), read
 * field by field (tasks.c); the per-task table, and tasks named in gmon.stacks' contexts. */
#ifndef TGPROF_TASKS_H
#define TGPROF_TASKS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct analysis;
struct profile;
struct stacks;

struct task {
	uint64_t id;               /* what the RTOS passed to profile_task_switch */
	uint32_t samples;          /* timer samples taken while it ran */
	char *name;                /* printable: control bytes and ';' made '_' */
	size_t offset;             /* of its record in the file */
};
struct tasks {
	const char *path;
	int big;                   /* byte order of the file */
	unsigned addr;             /* address bytes */
	uint32_t rate, n, samples, unregistered;
	struct task *t;            /* n, in the target's slot order */
	struct task **by_id;       /* the same, by id */
};

int tasks_read(struct tasks *ts, const char *path);
int tasks_decode(struct tasks *ts, const unsigned char *b, size_t len);
int tasks_fit_gmon(const struct tasks *ts, const struct profile *p, int named);
const struct task *tasks_find(const struct tasks *ts, uint64_t id);
int tasks_select(const struct tasks *ts, const char *name, unsigned char **chosen);
#define NO_TASK 0xFFFFFFFFu
uint32_t *tasks_of_nodes(const struct tasks *ts, const struct stacks *st);
void tasks_report(const struct tasks *ts);
void tasks_release(struct tasks *ts);
uint64_t *tasks_calls(const struct tasks *ts, const struct stacks *st);
void tasks_print(const struct tasks *ts, const struct stacks *st,
		 const unsigned char *chosen, FILE *out);
void task_profile_print(const struct analysis *a, FILE *out);

#endif
