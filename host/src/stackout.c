/* gmon.stacks out: folded stacks, a flame graph (SVG) and speedscope's JSON, from the stacks
 * by frame name (call paths that differ only in call sites are one stack).  A stack starts
 * at main (the first thread's context is left out), at "[thread 0xID]" for another thread,
 * or at an interrupt handler; a context's own samples are its "[no frame]".  Every sample
 * of the tree is in exactly one stack; the profiler's own (overhead) in none. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tgprof.h"

/* A stack of names: a trie whose nodes are frames. */
struct frame {
	const char *name;
	uint64_t self, total;
	struct frame **kids;
	size_t nkids;
};

static struct frame *frame_child(struct frame *f, const char *name)
{
	for (size_t i = 0; i < f->nkids; i++)
		if (!strcmp(f->kids[i]->name, name))
			return f->kids[i];
	f->kids = xrealloc(f->kids, (f->nkids + 1) * sizeof *f->kids);
	struct frame *k = xcalloc(1, sizeof *k);
	k->name = xstrdup(name);
	return f->kids[f->nkids++] = k;
}

static int cmp_frame(const void *l, const void *r)
{
	return strcmp((*(struct frame *const *)l)->name, (*(struct frame *const *)r)->name);
}

static void frame_finish(struct frame *f)
{
	qsort(f->kids, f->nkids, sizeof *f->kids, cmp_frame);
	f->total = f->self;
	for (size_t i = 0; i < f->nkids; i++) {
		frame_finish(f->kids[i]);
		f->total += f->kids[i]->total;
	}
}

static void frame_free(struct frame *f)
{
	for (size_t i = 0; i < f->nkids; i++)
		frame_free(f->kids[i]);
	free(f->kids);
	free((char *)f->name);
	free(f);
}

/* The trie of the tree's samples under a root named "all". */
static struct frame *frames_build(const struct stacks *st, const struct symtab *tab)
{
	struct frame *root = xcalloc(1, sizeof *root);
	root->name = xstrdup("all");
	uint32_t *path = xmalloc((st->n + 1) * sizeof *path);
	char buf[64];
	for (uint32_t i = 0; i < st->n; i++) {
		if (!st->nodes[i].samples)
			continue;
		size_t depth = 0;
		for (uint32_t j = i; j != 0xFFFFFFFFu && depth <= st->n; j = st->nodes[j].parent)
			path[depth++] = j;
		struct frame *f = root;
		while (depth--) {
			const struct stack_node *n = &st->nodes[path[depth]];
			if (n->self == 0 && n->from == 0)
				continue;       /* the first thread: stacks start at main */
			f = frame_child(f, stacks_frame_name(st, tab, path[depth], buf, sizeof buf));
		}
		if (st->nodes[i].self == 0)
			f = frame_child(f, "[no frame]");
		f->self += st->nodes[i].samples;
	}
	free(path);
	frame_finish(root);
	return root;
}

/* ---- folded ---------------------------------------------------------------------- */

static void folded_emit(FILE *out, const struct frame *f, char *prefix, size_t len)
{
	size_t n = strlen(f->name);
	char *p = xmalloc(len + n + 2);
	memcpy(p, prefix, len);
	if (len)
		p[len++] = ';';
	memcpy(p + len, f->name, n + 1);
	if (f->self)
		fprintf(out, "%s %llu\n", p, (unsigned long long)f->self);
	for (size_t i = 0; i < f->nkids; i++)
		folded_emit(out, f->kids[i], p, len + n);
	free(p);
}

int stacks_write_folded(const struct stacks *st, const struct symtab *tab, const char *path)
{
	FILE *out = fopen(path, "w");
	if (!out)
		return error("%s: cannot create: %s", path, strerror(errno));
	struct frame *root = frames_build(st, tab);
	for (size_t i = 0; i < root->nkids; i++)
		folded_emit(out, root->kids[i], "", 0);
	frame_free(root);
	if (fclose(out))
		return error("%s: write error", path);
	return 0;
}

