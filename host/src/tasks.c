/* gmon.tasks (doc/format.md): the samples of each task the RTOS registered with
 * profile_task_switch, from the same snapshot as gmon.out.  Decoded field by field in the
 * byte order its header states; every check names the file and the offset, in time
 * linear in the file (but for sorting the ids).  And what is made of it: the per-task
 * table, a task's name for a context of gmon.stacks, and the nodes of chosen tasks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "cg_print.h"
#include "error.h"
#include "filebuf.h"
#include "gmon_io.h"
#include "options.h"
#include "stacks.h"
#include "symtab.h"
#include "tasks.h"

#define TASKS_HEADER 32u
#define NO_PARENT 0xFFFFFFFFu
#define NAME_MAX_LEN 255u

static int tasks_check_header(struct tasks *ts, const unsigned char *b, size_t len)
{
	const char *path = ts->path;
	if (filebuf_check_start(path, b, len, "gmon.tasks", TASKS_HEADER, "gmtk",
				&ts->big, &ts->addr))
		return -1;
	ts->rate = (uint32_t)filebuf_get(b + 16, 4, ts->big);
	ts->n = (uint32_t)filebuf_get(b + 20, 4, ts->big);
	ts->samples = (uint32_t)filebuf_get(b + 24, 4, ts->big);
	ts->unregistered = (uint32_t)filebuf_get(b + 28, 4, ts->big);
	/* every record has A + 8 bytes at least: a count the file cannot hold is refused
	 * before anything is allocated for it */
	uint64_t least = TASKS_HEADER + (uint64_t)ts->n * (ts->addr + 8);
	if (least > len)
		return error("%s: offset 20: %u task records need %llu bytes at least, the file "
			     "has %zu", path, ts->n, (unsigned long long)least, len);
	return 0;
}

/* A name as it can be printed everywhere: control bytes, and ';' (folded stacks' frame
 * separator), become '_'; an empty one is the task's id. */
static char *printable_name(const unsigned char *p, uint32_t len, uint64_t id)
{
	char *s = xmalloc(len + 32);
	if (!len) {
		snprintf(s, len + 32, "[task 0x%llx]", (unsigned long long)id);
		return s;
	}
	for (uint32_t i = 0; i < len; i++)
		s[i] = p[i] < 0x20 || p[i] == 0x7f || p[i] == ';' ? '_' : (char)p[i];
	s[len] = 0;
	return s;
}

/* Record I at *AT: id, samples, name length, the name padded to a multiple of 4. */
static int tasks_decode_record(struct tasks *ts, const unsigned char *b, size_t len,
			       size_t *at, uint32_t i)
{
	unsigned a = ts->addr;
	size_t off = *at;
	if (len - off < a + 8)
		return error("%s: offset %zu: task record %u cut short (%zu of %u bytes)",
			     ts->path, off, i, len - off, a + 8);
	struct task *t = &ts->t[i];
	t->offset = off;
	t->id = filebuf_get(b + off, a, ts->big);
	t->samples = (uint32_t)filebuf_get(b + off + a, 4, ts->big);
	uint32_t name_len = (uint32_t)filebuf_get(b + off + a + 4, 4, ts->big);
	if (name_len > NAME_MAX_LEN)
		return error("%s: offset %zu: task %u's name length %u (at most %u)", ts->path,
			     off + a + 4, i, name_len, NAME_MAX_LEN);
	size_t padded = (name_len + 3u) & ~(size_t)3;
	if (len - off - a - 8 < padded)
		return error("%s: offset %zu: task %u's name (%u bytes, %zu padded) runs past "
			     "the end of the file (%zu bytes)", ts->path, off + a + 8, i, name_len,
			     padded, len);
	t->name = printable_name(b + off + a + 8, name_len, t->id);
	*at = off + a + 8 + padded;
	return 0;
}

