/* gmon.stacks out: folded stacks, a flame graph (SVG) and speedscope's JSON, from the stacks
 * by frame name (call paths that differ only in call sites are one stack).  A stack starts
 * at main (the first thread's context is left out), at another thread's task name (from
 * gmon.tasks; "[thread 0xID]" for an id it does not have), or at an interrupt handler; a context's own samples are its "[no frame]".  Every sample
 * of the tree is in exactly one stack; the profiler's own (overhead) in none.  Names are
 * the call graph's (demangled unless --no-demangle).
 *
 * Time and memory are linear in the tree (a crafted file may be a chain of a million
 * frames): the frames are made in one pass over the nodes, parents first, found through a
 * hash table, and walked without recursion; only folded stacks and speedscope's samples,
 * which write every stack's whole path, take as long as what they write. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "cg_print.h"
#include "error.h"
#include "msort.h"
#include "outputs.h"
#include "stacks.h"
#include "symtab.h"
#include "tasks.h"

#define NONE 0xFFFFFFFFu

/* A stack of names: a trie whose nodes are frames, by index; frame 0 is "all", a frame's
 * parent has a smaller index. */
struct frame {
	uint32_t name, parent;
	uint32_t kids, nkids;      /* its children: kid[kids .. kids + nkids), by name */
	uint64_t self, total;
};

struct trie {
	struct frame *f;
	uint32_t n, cap;
	uint32_t *kid;             /* every frame's children, frame by frame */
	const char **names;        /* by name id */
	uint32_t nnames, names_cap;
	uint32_t *name_hash, *frame_hash;  /* open addressing: name ids, frame ids */
	uint32_t hash_cap;         /* a power of two, over twice the entries */
};

