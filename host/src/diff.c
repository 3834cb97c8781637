/* Two profiles of one program compared function by function: matched by symbol name, the
 * change in calls, self and total time, functions new in the second and removed from it.
 *
 * Sampled time carries sampling error: a function with n samples has about sqrt(n) of
 * noise, and even under QEMU's -icount a changed program is sampled at other points. So a
 * time difference breaks --fail-slower only when it is both over the percentage and over
 * twice the error of the difference of two counts, 2 * sqrt(n_old + n_new) samples. Calls
 * are exact: --fail-calls breaks on any change. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "cg_print.h"
#include "diff.h"
#include "error.h"
#include "gmon_io.h"
#include "outputs.h"
#include "symtab.h"

/* One program's functions that count, sorted by symbol name (then address). */
struct diff_side {
	const struct sym **syms;
	size_t n;
	const struct analysis *a;
};

static int by_name(const void *l, const void *r)
{
	const struct sym *a = *(const struct sym *const *)l, *b = *(const struct sym *const *)r;
	int c = strcmp(a->name, b->name);
	return c ? c : (a->addr > b->addr) - (a->addr < b->addr);
}

static void side_collect(struct diff_side *s, const struct analysis *a)
{
	const struct symtab *tab = a->tab;
	s->a = a;
	s->syms = xcalloc(tab->len ? tab->len : 1, sizeof *s->syms);
	s->n = 0;
	for (size_t i = 0; i < tab->len; i++)
		if (tab->base[i].name && tab->base[i].is_func)
			s->syms[s->n++] = &tab->base[i];
	qsort(s->syms, s->n, sizeof *s->syms, by_name);
}

/* Seconds of TICKS at profile a's rate; NAN (unknown: JSON null, "-" printed) where the
 * rate is 0, where gprof's times are infinite or not a number. */
static double seconds(const struct analysis *a, double ticks)
{
	return a->prof->hz > 0 ? ticks / a->prof->hz : NAN;
}

/* A time changed: known on both sides, and not the same. */
static int time_changed(const double v[2])
{
	return !isnan(v[0]) && !isnan(v[1]) && v[0] != v[1];
}

/* Fill one side of a row from a symbol of that program. */
static void row_set(struct diff_row *r, int side, const struct sym *s, const struct analysis *a)
{
	if (side == 0)
		r->in_old = 1;
	else
		r->in_new = 1;
	if (!r->name)
		r->name = print_dname(a, s);
	r->calls[side] = s->ncalls;
	r->self[side] = seconds(a, s->time);
	r->total[side] = seconds(a, s->time + s->child_time);
}

static int row_active(const struct diff_row *r)
{
	for (int i = 0; i < 2; i++)
		if (r->calls[i] || (r->self[i] != 0 && !isnan(r->self[i])) ||
		    (r->total[i] != 0 && !isnan(r->total[i])))
			return 1;
	return 0;
}

static void rows_add(struct diff *d, size_t *cap, const struct diff_row *r)
{
	if (!row_active(r))
		return;
	if (d->n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		d->rows = xrealloc(d->rows, *cap * sizeof *d->rows);
	}
	d->rows[d->n++] = *r;
}

/* The two sorted lists merged by name; the k-th of several same-named (static) functions
 * of one program is matched with the k-th of the other's. */
static void rows_merge(struct diff *d, const struct diff_side *o, const struct diff_side *n)
{
	size_t i = 0, j = 0, cap = 0;
	while (i < o->n || j < n->n) {
		int c = i == o->n ? 1 : j == n->n ? -1 : strcmp(o->syms[i]->name, n->syms[j]->name);
		struct diff_row r = {0};
		if (c <= 0)
			row_set(&r, 0, o->syms[i++], o->a);
		if (c >= 0)
			row_set(&r, 1, n->syms[j++], n->a);
		rows_add(d, &cap, &r);
	}
}

static double abs_change(const double v[2])
{
	return time_changed(v) ? fabs(v[1] - v[0]) : 0.0;
}

