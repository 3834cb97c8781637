/* Printing the call graph and the index by function name, as gprof's cg_print.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "blurb.h"
#include "cg_arcs.h"
#include "cg_print.h"
#include "demangle.h"
#include "error.h"
#include "hist.h"
#include "gmon_io.h"
#include "msort.h"
#include "numfmt.h"
#include "options.h"
#include "stacks.h"
#include "symtab.h"

#define LESSTHAN -1
#define EQUALTO 0
#define GREATERTHAN 1

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* The name as printed: demangled unless -T or --no-demangle (as gprof). */
const char *print_dname(const struct analysis *a, const struct sym *s)
{
	const char *name = s->name;
	if (name && !a->opt->bsd && !a->opt->no_demangle) {
		struct sym *w = (struct sym *)s;
		if (!w->dname_done) {
			w->dname = demangle(s->name);
			w->dname_done = 1;
		}
		if (w->dname)
			name = w->dname;
	}
	return name;
}

int print_name_only(const struct analysis *a, const struct sym *s, FILE *out)
{
	if (!s->name)
		return 0;
	const char *name = print_dname(a, s);
	fputs(name, out);
	int size = (int)strlen(name);
	if ((a->opt->lines || a->opt->inline_files) && s->file) {
		const char *f = a->opt->print_path ? s->file : base_name(s->file);
		if (a->opt->lines)
			size += fprintf(out, " (%s:%d @ %llx)", f, s->line, (unsigned long long)s->addr);
		else
			size += fprintf(out, " (%s:%d)", f, s->line);
	}
	return size;
}

void print_name(const struct analysis *a, const struct sym *s, FILE *out)
{
	print_name_only(a, s, out);
	if (s->cyc_num != 0)
		fprintf(out, " <cycle %d>", s->cyc_num);
	if (s->index != 0) {
		char b[32], *p = b;
		*p++ = ' ';
		*p++ = s->print_flag ? '[' : '(';
		p = fmt_d(p, s->index);
		*p++ = s->print_flag ? ']' : ')';
		fwrite(b, 1, (size_t)(p - b), out);
	}
}

/* The self and children columns of the call graph: gprof's "%7.2f %7.2f" (BSD's "%7.2f
 * %11.2f"), or blanks as wide. */
static char *fmt_times(char *p, int bsd, double self, double child)
{
	p = fmt_f(p, self, 7, 2);
	*p++ = ' ';
	return fmt_f(p, child, bsd ? 11 : 7, 2);
}

static char *blank_times(char *p, int bsd)
{
	return fmt_blank(p, 7 + 1 + (bsd ? 11 : 7));
}

/* The calls column after the count: "+%-7lu" for calls within a cycle, else " %7.7s". */
static char *fmt_self_calls(char *p, unsigned long self_calls)
{
	if (self_calls != 0) {
		*p++ = '+';
		return fmt_lu(p, self_calls, -7);
	}
	return fmt_blank(p, 8);
}

static int in_cycle(const struct arc *arc)
{
	return arc->parent->cyc_num != 0 && arc->child->cyc_num != 0 &&
	       arc->parent->cyc_num == arc->child->cyc_num;
}

static int cmp_arc(const struct arc *left, const struct arc *right)
{
	if (left->parent == left->child)
		return LESSTHAN;
	if (right->parent == right->child)
		return GREATERTHAN;
	if (in_cycle(left)) {
		if (in_cycle(right)) {
			if (left->count < right->count)
				return LESSTHAN;
			if (left->count > right->count)
				return GREATERTHAN;
			return EQUALTO;
		}
		return LESSTHAN;
	}
	if (in_cycle(right))
		return GREATERTHAN;
	double lt = left->time + left->child_time, rt = right->time + right->child_time;
	if (lt < rt)
		return LESSTHAN;
	if (lt > rt)
		return GREATERTHAN;
	if (left->count < right->count)
		return LESSTHAN;
	if (left->count > right->count)
		return GREATERTHAN;
	return EQUALTO;
}

/* gprof sorts each list by insertion: parents ascending, children descending, and an
 * arc equal to ones already placed goes before them.  The same order, stably: */
struct pos_arc {
	struct arc *arc;
	size_t pos;
};

static int cmp_parents(const void *l, const void *r, void *ctx)
{
	const struct pos_arc *a = l, *b = r;
	(void)ctx;
	int c = cmp_arc(a->arc, b->arc);
	if (c)
		return c;
	return a->pos > b->pos ? -1 : a->pos < b->pos;
}

