/* Everything as JSON: the files read, the functions with flat-profile and call-graph
 * numbers, the cycles and the arcs. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "cg_arcs.h"
#include "cg_print.h"
#include "error.h"
#include "gmon_io.h"
#include "tasks.h"
#include "symtab.h"

size_t utf8_char_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char lo = 0x80, hi = 0xBF;  /* the second byte's range, by the first */
	size_t n;
	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xC2 || s[0] > 0xF4)       /* a continuation byte, or overlong, or past */
		return 0;
	n = s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
	if (s[0] == 0xE0)
		lo = 0xA0;                    /* overlong */
	else if (s[0] == 0xED)
		hi = 0x9F;                    /* UTF-16 surrogates */
	else if (s[0] == 0xF0)
		lo = 0x90;                    /* overlong */
	else if (s[0] == 0xF4)
		hi = 0x8F;                    /* past U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return n;
}

/* Names come from the files read (symbols, task names, paths), in no promised
 * encoding: a byte that is not part of a UTF-8 character is written as U+FFFD, so that
 * the file is always JSON (which is UTF-8). */
void json_str(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t n = utf8_char_len(s);
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else if (n == 0)
			fputs("\\ufffd", f);
		else
			fwrite(s, 1, n, f);
		s += n ? n : 1;
	}
	fputc('"', f);
}

void json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fputs("null", f);
}

FILE *json_open(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		error_errno("%s", path);
	return f;
}

int json_close(FILE *f, const char *path)
{
	if (ferror(f) | fclose(f))
		return error("%s: write error", path);
	return 0;
}

/* "files": each gmon file read, with the target's counters. */
static void json_files(FILE *f, const struct profile *p)
{
	for (unsigned i = 0; i < p->nfiles; i++) {
		const struct gmon_file_info *fi = &p->files[i];
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, fi->name);
		fprintf(f, ", \"format\": \"%s\", \"version\": %d, \"histograms\": %d, \"arcs\": %d, "
			   "\"basic_blocks\": %d, \"samples_total\": %u, \"samples_overhead\": %u, "
			   "\"arcs_dropped\": %u}",
			fi->format == 0 ? "gnu" : fi->format == 1 ? "bsd44" : "oldbsd", fi->version,
			fi->nhist, fi->narcs, fi->nbbs, fi->samples_total, fi->samples_overhead,
			fi->arcs_dropped);
	}
}

/* "functions": every symbol, its flat and call graph times. */
static void json_functions(FILE *f, const struct analysis *a, double hz)
{
	for (size_t i = 0; i < a->tab->len; i++) {
		const struct sym *s = &a->tab->base[i];
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, s->name);
		fputs(", \"display_name\": ", f);
		json_str(f, print_dname(a, s));
		fprintf(f, ", \"address\": \"0x%llx\", \"end\": \"0x%llx\", \"static\": %s, \"file\": ",
			(unsigned long long)s->addr, (unsigned long long)s->end_addr,
			s->is_static ? "true" : "false");
		json_str(f, s->file);
		fprintf(f, ", \"line\": %d, \"index\": %d, \"samples\": ", s->line, s->index);
		json_num(f, s->time);
		fputs(", \"self_seconds\": ", f);
		json_num(f, s->time / hz);
		fprintf(f, ", \"calls\": %lu, \"self_calls\": %lu, \"cycle\": %d, \"graph_self_seconds\": ",
			s->ncalls, s->self_calls, s->cyc_num);
		json_num(f, s->prop_self / hz);
		fputs(", \"graph_children_seconds\": ", f);
		json_num(f, s->prop_child / hz);
		fputs(", \"children_seconds\": ", f);
		json_num(f, s->child_time / hz);
		fputc('}', f);
	}
}

/* "cycles": each cycle, its times and members. */
static void json_cycles(FILE *f, const struct analysis *a, double hz)
{
	for (int c = 1; c <= a->ncycles; c++) {
		const struct sym *cyc = &a->cycles[c];
		fprintf(f, "%s\n    {\"number\": %d, \"index\": %d, \"calls\": %lu, \"internal_calls\": %lu, "
			   "\"self_seconds\": ", c > 1 ? "," : "", c, cyc->index, cyc->ncalls,
			cyc->self_calls);
		json_num(f, cyc->prop_self / hz);
		fputs(", \"children_seconds\": ", f);
		json_num(f, cyc->prop_child / hz);
		fputs(", \"members\": [", f);
		for (const struct sym *m = cyc->cyc_next; m; m = m->cyc_next) {
			json_str(f, m->name);
			if (m->cyc_next)
				fputs(", ", f);
		}
		fputs("]}", f);
	}
}

/* "arcs": every arc, its count and estimated times. */
static void json_arcs(FILE *f, const struct analysis *a, double hz)
{
	for (size_t i = 0; i < a->narcs; i++) {
		const struct arc *arc = &a->arcs[i];
		fprintf(f, "%s\n    {\"caller\": ", i ? "," : "");
		json_str(f, arc->parent->name);
		fputs(", \"callee\": ", f);
		json_str(f, arc->child->name);
		fprintf(f, ", \"count\": %lu, \"estimated_self_seconds\": ", arc->count);
		json_num(f, arc->time / hz);
		fputs(", \"estimated_children_seconds\": ", f);
		json_num(f, arc->child_time / hz);
		fputc('}', f);
	}
}

/* "tasks" (with gmon.tasks): each task's id, name, samples and, from gmon.stacks, the
 * calls it made (null without). */
static void json_tasks(FILE *f, const struct analysis *a)
{
	const struct tasks *ts = a->tasks;
	uint64_t *calls = a->stacks ? tasks_calls(ts, a->stacks) : NULL;
	fprintf(f, ",\n  \"task_switches_unregistered\": %u,\n  \"tasks\": [", ts->unregistered);
	for (uint32_t i = 0; i < ts->n; i++) {
		fprintf(f, "%s\n    {\"id\": \"0x%llx\", \"name\": ", i ? "," : "",
			(unsigned long long)ts->t[i].id);
		json_str(f, ts->t[i].name);
		fprintf(f, ", \"samples\": %u, \"calls\": ", ts->t[i].samples);
		if (calls)
			fprintf(f, "%llu}", (unsigned long long)calls[i]);
		else
			fputs("null}", f);
	}
	fputs("\n  ]", f);
	free(calls);
}

int json_write(struct analysis *a, const char *path)
{
	FILE *f = json_open(path);
	if (!f)
		return -1;
	const struct profile *p = a->prof;
	double hz = p->hz;
	fputs("{\n  \"tool\": \"tgprof\",\n  \"files\": [", f);
	json_files(f, p);
	fprintf(f, "\n  ],\n  \"rate\": %u,\n  \"dimension\": ", p->hz);
	json_str(f, p->dimension);
	fprintf(f, ",\n  \"bytes_per_bin\": ");
	json_num(f, p->hist_scale * 2);
	fprintf(f, ",\n  \"total_samples\": ");
	json_num(f, a->total_time);
	fputs(",\n  \"functions\": [", f);
	json_functions(f, a, hz);
	fputs("\n  ],\n  \"cycles\": [", f);
	json_cycles(f, a, hz);
	fputs("\n  ],\n  \"arcs\": [", f);
	json_arcs(f, a, hz);
	fputs("\n  ]", f);
	if (a->tasks)
		json_tasks(f, a);
	fputs("\n}\n", f);
	return json_close(f, path);
}