/* Most changed first: self time, total time, calls, then by name. */
static int by_change(const void *l, const void *r)
{
	const struct diff_row *a = l, *b = r;
	int ca = diff_row_changed(a), cb = diff_row_changed(b);
	if (ca != cb)
		return cb - ca;
	double x = abs_change(b->self) - abs_change(a->self);
	if (x == 0)
		x = abs_change(b->total) - abs_change(a->total);
	if (x != 0)
		return x > 0 ? 1 : -1;
	unsigned long da = a->calls[0] > a->calls[1] ? a->calls[0] - a->calls[1]
						     : a->calls[1] - a->calls[0];
	unsigned long db = b->calls[0] > b->calls[1] ? b->calls[0] - b->calls[1]
						     : b->calls[1] - b->calls[0];
	if (da != db)
		return da < db ? 1 : -1;
	return strcmp(a->name, b->name);
}

void diff_build(struct diff *d, const struct analysis *old, const struct analysis *new)
{
	struct diff_side o, n;
	memset(d, 0, sizeof *d);
	side_collect(&o, old);
	side_collect(&n, new);
	rows_merge(d, &o, &n);
	free(o.syms);
	free(n.syms);
	if (d->n)
		qsort(d->rows, d->n, sizeof *d->rows, by_change);
	d->total[0] = seconds(old, old->total_time);
	d->total[1] = seconds(new, new->total_time);
	d->sample[0] = seconds(old, 1.0);
	d->sample[1] = seconds(new, 1.0);
}

int diff_row_changed(const struct diff_row *r)
{
	return r->in_old != r->in_new || r->calls[0] != r->calls[1] || time_changed(r->self) ||
	       time_changed(r->total);
}

/* Time v (seconds, [old, new]) up by more than the limit's percentage and than the
 * sampling error. */
static int slower(const struct diff *d, const double v[2], double pct)
{
	double n0 = v[0] / d->sample[0], n1 = v[1] / d->sample[1];
	if (!(n1 - n0 > 2 * sqrt(n0 + n1)))
		return 0;
	return v[0] == 0 || (v[1] - v[0]) / v[0] * 100 > pct;
}

static double pct_change(const double v[2])
{
	return v[0] == 0 ? INFINITY : (v[1] - v[0]) / v[0] * 100;
}

size_t diff_failures(const struct diff *d, const struct diff_limits *lim, FILE *why)
{
	size_t bad = 0;
	if (lim->slower_set && (isnan(d->sample[0]) || isnan(d->sample[1]))) {
		/* a CI job that asked for a time limit does not pass unchecked */
		bad++;
		if (why)
			fprintf(why, "%s: --fail-slower=%g: not checked: the %s profile's "
				"profiling rate is 0, so its times are not numbers\n", progname,
				lim->slower_pct, isnan(d->sample[0]) ? "old" : "new");
	}
	if (lim->slower_set && slower(d, d->total, lim->slower_pct)) {
		bad++;
		if (why)
			fprintf(why, "%s: --fail-slower=%g: the program: %+.1f%% of sampled time "
				"(%.6g -> %.6g seconds)\n", progname, lim->slower_pct,
				pct_change(d->total), d->total[0], d->total[1]);
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct diff_row *r = &d->rows[i];
		if (lim->slower_set && slower(d, r->self, lim->slower_pct)) {
			bad++;
			if (why)
				fprintf(why, "%s: --fail-slower=%g: %s: self time %+.1f%% (%.6g -> "
					"%.6g seconds)\n", progname, lim->slower_pct, r->name,
					pct_change(r->self), r->self[0], r->self[1]);
		}
		if (lim->calls && r->calls[0] != r->calls[1]) {
			bad++;
			if (why)
				fprintf(why, "%s: --fail-calls: %s: called %lu times, was %lu\n",
					progname, r->name, r->calls[1], r->calls[0]);
		}
	}
	return bad;
}

/* "+12.5%", "new", "gone" or "" (no change), in a field of 8. */
static void print_change(const double v[2], FILE *out)
{
	char buf[32];
	if (!time_changed(v))
		buf[0] = 0;
	else if (v[0] == 0)
		strcpy(buf, "new");
	else if (v[1] == 0)
		strcpy(buf, "gone");
	else
		snprintf(buf, sizeof buf, "%+.1f%%", pct_change(v));
	fprintf(out, " %8s", buf);
}

/* " old new change" of a time, "-" where it is unknown. */
static void print_times(const double v[2], double ts, FILE *out)
{
	for (int i = 0; i < 2; i++)
		if (isnan(v[i]))
			fprintf(out, "%s%10s", i ? " " : "", "-");
		else
			fprintf(out, "%s%10.2f", i ? " " : "", v[i] * ts);
	print_change(v, out);
}