static int cmp_task_id(const void *l, const void *r)
{
	const struct task *x = *(const struct task *const *)l, *y = *(const struct task *const *)r;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* ts->by_id: the tasks sorted by id, each id once (a context is named by its id). */
static int tasks_index(struct tasks *ts)
{
	ts->by_id = xmalloc((ts->n + 1) * sizeof *ts->by_id);
	for (uint32_t i = 0; i < ts->n; i++)
		ts->by_id[i] = &ts->t[i];
	qsort(ts->by_id, ts->n, sizeof *ts->by_id, cmp_task_id);
	for (uint32_t i = 1; i < ts->n; i++)
		if (ts->by_id[i]->id == ts->by_id[i - 1]->id)
			return error("%s: offset %zu: task id 0x%llx again (its first record is at "
				     "offset %zu)", ts->path, ts->by_id[i]->offset,
				     (unsigned long long)ts->by_id[i]->id, ts->by_id[i - 1]->offset);
	return 0;
}

/* The header and records of B (LEN bytes): 0, or -1 after an error (the caller releases
 * what was decoded). */
int tasks_decode(struct tasks *ts, const unsigned char *b, size_t len)
{
	if (tasks_check_header(ts, b, len))
		return -1;
	ts->t = xcalloc(ts->n + 1, sizeof *ts->t);
	size_t at = TASKS_HEADER;
	uint64_t sum = 0;
	for (uint32_t i = 0; i < ts->n; i++) {
		if (tasks_decode_record(ts, b, len, &at, i))
			return -1;
		sum += ts->t[i].samples;
	}
	if (at != len)
		return error("%s: offset %zu: the %u task records end here, the file has %zu "
			     "bytes", ts->path, at, ts->n, len);
	if (sum != ts->samples)
		return error("%s: offset 24: %u samples, but the task records hold %llu",
			     ts->path, ts->samples, (unsigned long long)sum);
	return tasks_index(ts);
}

int tasks_read(struct tasks *ts, const char *path)
{
	memset(ts, 0, sizeof *ts);
	ts->path = path;
	unsigned char *b;
	size_t len;
	if (filebuf_read(path, &b, &len))
		return -1;
	int rc = tasks_decode(ts, b, len);
	free(b);
	if (rc)
		tasks_release(ts);
	else
		tasks_report(ts);
	return rc;
}

/* Are the tasks of the gmon files' snapshot?  The header's samples are gmon.out's word
 * at offset 8; when the gmon files have no counters (glibc's, or not believed) nothing
 * tells.  0 if they are; else, said on standard error, -1 for a file named on the
 * command line (an error) and 1 for one found beside the gmon file (a warning: the
 * caller goes on without it). */
int tasks_fit_gmon(const struct tasks *ts, const struct profile *p, int named)
{
	uint64_t sum[3];
	gmon_counters(p, sum);
	if (!sum[0] || sum[0] == ts->samples) {
		if (p->have_rate && ts->rate != p->hz)
			warning("%s: offset 16: profiling rate %u, but %s's histogram has %u per "
				"second: not written with it? (the table's seconds are at %u)",
				ts->path, ts->rate, p->files[0].name, p->hz, ts->rate);
		return 0;
	}
	char why[1024];
	snprintf(why, sizeof why, "%s: offset 24: %u samples, but %s%s holds %llu (its samples "
		 "word, offset 8): not the same snapshot", ts->path, ts->samples, p->files[0].name,
		 p->nfiles > 1 ? " and the other gmon files" : "", (unsigned long long)sum[0]);
	return filebuf_refuse(named, why, "");
}

/* The task of ID, or NULL. */
const struct task *tasks_find(const struct tasks *ts, uint64_t id)
{
	size_t lo = 0, hi = ts->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ts->by_id[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ts->n && ts->by_id[lo]->id == id ? ts->by_id[lo] : NULL;
}

/* The tasks named NAME (an RTOS may give two tasks one name): *CHOSEN gets a flag per
 * task, in slot order; -1 after an error naming the tasks there are. */
int tasks_select(const struct tasks *ts, const char *name, unsigned char **chosen)
{
	size_t found = 0;
	*chosen = xcalloc(ts->n + 1, 1);
	for (uint32_t i = 0; i < ts->n; i++)
		if (!strcmp(ts->t[i].name, name))
			(*chosen)[i] = 1, found++;
	if (found)
		return 0;
	error("--task=%s: no task of that name in %s; its tasks:", name, ts->path);
	for (uint32_t i = 0; i < ts->n && !quiet; i++)
		fprintf(stderr, "  %s\n", ts->t[i].name);
	return -1;
}

/* Each node's task (its index in slot order): the task whose context (a root with
 * self_pc 0, its id in from_pc) it lies under; NO_TASK under an interrupt handler's root
 * or a context of an id gmon.tasks does not have.  Parents come first: one pass. */
uint32_t *tasks_of_nodes(const struct tasks *ts, const struct stacks *st)
{
	uint32_t *task = xmalloc((st->n + 1) * sizeof *task);
	for (uint32_t i = 0; i < st->n; i++) {
		const struct stack_node *n = &st->nodes[i];
		if (n->parent != NO_PARENT) {
			task[i] = task[n->parent];
		} else {
			const struct task *t = n->self ? NULL : tasks_find(ts, n->from);
			task[i] = t ? (uint32_t)(t - ts->t) : NO_TASK;
		}
	}
	return task;
}

/* The calls each task made: the calls of every node under its contexts (a context node
 * itself is no call). */
uint64_t *tasks_calls(const struct tasks *ts, const struct stacks *st)
{
	uint64_t *calls = xcalloc(ts->n + 1, sizeof *calls);
	uint32_t *task = tasks_of_nodes(ts, st);
	for (uint32_t i = 0; i < st->n; i++)
		if (task[i] != NO_TASK && st->nodes[i].parent != NO_PARENT)
			calls[task[i]] += st->nodes[i].calls;
	free(task);
	return calls;
}

/* The target's loss counter, on standard error when not zero. */
void tasks_report(const struct tasks *ts)
{
	if (ts->unregistered)
		warning("%s: %u task switch%s found no free slot in the target's task table: "
			"the samples of those tasks are in \"(other tasks)\"", ts->path,
			ts->unregistered, ts->unregistered == 1 ? "" : "es");
}

void tasks_release(struct tasks *ts)
{
	for (uint32_t i = 0; ts->t && i < ts->n; i++)
		free(ts->t[i].name);
	free(ts->t);
	free(ts->by_id);
	ts->t = NULL;
	ts->by_id = NULL;
	ts->n = 0;
}

static int cmp_task_samples(const void *l, const void *r)
{
	const struct task *x = *(const struct task *const *)l, *y = *(const struct task *const *)r;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The per-task table, most samples first: each task's samples, its share of all of them
 * (the CPU time the snapshot covers), its seconds and, from gmon.stacks (ST, or NULL),
 * the calls it made.  CHOSEN (or NULL: all): the tasks printed. */
void tasks_print(const struct tasks *ts, const struct stacks *st,
		 const unsigned char *chosen, FILE *out)
{
	const struct task **by = xmalloc((ts->n + 1) * sizeof *by);
	uint64_t *calls = st ? tasks_calls(ts, st) : NULL;
	int w = 4;
	for (uint32_t i = 0; i < ts->n; i++) {
		by[i] = &ts->t[i];
		if ((int)strlen(ts->t[i].name) > w)
			w = (int)strlen(ts->t[i].name);
	}
	qsort(by, ts->n, sizeof *by, cmp_task_samples);
	fprintf(out, "Time per task (%s: %u samples, %u per second):\n\n", ts->path,
		ts->samples, ts->rate);
	fprintf(out, "%-*s  %10s  %7s  %10s  %10s\n", w, "task", "samples", "% CPU", "seconds",
		"calls made");
	for (uint32_t i = 0; i < ts->n; i++) {
		const struct task *t = by[i];
		if (chosen && !chosen[t - ts->t])
			continue;
		fprintf(out, "%-*s  %10u  %7.2f  ", w, t->name, t->samples,
			ts->samples ? 100.0 * t->samples / ts->samples : 0.0);
		if (ts->rate)
			fprintf(out, "%10.3f  ", (double)t->samples / ts->rate);
		else
			fprintf(out, "%10s  ", "-");
		if (calls)
			fprintf(out, "%10llu\n", (unsigned long long)calls[t - ts->t]);
		else
			fprintf(out, "%10s\n", "-");
	}
	fputs("\nA sample taken in an interrupt handler counts for the task it interrupted.\n", out);
	if (ts->unregistered)
		fprintf(out, "(other tasks): the tasks of %u task switch%s that found no free "
			"slot in the target's task table.\n", ts->unregistered,
			ts->unregistered == 1 ? "" : "es");
	if (!calls)
		fputs("calls made: counted in gmon.stacks (the stack-profiling mode); there is "
		      "none here.\n", out);
	else
		fputs("calls made: every call in the task's contexts in gmon.stacks (calls in "
		      "interrupt handlers are their own roots there, in no task).\n", out);
	free(calls);
	free(by);
}

/* ---- a task's flat profile, measured ---------------------------------------------- */

struct fn_share {
	const struct sym *s;       /* NULL: the context's own samples ("[no frame]") */
	uint64_t samples, calls;
};

static int cmp_share(const void *l, const void *r)
{
	const struct fn_share *x = l, *y = r;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->s == y->s ? 0 : !x->s ? -1 : !y->s ? 1 : x->s->addr < y->s->addr ? -1 : 1;
}

/* The chosen tasks' samples and calls per function, from their contexts' nodes: a
 * sample counts for the innermost instrumented frame.  *NSHARE entries, [no frame]
 * first; *IN_TREE: their samples in all. */
static struct fn_share *task_shares(const struct analysis *a, size_t *nshare,
				    uint64_t *in_tree)
{
	const struct stacks *st = a->stacks;
	const struct symtab *tab = a->tab;
	struct fn_share *sh = xcalloc(tab->len + 2, sizeof *sh);
	uint32_t *task = tasks_of_nodes(a->tasks, st);
	*in_tree = 0;
	for (uint32_t i = 0; i < st->n; i++) {
		const struct stack_node *n = &st->nodes[i];
		if (task[i] == NO_TASK || !a->chosen_tasks[task[i]])
			continue;
		const struct sym *s = n->self ? symtab_lookup(tab, n->self) : NULL;
		struct fn_share *f = s ? &sh[1 + (s - tab->base)] : n->self ? NULL : &sh[0];
		*in_tree += n->samples;
		if (!f)
			continue;          /* an address in no function: in the total only */
		f->s = s;
		f->samples += n->samples;
		if (n->parent != NO_PARENT)
			f->calls += n->calls;
	}
	free(task);
	size_t kept = 0;
	for (size_t i = 0; i < tab->len + 1; i++)
		if (sh[i].samples || sh[i].calls)
			sh[kept++] = sh[i];
	qsort(sh, kept, sizeof *sh, cmp_share);
	*nshare = kept;
	return sh;
}

/* --task: where the chosen tasks' time went, by function, from gmon.stacks.  Shares are
 * of the tasks' samples in gmon.tasks; those not in their contexts were taken in
 * interrupt handlers (roots of their own in the tree) or in the profiler. */
void task_profile_print(const struct analysis *a, FILE *out)
{
	const struct tasks *ts = a->tasks;
	uint64_t all = 0, in_tree;
	for (uint32_t i = 0; i < ts->n; i++)
		if (a->chosen_tasks[i])
			all += ts->t[i].samples;
	size_t n;
	struct fn_share *sh = task_shares(a, &n, &in_tree);
	fprintf(out, "\nFlat profile of task %s, measured (%s: each sample counts for the "
		"innermost instrumented frame):\n\n", a->opt->task, a->stacks->path);
	fprintf(out, "%6s  %9s %9s  name\n", "% task", "samples", "calls");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%6.2f  %9llu %9llu  %s\n",
			all ? 100.0 * (double)sh[i].samples / (double)all : 0.0,
			(unsigned long long)sh[i].samples, (unsigned long long)sh[i].calls,
			sh[i].s ? print_dname(a, sh[i].s) : "[no frame]");
	}
	fprintf(out, "\n%llu of the task's %llu samples are in its contexts in %s; the others "
		"were taken in interrupt handlers or in the profiler.\n",
		(unsigned long long)in_tree, (unsigned long long)all, a->stacks->path);
	free(sh);
}