static int cmp_children(const void *l, const void *r, void *ctx)
{
	const struct pos_arc *a = l, *b = r;
	(void)ctx;
	int c = cmp_arc(b->arc, a->arc);
	if (c)
		return c;
	return a->pos > b->pos ? -1 : a->pos < b->pos;
}

static struct arc *sort_list(struct arc *head, int children)
{
	size_t n = 0;
	for (struct arc *a = head; a; a = children ? a->next_child : a->next_parent)
		n++;
	if (n < 2)
		return head;
	struct pos_arc *pa = xmalloc(n * sizeof *pa);
	void **pp = xmalloc(n * sizeof *pp);
	size_t i = 0;
	for (struct arc *a = head; a; a = children ? a->next_child : a->next_parent, i++) {
		pa[i].arc = a;
		pa[i].pos = i;
		pp[i] = &pa[i];
	}
	msort_ptrs(pp, n, children ? cmp_children : cmp_parents, NULL);
	for (i = 0; i < n; i++) {
		struct arc *a = ((struct pos_arc *)pp[i])->arc;
		struct arc *next = i + 1 < n ? ((struct pos_arc *)pp[i + 1])->arc : NULL;
		if (children)
			a->next_child = next;
		else
			a->next_parent = next;
	}
	head = ((struct pos_arc *)pp[0])->arc;
	free(pa);
	free(pp);
	return head;
}

static void print_header(struct analysis *a, FILE *out)
{
	const struct options *o = a->opt;
	if (!o->bsd)
		fputs(o->brief ? "\t\t\tCall graph\n\n" : "\t\t     Call graph (explanation follows)\n\n",
		      out);
	if (a->stacks)
		fprintf(out, "\nmeasured: every caller's share of a function's time and its children's "
			"time\nis what the calls from it really took (%s), not an estimate from call "
			"counts\n", a->stacks->path);
	fprintf(out, "\ngranularity: each sample hit covers %ld byte(s)", hist_granularity(a));
	if (a->print_time > 0.0) {
		fprintf(out, " for %.2f%% of %.2f %s\n\n", 100.0 / a->print_time,
			a->print_time / a->prof->hz * a->tscale, a->tscale == 1.0 ? "seconds" : a->tunit);
	} else {
		fputs(" no time propagated\n\n", out);
		a->print_time = 1.0;
	}
	if (o->bsd) {
		fprintf(out, "%6.6s %5.5s %7.7s %11.11s %7.7s/%-7.7s     %-8.8s\n", "", "", "", "",
			"called", "total", "parents");
		fprintf(out, "%-6.6s %5.5s %7.7s %11.11s %7.7s+%-7.7s %-8.8s\t%5.5s\n", "index",
			"%time", "self", "descendants", "called", "self", "name", "index");
		fprintf(out, "%6.6s %5.5s %7.7s %11.11s %7.7s/%-7.7s     %-8.8s\n", "", "", "", "",
			"called", "total", "children");
		fputc('\n', out);
	} else {
		fputs("index % time    self  children    called     name\n", out);
	}
}

static void print_cycle(struct analysis *a, struct sym *cyc, FILE *out)
{
	char buf[32];
	double hz = a->prof->hz / a->tscale;
	char line[8 * NUMFMT_MAX], *p = line;
	snprintf(buf, sizeof buf, "[%d]", cyc->index);
	p = fmt_s(p, buf, -6, 6);
	*p++ = ' ';
	p = fmt_f(p, 100 * (cyc->prop_self + cyc->prop_child) / a->print_time, 5, 1);
	*p++ = ' ';
	p = fmt_times(p, a->opt->bsd, cyc->prop_self / hz, cyc->prop_child / hz);
	*p++ = ' ';
	p = fmt_lu(p, cyc->ncalls, 7);
	p = fmt_self_calls(p, cyc->self_calls);
	fwrite(line, 1, (size_t)(p - line), out);
	fprintf(out, " <cycle %d as a whole> [%d]\n", cyc->cyc_num, cyc->index);
}

static int cmp_member(const struct sym *l, const struct sym *r)
{
	double lt = l->prop_self + l->prop_child, rt = r->prop_self + r->prop_child;
	unsigned long lc = l->ncalls + l->self_calls, rc = r->ncalls + r->self_calls;
	if (lt > rt)
		return GREATERTHAN;
	if (lt < rt)
		return LESSTHAN;
	if (lc > rc)
		return GREATERTHAN;
	if (lc < rc)
		return LESSTHAN;
	return EQUALTO;
}

