/* The call graph as Graphviz DOT, and as SVG through graphviz's dot program.  Nodes are
 * functions (and whole cycles) at or above a threshold of total time: filled from blue
 * (cold) to red (hot) by total time, font size by self time.  Edges carry the exact call
 * counts; the time along an edge is gprof's estimate (call-count share), marked "est.". */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tgprof.h"

static void dot_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static double total_of(const struct sym *s)
{
	return s->prop_self + s->prop_child;
}

/* Whether there is time to show: a profile without a histogram has call counts only. */
static int sampled(const struct analysis *a, double hz)
{
	return a->print_time > 0 && hz > 0;
}

static int shown(const struct analysis *a, const struct sym *s, double threshold)
{
	if (!s->print_flag || (!s->name && !s->cyc_num))
		return 0;
	if (s->ncalls == 0 && s->self_calls == 0 && total_of(s) == 0 && !s->parents && !s->children)
		return 0;
	/* Without samples the threshold cannot apply: show the call structure whole. */
	if (!sampled(a, a->prof->hz))	/* no threshold can apply */
		return 1;
	return 100.0 * total_of(s) / a->print_time >= threshold;
}

static void node(FILE *f, const struct analysis *a, const struct sym *s, double hz)
{
	double frac = 0, self = 0;
	if (sampled(a, hz)) {
		frac = total_of(s) / a->print_time;
		self = s->prop_self / a->print_time;
	}
	char label[1024], where[300] = "", calls[64];
	if (s->is_static && s->file) {
		const char *b = strrchr(s->file, '/');
		snprintf(where, sizeof where, " (%s)", b ? b + 1 : s->file);
	}
	if (s->ncalls || s->self_calls)
		snprintf(calls, sizeof calls, "%lu calls%s", s->ncalls, s->self_calls ? " + recursive" : "");
	else
		snprintf(calls, sizeof calls, "%s", s->parents ? "0 calls" : "spontaneous");
	if (s->name && !sampled(a, hz))
		snprintf(label, sizeof label, "%s%s%s\n%s", print_dname(a, s), where,
			 s->cyc_num ? " (in a cycle)" : "", calls);
	else if (s->name)
		snprintf(label, sizeof label, "%s%s%s\n%.1f%% total, %.1f%% self\n%.3g s self\n%s",
			 print_dname(a, s), where, s->cyc_num ? " (in a cycle)" : "", 100 * frac,
			 100 * self, s->prop_self / hz, calls);
	else
		snprintf(label, sizeof label, "<cycle %d as a whole>\n%.1f%% total\n%lu calls", s->cyc_num,
			 100 * frac, s->ncalls);
	if (frac > 1)
		frac = 1;
	if (frac < 0 || frac != frac)
		frac = 0;
	fprintf(f, "  n%d [label=", s->index);
	dot_string(f, label);
	fprintf(f, ", fillcolor=\"%.3f 0.75 1.0\", fontsize=%.1f%s];\n", 0.6 * (1 - frac),
		10 + 14 * (self > 1 ? 1 : self < 0 ? 0 : self),
		s->name ? "" : ", shape=octagon");
}

static int write_dot(struct analysis *a, FILE *f, double threshold)
{
	double hz = a->prof->hz;
	fprintf(f, "digraph tgprof {\n  graph [fontname=\"Helvetica\", labelloc=t, label=");
	char title[256];
	if (sampled(a, hz))
		snprintf(title, sizeof title, "tgprof call graph: %.2f s sampled; functions under "
			 "%.2f%% of the total left out; edge times are estimates",
			 a->print_time / hz, threshold);
	else
		snprintf(title, sizeof title, "tgprof call graph: no samples, call counts only");
	dot_string(f, title);
	fputs("];\n  node [shape=box, style=\"filled,rounded\", fontname=\"Helvetica\"];\n"
	      "  edge [fontname=\"Helvetica\", fontsize=9];\n", f);
	size_t n = a->tab->len + a->ncycles;
	for (size_t i = 0; i < n; i++) {
		const struct sym *s = a->cg_sorted[i];
		if (shown(a, s, threshold))
			node(f, a, s, hz);
	}
	for (size_t i = 0; i < a->narcs; i++) {
		const struct arc *arc = &a->arcs[i];
		if (!shown(a, arc->parent, threshold) || !shown(a, arc->child, threshold))
			continue;
		int inside = arc->parent == arc->child ||
			     (arc->parent->cyc_num && arc->parent->cyc_num == arc->child->cyc_num);
		double t = arc->time + arc->child_time;
		char label[128];
		if (inside || !sampled(a, hz))
			snprintf(label, sizeof label, "%lu", arc->count);
		else
			snprintf(label, sizeof label, "%lu\n%.3g s est.", arc->count, t / hz);
		double share = sampled(a, hz) ? t / a->print_time : 0;
		double w = 1 + 4 * (share > 1 ? 1 : share);
		fprintf(f, "  n%d -> n%d [label=", arc->parent->index, arc->child->index);
		dot_string(f, label);
		fprintf(f, ", penwidth=%.2f%s];\n", w, inside ? ", style=dashed" : "");
	}
	for (int c = 1; c <= a->ncycles; c++) {
		const struct sym *cyc = &a->cycles[c];
		if (!shown(a, cyc, threshold))
			continue;
		for (const struct sym *m = cyc->cyc_next; m; m = m->cyc_next)
			if (shown(a, m, threshold))
				fprintf(f, "  n%d -> n%d [style=dotted, arrowhead=none];\n", cyc->index,
					m->index);
	}
	fputs("}\n", f);
	return 0;
}

int dot_write(struct analysis *a, const char *path, double threshold)
{
	if (!a->cg_sorted)
		return error("%s: no call graph data in the profile", path);
	FILE *f = fopen(path, "w");
	if (!f)
		return error("%s: %s", path, strerror(errno));
	write_dot(a, f, threshold);
	if (ferror(f) | fclose(f))
		return error("%s: write error", path);
	return 0;
}

int svg_write(struct analysis *a, const char *path, double threshold)
{
	/* The DOT source goes to a temporary file in $TMPDIR (default /tmp). */
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	char tmp[4096];
	if ((size_t)snprintf(tmp, sizeof tmp, "%s/tgprof-dot.XXXXXX", dir) >= sizeof tmp)
		return error("TMPDIR too long for a temporary file name");
	int fd = mkstemp(tmp);
	if (fd < 0)
		return error("temporary file in %s: %s", dir, strerror(errno));
	close(fd);
	if (dot_write(a, tmp, threshold)) {
		unlink(tmp);
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		execlp("dot", "dot", "-Tsvg", "-o", path, tmp, (char *)NULL);
		_exit(127);
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) < 0) {
		unlink(tmp);
		return error("running dot: %s", strerror(errno));
	}
	unlink(tmp);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return error("%s: graphviz's dot failed (status %d); is graphviz installed?", path,
			     WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