/* ---- flame graph ----------------------------------------------------------------- */

#define FLAME_WIDTH  1200.0
#define FLAME_ROW    17
#define FLAME_MARGIN 10.0

static size_t frame_depth(const struct frame *f)
{
	size_t d = 0;
	for (size_t i = 0; i < f->nkids; i++) {
		size_t k = frame_depth(f->kids[i]);
		if (k > d)
			d = k;
	}
	return d + 1;
}

static void xml_text(FILE *out, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
}

/* A 32-bit FNV-1a hash of a name: its colour, the same in every graph. */
static unsigned name_hue(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void flame_emit(FILE *out, const struct frame *f, double x, size_t level, size_t levels,
		       double scale, uint64_t all)
{
	double w = f->total * scale;
	double y = FLAME_MARGIN + 24 + (double)(levels - 1 - level) * FLAME_ROW;
	unsigned h = name_hue(f->name);
	fprintf(out, "<g class=\"f\"><title>");
	xml_text(out, f->name);
	fprintf(out, " (%llu samples, %.2f%%)</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" "
		"height=\"%d\" fill=\"rgb(%u,%u,%u)\" rx=\"2\"/><text x=\"%.2f\" y=\"%.0f\">",
		(unsigned long long)f->total, all ? 100.0 * f->total / all : 0.0, x, y, w,
		FLAME_ROW - 1, 205 + h % 50, 80 + (h >> 8) % 130, 40 + (h >> 16) % 40, x + 3,
		y + FLAME_ROW - 5);
	size_t fit = w > 20 ? (size_t)((w - 6) / 7) : 0;   /* ~7 px a character */
	if (fit >= strlen(f->name)) {
		xml_text(out, f->name);
	} else if (fit > 2) {
		char *cut = xstrdup(f->name);
		strcpy(cut + fit - 2, "..");
		xml_text(out, cut);
		free(cut);
	}
	fputs("</text></g>\n", out);
	for (size_t i = 0; i < f->nkids; i++) {
		flame_emit(out, f->kids[i], x, level + 1, levels, scale, all);
		x += f->kids[i]->total * scale;
	}
}

/* Click a frame: it fills the width (its ancestors too), the others outside hide; click
 * "all" to go back. */
static const char flame_script[] =
	"<script><![CDATA[\n"
	"var W=%.0f,M=%.0f;\n"
	"function zoom(g){var r=g.querySelector('rect'),x0=+r.dataset.x,w0=+r.dataset.w,\n"
	" s=(W-2*M)/w0;\n"
	" document.querySelectorAll('g.f').forEach(function(e){var q=e.querySelector('rect'),\n"
	"  t=e.querySelector('text'),x=+q.dataset.x,w=+q.dataset.w,nx=M+(x-x0)*s,nw=w*s;\n"
	"  var inside=x+w>x0+1e-9&&x<x0+w0-1e-9||+q.getAttribute('y')>=+r.getAttribute('y');\n"
	"  e.style.display=inside?'':'none';q.setAttribute('x',nx);q.setAttribute('width',nw);\n"
	"  t.setAttribute('x',nx+3);var n=e.querySelector('title').textContent.replace(/ \\(.*$/,''),\n"
	"  fit=Math.floor((nw-6)/7);t.textContent=nw<20?'':fit>=n.length?n:fit>2?n.slice(0,fit-2)+'..':'';});}\n"
	"document.querySelectorAll('g.f').forEach(function(e){var q=e.querySelector('rect');\n"
	" q.dataset.x=q.getAttribute('x');q.dataset.w=q.getAttribute('width');\n"
	" e.addEventListener('click',function(){zoom(e);});});\n"
	"]]></script>\n";

int stacks_write_flame(const struct stacks *st, const struct symtab *tab, const char *path)
{
	FILE *out = fopen(path, "w");
	if (!out)
		return error("%s: cannot create: %s", path, strerror(errno));
	struct frame *root = frames_build(st, tab);
	size_t levels = frame_depth(root);
	double height = 2 * FLAME_MARGIN + 24 + (double)levels * FLAME_ROW;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" "
		"font-size=\"12\">\n<style>g.f{cursor:pointer} g.f:hover rect{stroke:#000}"
		"</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fdfdf5\"/>\n"
		"<text x=\"%.0f\" y=\"%.0f\" font-size=\"15\">Flame graph: %s (%llu samples, "
		"measured stacks; click to zoom)</text>\n",
		FLAME_WIDTH, height, FLAME_WIDTH, height, FLAME_MARGIN, FLAME_MARGIN + 12,
		st->path, (unsigned long long)root->total);
	double scale = root->total ? (FLAME_WIDTH - 2 * FLAME_MARGIN) / root->total : 0.0;
	flame_emit(out, root, FLAME_MARGIN, 0, levels, scale, root->total);
	fprintf(out, flame_script, FLAME_WIDTH, FLAME_MARGIN);
	fputs("</svg>\n", out);
	frame_free(root);
	if (fclose(out))
		return error("%s: write error", path);
	return 0;
}