/* Members by decreasing time and calls; equal ones keep their order (insertion sort). */
static int cmp_member_sort(const void *l, const void *r, void *ctx)
{
	(void)ctx;
	return cmp_member(r, l);
}

static void print_members(struct analysis *a, struct sym *cyc, FILE *out)
{
	size_t n = 0;
	for (struct sym *m = cyc->cyc_next; m; m = m->cyc_next)
		n++;
	void **v = xmalloc((n + 1) * sizeof *v);
	n = 0;
	for (struct sym *m = cyc->cyc_next; m; m = m->cyc_next)
		v[n++] = m;
	msort_ptrs(v, n, cmp_member_sort, NULL);
	cyc->cyc_next = n ? v[0] : NULL;
	for (size_t i = 0; i < n; i++)
		((struct sym *)v[i])->cyc_next = i + 1 < n ? v[i + 1] : NULL;
	free(v);
	double hz = a->prof->hz / a->tscale;
	for (struct sym *m = cyc->cyc_next; m; m = m->cyc_next) {
		char line[8 * NUMFMT_MAX], *p = fmt_blank(line, 6 + 1 + 5 + 1);
		p = fmt_times(p, a->opt->bsd, m->prop_self / hz, m->prop_child / hz);
		*p++ = ' ';
		p = fmt_lu(p, m->ncalls, 7);
		p = fmt_self_calls(p, m->self_calls);
		p = fmt_blank(p, 5);
		fwrite(line, 1, (size_t)(p - line), out);
		print_name(a, m, out);
		fputc('\n', out);
	}
}

/* A parent's or child's line before its name: an arc within a cycle (HEAD NULL) has its
 * count alone ("%6.6s %5.5s %7.7s %7.7s %7lu %7.7s     "), any other its times and its
 * count of HEAD's calls ("%6.6s %5.5s %7.2f %7.2f %7lu/%-7lu     "). */
static void arc_columns(FILE *out, int bsd, const struct arc *arc, double hz,
			const struct sym *head)
{
	char line[8 * NUMFMT_MAX], *p = fmt_blank(line, 6 + 1 + 5 + 1);
	if (!head) {
		p = blank_times(p, bsd);
		*p++ = ' ';
		p = fmt_lu(p, arc->count, 7);
		p = fmt_blank(p, 1 + 7);
	} else {
		p = fmt_times(p, bsd, arc->time / hz, arc->child_time / hz);
		*p++ = ' ';
		p = fmt_lu(p, arc->count, 7);
		*p++ = '/';
		p = fmt_lu(p, head->ncalls, -7);
	}
	p = fmt_blank(p, 5);
	fwrite(line, 1, (size_t)(p - line), out);
}

static void print_parents(struct analysis *a, struct sym *child, FILE *out)
{
	int bsd = a->opt->bsd;
	double hz = a->prof->hz / a->tscale;
	struct sym *cycle_head = child->cyc_head ? child->cyc_head : child;
	if (!child->parents) {
		fprintf(out, bsd ? "%6.6s %5.5s %7.7s %11.11s %7.7s %7.7s     <spontaneous>\n"
				 : "%6.6s %5.5s %7.7s %7.7s %7.7s %7.7s     <spontaneous>\n",
			"", "", "", "", "", "");
		return;
	}
	child->parents = sort_list(child->parents, 0);
	for (struct arc *arc = child->parents; arc; arc = arc->next_parent) {
		struct sym *parent = arc->parent;
		int within = child == parent || (child->cyc_num != 0 && parent->cyc_num == child->cyc_num);
		arc_columns(out, bsd, arc, hz, within ? NULL : cycle_head);
		print_name(a, parent, out);
		fputc('\n', out);
	}
}

static void print_children(struct analysis *a, struct sym *parent, FILE *out)
{
	int bsd = a->opt->bsd;
	double hz = a->prof->hz / a->tscale;
	parent->children = sort_list(parent->children, 1);
	for (struct arc *arc = parent->children; arc; arc = arc->next_child) {
		struct sym *child = arc->child;
		int within = child == parent || (child->cyc_num != 0 && child->cyc_num == parent->cyc_num);
		arc_columns(out, bsd, arc, hz, within ? NULL : child->cyc_head);
		print_name(a, child, out);
		fputc('\n', out);
	}
}

