/* libFuzzer target: the gmon.tasks reader (header and task records, both byte orders and
 * widths as the input says), then what is made of the tasks over a fixed calling-context
 * tree whose contexts have the ids 0, 0x1000 and 0x2000 (and an interrupt handler's root):
 * the per-task table, one task's measured flat profile, the stacks' outputs restricted
 * to it and named after the tasks, JSON (to /dev/null).  The reader works on memory here
 * (tasks_decode), as tasks_read does once it has read the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cg_arcs.h"
#include "fixed-analysis.h"
#include "outputs.h"
#include "stacks.h"
#include "tasks.h"

/* main's context (id 0) and two tasks' (0x1000, 0x2000), each calling into the fixed
 * functions, and a handler's root; an id no task may have (0x3000). */
static void fixed_stacks(struct stacks *st)
{
	static const struct stack_node nodes[] = {
		{0xFFFFFFFF, 0, 0, 0, 1}, {0, 0x1000, 0x40, 1, 3}, {1, 0x1040, 0x1004, 5, 7},
		{0xFFFFFFFF, 0, 0x1000, 0, 2}, {3, 0x1080, 0x50, 2, 11}, {4, 0x10c0, 0x1084, 9, 4},
		{0xFFFFFFFF, 0, 0x2000, 0, 0}, {6, 0x1100, 0x60, 3, 5},
		{0xFFFFFFFF, 0x1140, 0, 4, 6}, {0xFFFFFFFF, 0, 0x3000, 0, 1},
	};
	memset(st, 0, sizeof *st);
	st->path = "fixed.stacks";
	st->addr = 8;
	st->n = sizeof nodes / sizeof nodes[0];
	st->nodes = xmalloc(sizeof nodes);
	memcpy(st->nodes, nodes, sizeof nodes);
	for (uint32_t i = 0; i < st->n; i++)
		st->samples += nodes[i].samples;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	quiet = 1;
	struct tasks ts = {.path = "fuzz.tasks"};
	if (tasks_decode(&ts, data, size) == 0 && ts.n) {
		struct symtab tab;
		struct profile p;
		struct options o;
		struct analysis a;
		struct stacks st;
		fixed_analysis(&tab, &p, &a, &o);
		fixed_stacks(&st);
		unsigned char *chosen = xcalloc(ts.n + 1, 1);
		chosen[ts.n / 2] = 1;
		o.task = ts.t[ts.n / 2].name;
		a.stacks = &st;
		a.tasks = &ts;
		FILE *null = fopen("/dev/null", "w");
		if (cg_build(&a) == 0) {
			cg_assemble(&a);
			tasks_print(&ts, &st, NULL, null);
			json_write(&a, "/dev/null");
			stacks_write_folded(&st, &a, "/dev/null");
			a.chosen_tasks = chosen;
			tasks_print(&ts, &st, chosen, null);
			task_profile_print(&a, null);
			stacks_write_flame(&st, &a, "/dev/null");
			stacks_write_speedscope(&st, &a, "/dev/null");
		}
		fclose(null);
		free(chosen);
		stacks_release(&st);
		fixed_analysis_release(&tab, &p, &a);
	}
	tasks_release(&ts);
	return 0;
}