static void print_row(const struct diff_row *r, double ts, FILE *out)
{
	print_times(r->self, ts, out);
	fputc(' ', out);
	print_times(r->total, ts, out);
	char calls[32] = "";
	if (r->calls[0] != r->calls[1])
		snprintf(calls, sizeof calls, "%+ld", (long)(r->calls[1] - r->calls[0]));
	fprintf(out, " %10lu %10lu %10s  %s%s\n", r->calls[0], r->calls[1], calls, r->name,
		!r->in_old ? " (new)" : !r->in_new ? " (removed)" : "");
}

void diff_print(const struct diff *d, const char *const names[2], double ts, const char *unit,
		FILE *out)
{
	size_t changed = 0;
	while (changed < d->n && diff_row_changed(&d->rows[changed]))
		changed++;
	fputs("Profile difference, old -> new:\n", out);
	for (int i = 0; i < 2; i++) {
		fprintf(out, "  %s: %s: ", i ? "new" : "old", names[i]);
		if (isnan(d->total[i]))
			fputs("profiling rate 0: its times are not numbers, only calls are "
			      "compared", out);
		else
			fprintf(out, "%.2f %s sampled", d->total[i] * ts, unit);
		if (i && d->total[0] != 0 && time_changed(d->total))
			fprintf(out, " (%+.1f%%)", pct_change(d->total));
		fputc('\n', out);
	}
	fputc('\n', out);
	int timed = !isnan(d->total[0]) && !isnan(d->total[1]);
	if (!changed) {
		fprintf(out, "No function changed: %zu with the same calls%s.\n", d->n,
			timed ? " and times" : " (times not compared)");
		return;
	}
	fprintf(out, "%21s %8s %21s %8s %21s\n", "self", "", "total", "", "calls");
	fprintf(out, "%10s %10s %8s %10s %10s %8s %10s %10s %10s  %s\n", "old", "new", "change",
		"old", "new", "change", "old", "new", "change", "function");
	for (size_t i = 0; i < changed; i++)
		print_row(&d->rows[i], ts, out);
	if (d->n > changed)
		fprintf(out, "\n%zu more functions with the same calls and times.\n",
			d->n - changed);
	fprintf(out, "\nTimes in %s; a change is new time, time gone, or a percentage of the "
		"old.\n", unit);
}

static void json_pair_num(FILE *f, const char *key, const double v[2])
{
	fprintf(f, ", \"%s\": [", key);
	json_num(f, v[0]);
	fputs(", ", f);
	json_num(f, v[1]);
	fputc(']', f);
}

static void json_rows(FILE *f, const struct diff *d)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct diff_row *r = &d->rows[i];
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, r->name);
		fprintf(f, ", \"status\": \"%s\", \"calls\": [%lu, %lu]",
			!r->in_old ? "new" : !r->in_new ? "removed"
				   : diff_row_changed(r) ? "changed" : "same",
			r->calls[0], r->calls[1]);
		json_pair_num(f, "self_seconds", r->self);
		json_pair_num(f, "total_seconds", r->total);
		fputc('}', f);
	}
}

int diff_write_json(const struct diff *d, const char *const names[2],
		    const struct diff_limits *lim, const char *path)
{
	FILE *f = json_open(path);
	if (!f)
		return -1;
	fputs("{\n  \"old\": ", f);
	json_str(f, names[0]);
	fputs(",\n  \"new\": ", f);
	json_str(f, names[1]);
	fputs(",\n  \"sampled_seconds\": [", f);
	json_num(f, d->total[0]);
	fputs(", ", f);
	json_num(f, d->total[1]);
	fputs("],\n  \"limits\": {\"fail_slower_pct\": ", f);
	if (lim->slower_set)
		json_num(f, lim->slower_pct);
	else
		fputs("null", f);
	fprintf(f, ", \"fail_calls\": %s},\n  \"failures\": %zu,\n  \"functions\": [",
		lim->calls ? "true" : "false", diff_failures(d, lim, NULL));
	json_rows(f, d);
	fputs("\n  ]\n}\n", f);
	return json_close(f, path);
}

void diff_release(struct diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof *d);
}