static void print_line(struct analysis *a, struct sym *np, FILE *out)
{
	char buf[32];
	double hz = a->prof->hz / a->tscale;
	char line[8 * NUMFMT_MAX], *p = line;
	snprintf(buf, sizeof buf, "[%d]", np->index);
	p = fmt_s(p, buf, -6, 6);
	*p++ = ' ';
	p = fmt_f(p, 100 * (np->prop_self + np->prop_child) / a->print_time, 5, 1);
	*p++ = ' ';
	p = fmt_times(p, a->opt->bsd, np->prop_self / hz, np->prop_child / hz);
	*p++ = ' ';
	if (np->ncalls + np->self_calls != 0) {
		p = fmt_lu(p, np->ncalls, 7);
		p = fmt_self_calls(p, np->self_calls);
	} else {
		p = fmt_blank(p, 7 + 1 + 7);
	}
	*p++ = ' ';
	fwrite(line, 1, (size_t)(p - line), out);
	print_name(a, np, out);
	fputc('\n', out);
}

void cg_print(struct analysis *a, FILE *out, int form_feed)
{
	const struct options *o = a->opt;
	if (!o->brief && o->bsd)
		fputs(bsd_callg_blurb, out);
	if (form_feed)                 /* gprof: after the BSD blurb, before the header */
		fputs("\f\n", out);
	print_header(a, out);
	size_t n = a->tab->len + a->ncycles;
	for (size_t i = 0; i < n; i++) {
		struct sym *p = a->cg_sorted[i];
		if ((o->ignore_zeros && p->ncalls == 0 && p->self_calls == 0 && p->prop_self == 0 &&
		     p->prop_child == 0) || !p->print_flag || (o->lines && !p->is_func))
			continue;
		if (!p->name && p->cyc_num != 0) {
			print_cycle(a, p, out);
			print_members(a, p, out);
		} else {
			print_parents(a, p, out);
			print_line(a, p, out);
			print_children(a, p, out);
		}
		if (o->bsd)
			fputc('\n', out);
		fputs("-----------------------------------------------\n", out);
		if (o->bsd)
			fputc('\n', out);
	}
	if (!o->brief && !o->bsd)
		fputs(callg_blurb, out);
}

static int cmp_name(const void *l, const void *r, void *ctx)
{
	(void)ctx;
	return strcmp(((const struct sym *)l)->name, ((const struct sym *)r)->name);
}

void cg_print_index(struct analysis *a, FILE *out)
{
	const struct options *o = a->opt;
	struct symtab *tab = a->tab;
	int column_width = (o->width - 1) / 3;
	void **v = xmalloc((tab->len + a->ncycles + 1) * sizeof *v);
	size_t nnames = 0;
	for (size_t i = 0; i < tab->len; i++) {
		struct sym *s = &tab->base[i];
		if (o->ignore_zeros && s->ncalls == 0 && s->time == 0)
			continue;
		v[nnames++] = s;
	}
	msort_ptrs(v, nnames, cmp_name, NULL);
	size_t todo = nnames;
	for (int i = 1; i <= a->ncycles; i++)
		v[todo++] = &a->cycles[i];
	fputs("\f\nIndex by function name\n\n", out);
	size_t rows = (todo + 2) / 3;
	char buf[64];
	for (size_t i = 0; i < rows; i++) {
		int col = 0, starting_col = 0;
		for (size_t j = i; j < todo; j += rows) {
			struct sym *s = v[j];
			snprintf(buf, sizeof buf, s->print_flag ? "[%d]" : "(%d)", s->index);
			if (j < nnames) {
				if (o->bsd) {
					fprintf(out, "%6.6s %-19.19s", buf, s->name);
				} else {
					col += (int)strlen(buf);
					for (; col < starting_col + 5; ++col)
						fputc(' ', out);
					fprintf(out, " %s ", buf);
					col += print_name_only(a, s, out);
					if (!o->lines && s->is_static && s->file) {
						const char *f = o->print_path ? s->file : base_name(s->file);
						fprintf(out, " (%s)", f);
						col += (int)strlen(f) + 3;
					}
				}
			} else if (o->bsd) {
				fprintf(out, "%6.6s ", buf);
				snprintf(buf, sizeof buf, "<cycle %d>", s->cyc_num);
				fprintf(out, "%-19.19s", buf);
			} else {
				col += (int)strlen(buf);
				for (; col < starting_col + 5; ++col)
					fputc(' ', out);
				fprintf(out, " %s ", buf);
				snprintf(buf, sizeof buf, "<cycle %d>", s->cyc_num);
				fputs(buf, out);
				col += (int)strlen(buf);
			}
			starting_col += column_width;
		}
		fputc('\n', out);
	}
	free(v);
}