/* ---- speedscope ------------------------------------------------------------------ */

struct sp_frames {
	const char **names;
	size_t n;
};

static size_t sp_frame_index(struct sp_frames *fr, const char *name)
{
	for (size_t i = 0; i < fr->n; i++)
		if (!strcmp(fr->names[i], name))
			return i;
	fr->names = xrealloc(fr->names, (fr->n + 1) * sizeof *fr->names);
	fr->names[fr->n] = name;
	return fr->n++;
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

/* Each stack with self samples: its frames' indices (outermost first) and its weight. */
static void sp_samples(FILE *out, const struct frame *f, struct sp_frames *fr, size_t *stack,
		       size_t depth, int *first, int weights)
{
	stack[depth++] = sp_frame_index(fr, f->name);
	if (f->self) {
		fputs(*first ? "" : ",", out);
		*first = 0;
		if (weights) {
			fprintf(out, "%llu", (unsigned long long)f->self);
		} else {
			fputc('[', out);
			for (size_t i = 0; i < depth; i++)
				fprintf(out, "%s%zu", i ? "," : "", stack[i]);
			fputc(']', out);
		}
	}
	for (size_t i = 0; i < f->nkids; i++)
		sp_samples(out, f->kids[i], fr, stack, depth, first, weights);
}

int stacks_write_speedscope(const struct stacks *st, const struct symtab *tab, const char *path)
{
	FILE *out = fopen(path, "w");
	if (!out)
		return error("%s: cannot create: %s", path, strerror(errno));
	struct frame *root = frames_build(st, tab);
	struct sp_frames fr = {0};
	size_t *stack = xmalloc((frame_depth(root) + 1) * sizeof *stack);
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",", out);
	fputs("\"exporter\":\"tgprof\",\"name\":", out);
	json_string(out, st->path);
	fputs(",\"activeProfileIndex\":0,\"profiles\":[{\"type\":\"sampled\",\"name\":", out);
	json_string(out, st->path);
	fprintf(out, ",\"unit\":\"none\",\"startValue\":0,\"endValue\":%llu,\"samples\":[",
		(unsigned long long)root->total);
	int first = 1;
	for (size_t i = 0; i < root->nkids; i++)
		sp_samples(out, root->kids[i], &fr, stack, 0, &first, 0);
	fputs("],\"weights\":[", out);
	first = 1;
	for (size_t i = 0; i < root->nkids; i++)
		sp_samples(out, root->kids[i], &fr, stack, 0, &first, 1);
	fputs("]}],\"shared\":{\"frames\":[", out);
	for (size_t i = 0; i < fr.n; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		json_string(out, fr.names[i]);
		fputc('}', out);
	}
	fputs("]}}\n", out);
	free(stack);
	free(fr.names);
	frame_free(root);
	if (fclose(out))
		return error("%s: write error", path);
	return 0;
}