static uint64_t fnv(const char *s)
{
	uint64_t h = 14695981039346656037ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static uint32_t name_id(struct trie *t, const char *name)
{
	uint32_t mask = t->hash_cap - 1, i = (uint32_t)fnv(name) & mask;
	for (; t->name_hash[i] != NONE; i = (i + 1) & mask)
		if (!strcmp(t->names[t->name_hash[i]], name))
			return t->name_hash[i];
	if (t->nnames == t->names_cap) {
		t->names_cap = t->names_cap ? 2 * t->names_cap : 64;
		t->names = xrealloc(t->names, t->names_cap * sizeof *t->names);
	}
	t->names[t->nnames] = xstrdup(name);
	return t->name_hash[i] = t->nnames++;
}

static uint32_t frame_slot(const struct trie *t, uint32_t parent, uint32_t name)
{
	uint64_t h = ((uint64_t)parent * 0x9E3779B97F4A7C15ull) ^ (name * 0xC2B2AE3D27D4EB4Full);
	return (uint32_t)(h ^ (h >> 29)) & (t->hash_cap - 1);
}

/* The child NAME of frame PARENT, made if new. */
static uint32_t frame_child(struct trie *t, uint32_t parent, uint32_t name)
{
	uint32_t mask = t->hash_cap - 1, i = frame_slot(t, parent, name);
	for (; t->frame_hash[i] != NONE; i = (i + 1) & mask) {
		const struct frame *f = &t->f[t->frame_hash[i]];
		if (f->parent == parent && f->name == name)
			return t->frame_hash[i];
	}
	if (t->n == t->cap) {
		t->cap = 2 * t->cap;
		t->f = xrealloc(t->f, t->cap * sizeof *t->f);
	}
	t->f[t->n] = (struct frame){.name = name, .parent = parent};
	return t->frame_hash[i] = t->n++;
}

/* A node's frame name: the function as the call graph names it, a thread's context (its
 * task's name in gmon.tasks), or the address (into buf). */
static const char *node_name(const struct stacks *st, const struct analysis *a, uint32_t i,
			     char *buf, size_t len)
{
	const struct stack_node *n = &st->nodes[i];
	if (n->self == 0) {
		const struct task *t = a->tasks ? tasks_find(a->tasks, n->from) : NULL;
		if (t)
			return t->name;
		snprintf(buf, len, "[thread 0x%llx]", (unsigned long long)n->from);
		return buf;
	}
	const struct sym *s = symtab_lookup(a->tab, n->self);
	if (s && s->name)
		return print_dname(a, s);
	snprintf(buf, len, "0x%llx", (unsigned long long)n->self);
	return buf;
}

static int cmp_frame_name(const void *l, const void *r, void *ctx)
{
	const struct trie *t = ctx;
	return strcmp(t->names[((const struct frame *)l)->name],
		      t->names[((const struct frame *)r)->name]);
}

/* Every frame's children, by name, into t->kid; totals from the leaves up. */
static void trie_finish(struct trie *t)
{
	uint32_t *start = xcalloc(t->n + 1, sizeof *start);
	for (uint32_t i = 1; i < t->n; i++)
		start[t->f[i].parent + 1]++;
	for (uint32_t i = 0; i < t->n; i++) {
		start[i + 1] += start[i];
		t->f[i].kids = start[i];
	}
	void **by = xmalloc((t->n + 1) * sizeof *by);
	for (uint32_t i = 1; i < t->n; i++)
		by[t->f[t->f[i].parent].kids + t->f[t->f[i].parent].nkids++] = &t->f[i];
	t->kid = xmalloc((t->n + 1) * sizeof *t->kid);
	for (uint32_t i = 0; i < t->n; i++) {
		msort_ptrs(by + t->f[i].kids, t->f[i].nkids, cmp_frame_name, t);
		for (uint32_t k = 0; k < t->f[i].nkids; k++)
			t->kid[t->f[i].kids + k] = (uint32_t)((struct frame *)by[t->f[i].kids + k] - t->f);
	}
	for (uint32_t i = t->n; i-- > 0;) {
		t->f[i].total += t->f[i].self;
		if (i)
			t->f[t->f[i].parent].total += t->f[i].total;
	}
	free(by);
	free(start);
}

/* The samples under each node (its own and its descendants'), parents being first. */
static uint64_t *subtree_samples(const struct stacks *st)
{
	uint64_t *sub = xcalloc(st->n + 1, sizeof *sub);
	for (uint32_t i = st->n; i-- > 0;) {
		sub[i] += st->nodes[i].samples;
		if (st->nodes[i].parent != NONE)
			sub[st->nodes[i].parent] += sub[i];
	}
	return sub;
}

/* The trie of the tree's samples under a root named "all": frames only where samples are;
 * with --task, only those of the chosen tasks' contexts. */
static struct trie *trie_build(const struct stacks *st, const struct analysis *a)
{
	struct trie *t = xcalloc(1, sizeof *t);
	t->cap = 2 * st->n + 2;
	t->f = xcalloc(t->cap, sizeof *t->f);
	for (t->hash_cap = 64; t->hash_cap < 2 * t->cap; t->hash_cap *= 2)
		;
	t->name_hash = xmalloc(t->hash_cap * sizeof *t->name_hash);
	t->frame_hash = xmalloc(t->hash_cap * sizeof *t->frame_hash);
	memset(t->name_hash, 0xff, t->hash_cap * sizeof *t->name_hash);
	memset(t->frame_hash, 0xff, t->hash_cap * sizeof *t->frame_hash);
	t->f[0] = (struct frame){.name = name_id(t, "all"), .parent = NONE};
	t->n = 1;
	uint32_t no_frame = name_id(t, "[no frame]");
	uint64_t *sub = subtree_samples(st);
	uint32_t *fr = xmalloc((st->n + 1) * sizeof *fr);
	uint32_t *task = a->chosen_tasks ? tasks_of_nodes(a->tasks, st) : NULL;
	char buf[64];
	for (uint32_t i = 0; i < st->n; i++) {
		const struct stack_node *n = &st->nodes[i];
		fr[i] = NONE;
		if (!sub[i] || (task && (task[i] == NO_TASK || !a->chosen_tasks[task[i]])))
			continue;
		uint32_t pf = n->parent == NONE ? 0 : fr[n->parent];
		if (n->self == 0 && n->from == 0)
			fr[i] = pf;       /* the first thread: stacks start at main */
		else
			fr[i] = frame_child(t, pf, name_id(t, node_name(st, a, i, buf, sizeof buf)));
		if (n->samples)
			t->f[n->self ? fr[i] : frame_child(t, fr[i], no_frame)].self += n->samples;
	}
	free(task);
	free(fr);
	free(sub);
	trie_finish(t);
	return t;
}

static void trie_free(struct trie *t)
{
	for (uint32_t i = 0; i < t->nnames; i++)
		free((char *)t->names[i]);
	free(t->names);
	free(t->name_hash);
	free(t->frame_hash);
	free(t->kid);
	free(t->f);
	free(t);
}

/* A walk of the trie below "all", without recursion: the frames in order, each with its
 * depth (1 for the outermost); a frame's children follow it. */
struct walk {
	const struct trie *t;
	uint32_t *stack, *next;    /* the path's frames, and each one's next child */
	uint32_t depth;
};

static void walk_start(struct walk *w, const struct trie *t)
{
	w->t = t;
	w->stack = xmalloc((t->n + 1) * sizeof *w->stack);
	w->next = xmalloc((t->n + 1) * sizeof *w->next);
	w->stack[0] = 0;
	w->next[0] = 0;
	w->depth = 0;
}

/* The next frame (its depth in w->depth), or NONE at the end. */
static uint32_t walk_next(struct walk *w)
{
	for (;;) {
		const struct frame *f = &w->t->f[w->stack[w->depth]];
		if (w->next[w->depth] < f->nkids) {
			uint32_t k = w->t->kid[f->kids + w->next[w->depth]++];
			w->depth++;
			w->stack[w->depth] = k;
			w->next[w->depth] = 0;
			return k;
		}
		if (w->depth == 0)
			return NONE;
		w->depth--;
	}
}

static void walk_end(struct walk *w)
{
	free(w->stack);
	free(w->next);
}

/* A path of text kept as the walk goes: each depth's end in it (folded stacks' names,
 * speedscope's indices), so that writing a stack costs what it writes. */
struct pathbuf {
	char *s;
	size_t cap, *end;
};

static void path_init(struct pathbuf *p, uint32_t frames)
{
	p->cap = 256;
	p->s = xmalloc(p->cap);
	p->end = xmalloc((frames + 1) * sizeof *p->end);
	p->end[0] = 0;
}

/* The text at DEPTH (1 outermost) is the one at DEPTH - 1, SEP, ITEM; its length. */
static size_t path_set(struct pathbuf *p, uint32_t depth, char sep, const char *item)
{
	size_t len = p->end[depth - 1], n = strlen(item);
	if (len + n + 2 > p->cap) {
		while (len + n + 2 > p->cap)
			p->cap *= 2;
		p->s = xrealloc(p->s, p->cap);
	}
	if (depth > 1)
		p->s[len++] = sep;
	memcpy(p->s + len, item, n);
	return p->end[depth] = len + n;
}

static void path_free(struct pathbuf *p)
{
	free(p->s);
	free(p->end);
}

/* ---- folded ---------------------------------------------------------------------- */

int stacks_write_folded(const struct stacks *st, const struct analysis *a, const char *path)
{
	FILE *out = fopen(path, "w");
	if (!out)
		return error_errno("%s: cannot create", path);
	struct trie *t = trie_build(st, a);
	struct pathbuf p;
	struct walk w;
	path_init(&p, t->n);
	walk_start(&w, t);
	for (uint32_t k; (k = walk_next(&w)) != NONE;) {
		size_t len = path_set(&p, w.depth, ';', t->names[t->f[k].name]);
		if (t->f[k].self) {
			fwrite(p.s, 1, len, out);
			fprintf(out, " %llu\n", (unsigned long long)t->f[k].self);
		}
	}
	path_free(&p);
	walk_end(&w);
	trie_free(t);
	if (fclose(out))
		return error("%s: write error", path);
	return 0;
}

/* ---- flame graph ----------------------------------------------------------------- */

#define FLAME_WIDTH  1200.0
#define FLAME_ROW    17
#define FLAME_MARGIN 10.0

/* XML 1.0 text: a byte of no UTF-8 character, or a control character XML does not allow
 * (even as a reference), is written as U+FFFD, so that the file always parses. */
static void xml_text(FILE *out, const char *s)
{
	while (*s) {
		size_t n = utf8_char_len(s);
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default:
			if (n == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r'))
				fputs("&#xFFFD;", out);
			else
				fwrite(s, 1, n, out);
		}
		s += n ? n : 1;
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

/* The frame's label: the name, with its templates' arguments elided when it is long (as
 * in --svg's boxes); the tooltip has it whole. */
static char *frame_label(const char *name)
{
	size_t len = strlen(name);
	char *l = xmalloc(3 * len + 1);
	if (len > 40)
		elide_templates(name, l);
	else
		strcpy(l, name);
	return l;
}

static void flame_frame(FILE *out, const struct trie *t, uint32_t k, double x, double y,
			double scale)
{
	const struct frame *f = &t->f[k];
	const char *name = t->names[f->name];
	double w = f->total * scale;
	unsigned h = name_hue(name);
	uint64_t all = t->f[0].total;
	fprintf(out, "<g class=\"f\"><title>");
	xml_text(out, name);
	fprintf(out, " (%llu samples, %.2f%%)</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" "
		"height=\"%d\" fill=\"rgb(%u,%u,%u)\" rx=\"2\"/><text x=\"%.2f\" y=\"%.0f\" "
		"data-l=\"", (unsigned long long)f->total, all ? 100.0 * f->total / all : 0.0, x, y,
		w, FLAME_ROW - 1, 205 + h % 50, 80 + (h >> 8) % 130, 40 + (h >> 16) % 40, x + 3,
		y + FLAME_ROW - 5);
	char *label = frame_label(name);
	xml_text(out, label);
	fputs("\">", out);
	size_t fit = w > 20 ? (size_t)((w - 6) / 7) : 0;   /* ~7 px a character */
	if (fit >= strlen(label)) {
		xml_text(out, label);
	} else if (fit > 2) {
		strcpy(label + fit - 2, "..");
		xml_text(out, label);
	}
	free(label);
	fputs("</text></g>\n", out);
}

/* Click a frame: it fills the width (its ancestors too), the others outside hide; click
 * "all" to go back.  Labels are cut from the text's data-l. */
static const char flame_script[] =
	"<script><![CDATA[\n"
	"var W=%.0f,M=%.0f;\n"
	"function zoom(g){var r=g.querySelector('rect'),x0=+r.dataset.x,w0=+r.dataset.w,\n"
	" s=(W-2*M)/w0;\n"
	" document.querySelectorAll('g.f').forEach(function(e){var q=e.querySelector('rect'),\n"
	"  t=e.querySelector('text'),x=+q.dataset.x,w=+q.dataset.w,nx=M+(x-x0)*s,nw=w*s;\n"
	"  var inside=x+w>x0+1e-9&&x<x0+w0-1e-9||+q.getAttribute('y')>=+r.getAttribute('y');\n"
	"  e.style.display=inside?'':'none';q.setAttribute('x',nx);q.setAttribute('width',nw);\n"
	"  t.setAttribute('x',nx+3);var n=t.getAttribute('data-l'),\n"
	"  fit=Math.floor((nw-6)/7);t.textContent=nw<20?'':fit>=n.length?n:fit>2?n.slice(0,fit-2)+'..':'';});}\n"
	"document.querySelectorAll('g.f').forEach(function(e){var q=e.querySelector('rect');\n"
	" q.dataset.x=q.getAttribute('x');q.dataset.w=q.getAttribute('width');\n"
	" e.addEventListener('click',function(){zoom(e);});});\n"
	"]]></script>\n";

/* The frames, "all" at the bottom, each child from its parent's left edge on. */
static void flame_frames(FILE *out, const struct trie *t, size_t levels, double scale)
{
	double base = FLAME_MARGIN + 24 + (double)(levels - 1) * FLAME_ROW;
	double *next_x = xmalloc((t->n + 1) * sizeof *next_x);
	struct walk w;
	flame_frame(out, t, 0, FLAME_MARGIN, base, scale);
	next_x[0] = FLAME_MARGIN;
	walk_start(&w, t);
	for (uint32_t k; (k = walk_next(&w)) != NONE;) {
		double x = next_x[w.depth - 1];
		flame_frame(out, t, k, x, base - (double)w.depth * FLAME_ROW, scale);
		next_x[w.depth - 1] = x + t->f[k].total * scale;
		next_x[w.depth] = x;
	}
	walk_end(&w);
	free(next_x);
}

int stacks_write_flame(const struct stacks *st, const struct analysis *a, const char *path)
{
	FILE *out = fopen(path, "w");
	if (!out)
		return error_errno("%s: cannot create", path);
	struct trie *t = trie_build(st, a);
	uint32_t *depth = xcalloc(t->n + 1, sizeof *depth);
	size_t levels = 1;
	for (uint32_t i = 1; i < t->n; i++)
		if ((depth[i] = depth[t->f[i].parent] + 1) + 1 > levels)
			levels = depth[i] + 1;
	free(depth);
	double height = 2 * FLAME_MARGIN + 24 + (double)levels * FLAME_ROW;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" "
		"font-size=\"12\">\n<style>g.f{cursor:pointer} g.f:hover rect{stroke:#000}"
		"</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fdfdf5\"/>\n"
		"<text x=\"%.0f\" y=\"%.0f\" font-size=\"15\">Flame graph: ",
		FLAME_WIDTH, height, FLAME_WIDTH, height, FLAME_MARGIN, FLAME_MARGIN + 12);
	xml_text(out, st->path);
	fprintf(out, " (%llu samples, measured stacks; click to zoom)</text>\n",
		(unsigned long long)t->f[0].total);
	double scale = t->f[0].total ? (FLAME_WIDTH - 2 * FLAME_MARGIN) / t->f[0].total : 0.0;
	flame_frames(out, t, levels, scale);
	fprintf(out, flame_script, FLAME_WIDTH, FLAME_MARGIN);
	fputs("</svg>\n", out);
	trie_free(t);
	if (fclose(out))
		return error("%s: write error", path);
	return 0;
}

/* ---- speedscope ------------------------------------------------------------------ */

/* Each stack with self samples: its frames' indices, outermost first (or its weight).
 * A name's index is its place in speedscope's frame list, in the order first met. */
static void sp_samples(FILE *out, const struct trie *t, uint32_t *index, uint32_t *nindex,
		       int weights)
{
	struct pathbuf p;
	struct walk w;
	int first = 1;
	char num[16];
	path_init(&p, t->n);
	walk_start(&w, t);
	for (uint32_t k; (k = walk_next(&w)) != NONE;) {
		uint32_t name = t->f[k].name;
		if (index[name] == NONE)
			index[name] = (*nindex)++;
		snprintf(num, sizeof num, "%u", index[name]);
		size_t len = path_set(&p, w.depth, ',', num);
		if (!t->f[k].self)
			continue;
		fputs(first ? "" : ",", out);
		first = 0;
		if (weights) {
			fprintf(out, "%llu", (unsigned long long)t->f[k].self);
			continue;
		}
		fputc('[', out);
		fwrite(p.s, 1, len, out);
		fputc(']', out);
	}
	walk_end(&w);
	path_free(&p);
}

int stacks_write_speedscope(const struct stacks *st, const struct analysis *a, const char *path)
{
	FILE *out = fopen(path, "w");
	if (!out)
		return error_errno("%s: cannot create", path);
	struct trie *t = trie_build(st, a);
	uint32_t *index = xmalloc((t->nnames + 1) * sizeof *index), nindex = 0;
	uint32_t *order = xmalloc((t->nnames + 1) * sizeof *order);
	memset(index, 0xff, (t->nnames + 1) * sizeof *index);
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",", out);
	fputs("\"exporter\":\"tgprof\",\"name\":", out);
	json_str(out, st->path);
	fputs(",\"activeProfileIndex\":0,\"profiles\":[{\"type\":\"sampled\",\"name\":", out);
	json_str(out, st->path);
	fprintf(out, ",\"unit\":\"none\",\"startValue\":0,\"endValue\":%llu,\"samples\":[",
		(unsigned long long)t->f[0].total);
	sp_samples(out, t, index, &nindex, 0);
	fputs("],\"weights\":[", out);
	sp_samples(out, t, index, &nindex, 1);
	fputs("]}],\"shared\":{\"frames\":[", out);
	for (uint32_t i = 0; i < t->nnames; i++)
		if (index[i] != NONE)
			order[index[i]] = i;
	for (uint32_t i = 0; i < nindex; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		json_str(out, t->names[order[i]]);
		fputc('}', out);
	}
	fputs("]}}\n", out);
	free(order);
	free(index);
	trie_free(t);
	if (fclose(out))
		return error("%s: write error", path);
	return 0;
}
