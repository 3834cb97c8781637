/* The call graph as Graphviz DOT, and as SVG through graphviz's dot program.  Nodes are
 * functions (and whole cycles) at or above a threshold of total time, and those on the
 * hot path between them (kept_nodes): filled from blue (cold) to red (hot) by total
 * time, font size by self time; long names are shortened in the box, whole in the
 * tooltip.  Edges carry the exact call counts; the time along an edge is gprof's
 * estimate (call-count share), marked "est.". */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "analysis.h"
#include "cg_arcs.h"
#include "cg_print.h"
#include "error.h"
#include "gmon_io.h"
#include "outputs.h"
#include "symtab.h"

/* Graphviz reads UTF-8: a byte of no UTF-8 character is written as U+FFFD. */
static void dot_chars(FILE *f, const char *s)
{
	while (*s) {
		size_t n = utf8_char_len(s);
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if (n)
			fwrite(s, 1, n, f);
		else
			fputs("\xEF\xBF\xBD", f);
		s += n ? n : 1;
	}
}

static void dot_string(FILE *f, const char *s)
{
	fputc('"', f);
	dot_chars(f, s);
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

/* A function or cycle with something to draw, whatever the threshold. */
static int drawable(const struct sym *s)
{
	if (!s->print_flag || (!s->name && !s->cyc_num))
		return 0;
	return s->ncalls || s->self_calls || total_of(s) != 0 || s->parents || s->children;
}

static int shown(const struct analysis *a, const struct sym *s, double threshold)
{
	if (!drawable(s))
		return 0;
	/* Without samples the threshold cannot apply: show the call structure whole. */
	if (!sampled(a, a->prof->hz))
		return 1;
	return 100.0 * total_of(s) / a->print_time >= threshold;
}

static int inside_cycle(const struct arc *arc)
{
	return arc->parent == arc->child ||
	       (arc->parent->cyc_num && arc->parent->cyc_num == arc->child->cyc_num);
}

/* Whether a cycle member is called from a node drawn outside its cycle. */
static int entered(const struct sym *m, const char *keep)
{
	for (const struct arc *arc = m->parents; arc; arc = arc->next_parent)
		if (!inside_cycle(arc) && keep[arc->parent->index])
			return 1;
	return 0;
}

/* Breadth first search inside a cycle: for each member, by index, the member it was
 * reached from and its position in the search. */
struct bfs {
	const struct sym **from, **queue;
	size_t *pos;
};

/* Inside cycle cyc, breadth first from its entries (the members drawn its callers call)
 * along the calls inside it. */
static void search(const struct sym *cyc, const char *keep, struct bfs *b)
{
	size_t head = 0, tail = 0;
	for (const struct sym *m = cyc->cyc_next; m; m = m->cyc_next) {
		b->from[m->index] = NULL;
		if (keep[m->index] && entered(m, keep)) {
			b->pos[m->index] = tail;
			b->from[m->index] = b->queue[tail++] = m;
		}
	}
	while (head < tail) {
		const struct sym *m = b->queue[head++];
		for (const struct arc *arc = m->children; arc; arc = arc->next_child) {
			const struct sym *c = arc->child;
			if (c->cyc_num == cyc->cyc_num && !b->from[c->index] && drawable(c)) {
				b->pos[c->index] = tail;
				b->from[c->index] = m;
				b->queue[tail++] = c;
			}
		}
	}
}

/* gprof gives the calls inside a cycle no time, and the member a cycle is entered by
 * often has none of its own.  So inside a cycle drawn, a shortest way from its entries
 * into each member drawn (at least one call long: into an entry, the recursion) is
 * drawn whatever the totals of the members on it (marked 2).  Whether any was added. */
static int connect_cycle(const struct sym *cyc, char *keep, struct bfs *b)
{
	int added = 0;
	search(cyc, keep, b);
	for (const struct sym *m = cyc->cyc_next; m; m = m->cyc_next) {
		if (keep[m->index] != 1)
			continue;
		const struct sym *best = NULL;	/* the caller inside first reached */
		for (const struct arc *arc = m->parents; arc; arc = arc->next_parent) {
			const struct sym *p = arc->parent;
			if (p->cyc_num == cyc->cyc_num && b->from[p->index] &&
			    (!best || b->pos[p->index] < b->pos[best->index]))
				best = p;
		}
		for (const struct sym *s = best; s && !keep[s->index]; s = b->from[s->index])
			keep[s->index] = 2, added = 1;
	}
	return added;
}

/* The nodes drawn, by index: those at or above the threshold, and the hot path between
 * them: both ends of an arc that carries the threshold's share of the time (into a
 * cycle, the member called may have no time of its own), and the ways inside the
 * cycles drawn (connect_cycle).  Not every path between nodes drawn: a small function
 * calling a hot one stays out, and so does most of a cycle of thousands. */
static char *kept_nodes(const struct analysis *a, double threshold)
{
	size_t n = a->tab->len + a->ncycles;
	char *keep = xcalloc(n + 1, 1);
	for (size_t i = 0; i < n; i++)
		keep[a->cg_sorted[i]->index] = (char)shown(a, a->cg_sorted[i], threshold);
	if (!sampled(a, a->prof->hz))
		return keep;
	for (size_t i = 0; i < a->narcs; i++) {
		const struct arc *arc = &a->arcs[i];
		if (!inside_cycle(arc) && drawable(arc->parent) && drawable(arc->child) &&
		    100.0 * (arc->time + arc->child_time) / a->print_time >= threshold)
			keep[arc->parent->index] = keep[arc->child->index] = 1;
	}
	struct bfs b = { xcalloc(n + 1, sizeof *b.from), xmalloc((n + 1) * sizeof *b.queue),
			 xmalloc((n + 1) * sizeof *b.pos) };
	for (int changed = 1; changed;) {	/* a cycle drawn may call into another */
		changed = 0;
		for (int c = 1; c <= a->ncycles; c++)
			if (keep[a->cycles[c].index])
				changed |= connect_cycle(&a->cycles[c], keep, &b);
	}
	free(b.from);
	free(b.queue);
	free(b.pos);
	return keep;
}

/* A time as a person writes it: s, ms, µs or ns, three digits at most, no exponent. */
static void human_time(char *buf, size_t size, double secs)
{
	static const char *const unit[] = { "ns", "µs", "ms", "s" };
	double v = secs * 1e9;
	int u = 0;
	if (secs == 0) {
		snprintf(buf, size, "0 s");
		return;
	}
	if (v < 1) {
		snprintf(buf, size, "< 1 ns");
		return;
	}
	for (; u < 3 && v >= 999.5; u++)
		v /= 1000;
	snprintf(buf, size, v >= 999.5 ? "%.0f %s" : "%.3g %s", v, unit[u]);
}

/* A count with its thousands set apart, 1,190,000 (buf: 32 bytes). */
static void count_text(char *buf, unsigned long n)
{
	char digits[24];
	int len = snprintf(digits, sizeof digits, "%lu", n);
	for (int i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			*buf++ = ',';
		*buf++ = digits[i];
	}
	*buf = 0;
}

static void calls_text(char *buf, size_t size, const struct sym *s)
{
	char c[32], r[32];
	if (!s->ncalls && !s->self_calls) {
		snprintf(buf, size, "%s", s->parents ? "0 calls" : "spontaneous");
		return;
	}
	count_text(c, s->ncalls);
	int n = snprintf(buf, size, "%s call%s", c, s->ncalls == 1 ? "" : "s");
	count_text(r, s->self_calls);
	if (s->self_calls && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - n, " + %s %s", r, s->name ? "recursive" : "inside");
}

#define NAME_WIDTH 40	/* characters on a line of a function's name in its box */
#define NAME_LINES 3	/* lines of it at most; the node's tooltip has the full name */

/* How many characters at p belong to an operator's name, as in operator<< or operator->. */
static size_t operator_chars(const char *name, const char *p)
{
	if (p - name < 8 || strncmp(p - 8, "operator", 8) != 0)
		return 0;
	if (p - name > 8 && (isalnum((unsigned char)p[-9]) || p[-9] == '_'))
		return 0;
	return strspn(p, "<>=-");
}

/* name with the arguments of its templates elided, "std::map<...>::operator[]", into out
 * (3 * strlen(name) + 1 bytes: "<>" becomes "<...>"). */
void elide_templates(const char *name, char *out)
{
	int depth = 0;
	for (const char *p = name; *p; p++) {
		size_t op = depth ? 0 : operator_chars(name, p);
		if (op) {
			memcpy(out, p, op);
			out += op;
			p += op - 1;
		} else if (*p == '<') {
			if (depth++ == 0) {
				memcpy(out, "<...>", 5);
				out += 5;
			}
		} else if (*p == '>' && depth > 0) {
			depth--;
		} else if (!depth) {
			*out++ = *p;
		}
	}
	*out = 0;
}

/* at, or before it where a UTF-8 character starts */
static size_t char_start(const char *s, size_t at)
{
	while (at > 1 && (s[at] & 0xC0) == 0x80)
		at--;
	return at;
}

/* Where to break a line of a long name (longer than width): after "::" or a blank, or
 * before "(", in the second half of the line; else at the width. */
static size_t break_at(const char *s, size_t width)
{
	size_t at = 0;
	for (size_t i = width / 2; i <= width; i++)
		if (s[i - 1] == ' ' || (s[i - 1] == ':' && s[i - 2] == ':') || s[i] == '(')
			at = i;
	return char_start(s, at ? at : width);
}

/* A function's name for its box: whole if short, else with its templates' arguments
 * elided and broken into lines, NAME_LINES at most, the rest cut to "...". */
static char *box_name(const char *name)
{
	size_t len = strlen(name);
	char *e = xmalloc(3 * len + 1), *out = xmalloc(3 * len + NAME_LINES + 4), *o = out;
	if (len <= NAME_WIDTH)
		strcpy(e, name);
	else
		elide_templates(name, e);
	const char *s = e;
	for (int line = 1; strlen(s) > NAME_WIDTH; line++) {
		size_t at = break_at(s, line < NAME_LINES ? NAME_WIDTH : NAME_WIDTH - 3);
		memcpy(o, s, at);
		o += at;
		if (line == NAME_LINES) {
			s = "...";
			break;
		}
		*o++ = '\n';
		s += at + strspn(s + at, " ");
	}
	strcpy(o, s);
	free(e);
	return out;
}

/* What follows a function's name: its file if static, its cycle. */
static void where_text(char *buf, size_t size, const struct sym *s)
{
	const char *b = s->file ? strrchr(s->file, '/') : NULL;
	int n = 0;
	if (s->is_static && s->file)
		n = snprintf(buf, size, " (%s)", b ? b + 1 : s->file);
	if (s->cyc_num && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - n, " (in cycle %d)", s->cyc_num);
}

static void node_label(const struct analysis *a, const struct sym *s, const char *where,
		       char *label, size_t size)
{
	double hz = a->prof->hz, pt = a->print_time;
	char calls[96], self[48] = "", t[32];
	calls_text(calls, sizeof calls, s);
	if (!s->name) {
		if (sampled(a, hz))
			snprintf(label, size, "<cycle %d as a whole>\n%.1f%% total\n%s", s->cyc_num,
				 100 * total_of(s) / pt, calls);
		else
			snprintf(label, size, "<cycle %d as a whole>\n%s", s->cyc_num, calls);
		return;
	}
	char *name = box_name(print_dname(a, s));
	if (sampled(a, hz) && s->prop_self > 0) {
		human_time(t, sizeof t, s->prop_self / hz);
		snprintf(self, sizeof self, "\n%s self", t);
	}
	if (sampled(a, hz))
		snprintf(label, size, "%s%s\n%.1f%% total, %.1f%% self%s\n%s", name, where,
			 100 * total_of(s) / pt, 100 * s->prop_self / pt, self, calls);
	else
		snprintf(label, size, "%s%s\n%s", name, where, calls);
	free(name);
}

static void node(FILE *f, const struct analysis *a, const struct sym *s)
{
	double frac = 0, self = 0;
	if (sampled(a, a->prof->hz)) {
		frac = total_of(s) / a->print_time;
		self = s->prop_self / a->print_time;
	}
	char label[1024], where[300] = "";
	where_text(where, sizeof where, s);
	node_label(a, s, where, label, sizeof label);
	if (frac > 1)
		frac = 1;
	if (frac < 0 || frac != frac)
		frac = 0;
	fprintf(f, "  n%d [label=", s->index);
	dot_string(f, label);
	if (s->name) {	/* the full name, where the box may have it short */
		fputs(", tooltip=\"", f);
		dot_chars(f, print_dname(a, s));
		dot_chars(f, where);
		fputc('"', f);
	}
	fprintf(f, ", fillcolor=\"%.3f 0.75 1.0\", fontsize=%.1f%s];\n", 0.6 * (1 - frac),
		10 + 14 * (self > 1 ? 1 : self < 0 ? 0 : self),
		s->name ? "" : ", shape=octagon");
}

static void title(FILE *f, const struct analysis *a, double threshold)
{
	char t[256], total[32], cut[96] = "";
	if (threshold > 0)
		snprintf(cut, sizeof cut, "functions under %.2f%% of the total left out unless on "
			 "the way to others; ", threshold);
	if (sampled(a, a->prof->hz)) {
		human_time(total, sizeof total, a->print_time / a->prof->hz);
		snprintf(t, sizeof t, "tgprof call graph: %s sampled; %sedge times are estimates",
			 total, cut);
	} else {
		snprintf(t, sizeof t, "tgprof call graph: no samples, call counts only");
	}
	fprintf(f, "digraph tgprof {\n  graph [fontname=\"Helvetica\", labelloc=t, label=");
	dot_string(f, t);
	fputs("];\n  node [shape=box, style=\"filled,rounded\", fontname=\"Helvetica\"];\n"
	      "  edge [fontname=\"Helvetica\", fontsize=9];\n", f);
}

/* An arc: the exact call count, and outside cycles the time gprof estimates for it. */
static void edge(FILE *f, const struct analysis *a, const struct arc *arc)
{
	int inside = inside_cycle(arc), timed = !inside && sampled(a, a->prof->hz);
	double t = arc->time + arc->child_time;
	char label[128], when[32], count[32];
	count_text(count, arc->count);
	if (timed) {
		human_time(when, sizeof when, t / a->prof->hz);
		snprintf(label, sizeof label, "%s\n%s est.", count, when);
	} else {
		snprintf(label, sizeof label, "%s", count);
	}
	double share = sampled(a, a->prof->hz) ? t / a->print_time : 0;
	double w = 1 + 4 * (share > 1 ? 1 : share);
	fprintf(f, "  n%d -> n%d [label=", arc->parent->index, arc->child->index);
	dot_string(f, label);
	fprintf(f, ", penwidth=%.2f%s];\n", w, inside ? ", style=dashed" : "");
}

static int write_dot(struct analysis *a, FILE *f, double threshold)
{
	char *keep = kept_nodes(a, threshold);
	title(f, a, threshold);
	size_t n = a->tab->len + a->ncycles;
	for (size_t i = 0; i < n; i++)
		if (keep[a->cg_sorted[i]->index])
			node(f, a, a->cg_sorted[i]);
	for (size_t i = 0; i < a->narcs; i++)
		if (keep[a->arcs[i].parent->index] && keep[a->arcs[i].child->index])
			edge(f, a, &a->arcs[i]);
	for (int c = 1; c <= a->ncycles; c++) {
		const struct sym *cyc = &a->cycles[c];
		if (!keep[cyc->index])
			continue;
		for (const struct sym *m = cyc->cyc_next; m; m = m->cyc_next)
			if (keep[m->index])
				fprintf(f, "  n%d -> n%d [style=dotted, arrowhead=none];\n", cyc->index,
					m->index);
	}
	fputs("}\n", f);
	free(keep);
	return 0;
}

int dot_write(struct analysis *a, const char *path, double threshold)
{
	if (!a->cg_sorted)
		return error("%s: no call graph data in the profile", path);
	FILE *f = fopen(path, "w");
	if (!f)
		return error_errno("%s", path);
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
	/* An output that cannot be written is not graphviz's fault: try it first.  From here
	 * on a failure removes the SVG file if it was made here (made). */
	int out = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666), made = out >= 0;
	if (out < 0 && errno == EEXIST)
		out = open(path, O_WRONLY);
	if (out < 0)
		return error_errno("%s: cannot write the SVG file", path);
	close(out);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;
		if (made)
			unlink(path);
		errno = e;
		return error_errno("temporary file in %s", dir);
	}
	close(fd);
	if (dot_write(a, tmp, threshold)) {
		unlink(tmp);
		if (made)
			unlink(path);
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
		int e = errno;
		unlink(tmp);
		if (made)
			unlink(path);
		errno = e;
		return error_errno("running dot");
	}
	unlink(tmp);
	if (made && (!WIFEXITED(st) || WEXITSTATUS(st) != 0))
		unlink(path);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return error("%s: graphviz's dot could not be run; is graphviz installed?", path);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return error("%s: graphviz's dot failed (status %d)", path,
			     WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
