/* The symbol table: sorted by address, one entry per address, address ranges. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "error.h"
#include "msort.h"
#include "srcinfo.h"
#include "symtab.h"

static void sym_free(struct sym *s)
{
	if (s->owns_file)
		free((char *)s->file);
	free(s->dname);
	free(s->bb);
	if (s->owns_name)
		free((char *)s->name);
}

/* By address; at one address functions before non-functions, globals before statics;
 * then the original order (glibc's qsort is a stable merge sort). */
static int cmp_addr(const void *l, const void *r, void *ctx)
{
	const struct sym *a = l, *b = r;
	(void)ctx;
	if (a->addr != b->addr)
		return a->addr > b->addr ? 1 : -1;
	if (a->is_func != b->is_func)
		return (int)b->is_func - (int)a->is_func;
	if (a->is_static != b->is_static)
		return (int)a->is_static - (int)b->is_static;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* Whether V's N symbols are in cmp_addr's order. */
static int in_order(const struct sym *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (cmp_addr(&v[i - 1], &v[i], NULL) >= 0)
			return 0;
	return 1;
}

/* A's NA symbols and B's NB, each in cmp_addr's order, merged into OUT (A's first where
 * they tie): what a stable sort of A then B gives. */
static void merge(const struct sym *a, size_t na, const struct sym *b, size_t nb, struct sym *out)
{
	size_t i = 0, j = 0, k = 0;
	while (i < na && j < nb)
		out[k++] = cmp_addr(&a[i], &b[j], NULL) <= 0 ? a[i++] : b[j++];
	while (i < na)
		out[k++] = a[i++];
	while (j < nb)
		out[k++] = b[j++];
}

/* V's N symbols into OUT in cmp_addr's order if they are two sorted runs: 1, else 0. */
static int merge_two_runs(const struct sym *v, size_t n, struct sym *out)
{
	size_t mid = 1;
	while (mid < n && cmp_addr(&v[mid - 1], &v[mid], NULL) < 0)
		mid++;
	if (!in_order(v + mid, n - mid))
		return 0;
	merge(v, mid, v + mid, n - mid, out);
	return 1;
}

/* Which of two symbols at one address survives (gprof's symtab_finalize rules). */
static int prefer_src(const struct sym *src, const struct sym *dst)
{
	if (!src->is_static && dst->is_static)
		return 1;
	if (src->is_static != dst->is_static)
		return 0;
	if (src->is_func && !dst->is_func)
		return 1;
	if (src->is_func != dst->is_func)
		return 0;
	if (src->name[0] != '_' && dst->name[0] == '_')
		return 1;
	if (src->name[0] == '_' && dst->name[0] == '_' && src->name[1] != '_' &&
	    dst->name[1] == '_')
		return 1;
	return 0;
}

static void drop_duplicates(struct symtab *tab);

void symtab_finalize(struct symtab *tab)
{
	if (!tab->len)
		return;
	struct sym *sorted = xmalloc_lines((tab->len + 1) * sizeof *sorted);
	memset(sorted, 0, (tab->len + 1) * sizeof *sorted);
	if (!merge_two_runs(tab->base, tab->len, sorted)) {
		void **ptrs = xmalloc(tab->len * sizeof *ptrs);
		for (size_t i = 0; i < tab->len; i++)
			ptrs[i] = &tab->base[i];
		msort_ptrs(ptrs, tab->len, cmp_addr, NULL);
		for (size_t i = 0; i < tab->len; i++)
			sorted[i] = *(struct sym *)ptrs[i];
		free(ptrs);
	}
	free(tab->base);
	tab->base = sorted;
	drop_duplicates(tab);
}

/* Appending symbols in cmp_addr's order to a table of one symbol per address (gprof's
 * symtab_finalize rules): of two at one address the preferred stays, a symbol's end is
 * where the next begins unless it has one, and one whose end is below its start goes. */
struct sym_appender {
	struct sym *v;
	size_t n;
	uint64_t prev_addr;
};

static void sym_append(struct sym_appender *ap, const struct sym *src)
{
	struct sym *last = ap->n ? &ap->v[ap->n - 1] : NULL;
	if (last && src->addr == ap->prev_addr) {
		if (prefer_src(src, last)) {
			sym_free(last);
			*last = *src;
			last->order = ap->n - 1;
		} else {
			sym_free((struct sym *)src);
		}
		return;
	}
	if (last && last->end_addr == 0)
		last->end_addr = src->addr - 1;
	if (!src->end_addr || src->addr <= src->end_addr) {
		if (&ap->v[ap->n] != src)       /* (in place, mostly, for a table's own) */
			ap->v[ap->n] = *src;
		ap->v[ap->n].order = ap->n;
		ap->n++;
		ap->prev_addr = src->addr;
	} else {
		sym_free((struct sym *)src);
	}
}

static void sym_append_end(struct sym_appender *ap, uint64_t text_end)
{
	if (ap->n && ap->v[ap->n - 1].end_addr == 0)
		ap->v[ap->n - 1].end_addr = text_end - 1;
}

/* One symbol per address, and each one's end, in a table in cmp_addr's order. */
static void drop_duplicates(struct symtab *tab)
{
	struct sym_appender ap = {tab->base, 0, tab->base[0].addr - 1};
	for (size_t i = 0; i < tab->len; i++)
		sym_append(&ap, &tab->base[i]);     /* (never past I: in place) */
	sym_append_end(&ap, tab->text_end);
	tab->len = ap.n;
}

static void line_sym_to_sym(const struct line_sym *l, size_t order, struct sym *s)
{
	memset(s, 0, sizeof *s);
	s->addr = l->addr;
	s->name = l->name;
	s->file = l->file;
	s->line = l->line;
	s->is_static = l->is_static;
	s->order = order;
}

static int lines_in_order(const struct line_sym *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (v[i - 1].addr >= v[i].addr)
			return 0;
	return 1;
}

void symtab_add_lines_in_order(struct symtab *tab, const struct line_sym *lines, size_t n)
{
	for (size_t i = 0; i < tab->len; i++)
		tab->base[i].order = n + i;
	struct sym *all = xmalloc_lines((n + tab->len + 1) * sizeof *all);
	/* (lines at distinct addresses, in order: cmp_addr's order, their own as ties) */
	if (!lines_in_order(lines, n) || !in_order(tab->base, tab->len)) {
		for (size_t i = 0; i < n; i++)
			line_sym_to_sym(&lines[i], i, &all[i]);
		memcpy(all + n, tab->base, tab->len * sizeof *all);
		memset(&all[n + tab->len], 0, sizeof *all);     /* (the entry past the end) */
		free(tab->base);
		tab->base = all;
		tab->len += n;
		symtab_finalize(tab);
		return;
	}
	/* a merge, each line symbol made as it comes, duplicates dropped as they come */
	struct sym_appender ap = {all, 0, 0};
	size_t i = 0, j = 0;
	while (i < n || j < tab->len) {
		const struct sym *f = j < tab->len ? &tab->base[j] : NULL;
		/* cmp_addr(line, f) <= 0: a line is no function, and goes before at a tie */
		if (i < n && (!f || lines[i].addr < f->addr ||
			      (lines[i].addr == f->addr && !f->is_func &&
			       lines[i].is_static <= f->is_static))) {
			line_sym_to_sym(&lines[i], i, &all[ap.n]);     /* (made in place) */
			sym_append(&ap, &all[ap.n]);
			i++;
		} else {
			sym_append(&ap, f);
			j++;
		}
	}
	sym_append_end(&ap, tab->text_end);
	memset(&all[ap.n], 0, sizeof *all);                     /* (the entry past the end) */
	free(tab->base);
	tab->base = all;
	tab->len = ap.n;
}

/* The symbol whose range [addr, end_addr] holds ADDR, or NULL. */
struct sym *symtab_lookup(const struct symtab *tab, uint64_t addr)
{
	size_t lo = 0, hi = tab->len;
	if (!tab->len || addr < tab->base[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (tab->base[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	struct sym *s = &tab->base[lo];
	return addr <= s->end_addr ? s : NULL;
}

static size_t path_hash(const char *p)
{
	uint64_t h = 0xcbf29ce484222325ull;            /* FNV-1a */
	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	return (size_t)(h ^ h >> 29);
}

/* PATH's slot in the files' hash table: its entry's, or the empty one it would take. */
static size_t *file_slot(const struct symtab *tab, const char *path)
{
	size_t h = path_hash(path) & tab->file_slots_mask;
	while (tab->file_slots[h] && strcmp(tab->files[tab->file_slots[h] - 1], path))
		h = (h + 1) & tab->file_slots_mask;
	return &tab->file_slots[h];
}

/* Room for one more file in FILES and the hash table (at most half full). */
static void files_grow(struct symtab *tab)
{
	if (tab->nfiles == tab->files_cap) {
		tab->files_cap = tab->files_cap ? 2 * tab->files_cap : 16;
		tab->files = xrealloc(tab->files, tab->files_cap * sizeof *tab->files);
	}
	if (2 * (tab->nfiles + 1) <= tab->file_slots_mask + 1 && tab->file_slots)
		return;
	size_t cap = tab->file_slots ? 2 * (tab->file_slots_mask + 1) : 64;
	free(tab->file_slots);
	tab->file_slots = xcalloc(cap, sizeof *tab->file_slots);
	tab->file_slots_mask = cap - 1;
	for (size_t i = 0; i < tab->nfiles; i++)
		*file_slot(tab, tab->files[i]) = i + 1;
}

/* gprof's source_file_lookup_path: remember a source file the first time it is met (in
 * that order: the list is gprof's).  Found again by its pointer, if met lately, else by a
 * hash of the path (a C++ program's lines come from hundreds of headers by turns). */
void symtab_note_file(struct symtab *tab, const char *path)
{
	size_t m = ((uintptr_t)path >> 3 ^ (uintptr_t)path >> 9) % 64;
	if (path == tab->noted[m])
		return;
	files_grow(tab);
	size_t *slot = file_slot(tab, path);
	if (!*slot) {
		tab->files[tab->nfiles++] = xstrdup(path);
		*slot = tab->nfiles;
	}
	tab->noted[m] = path;
	tab->noted_file[m] = *slot - 1;
}

void symtab_forget_noted(struct symtab *tab)
{
	memset(tab->noted, 0, sizeof tab->noted);
}

/* Forget the symbols (their strings too), keep the rest of the table. */
void symtab_drop_syms(struct symtab *tab)
{
	if (tab->base)
		for (size_t i = 0; i < tab->len; i++)
			sym_free(&tab->base[i]);
	free(tab->base);
	tab->base = NULL;
	tab->len = tab->alloc_len = 0;
	for (size_t i = 0; i < tab->nfiles; i++)
		free(tab->files[i]);
	tab->nfiles = 0;
	symtab_forget_noted(tab);
	free(tab->file_slots);
	tab->file_slots = NULL;
	tab->file_slots_mask = 0;
}

void symtab_release(struct symtab *tab)
{
	if (tab->base)
		for (size_t i = 0; i < tab->len; i++)
			sym_free(&tab->base[i]);
	free(tab->base);
	free(tab->strings_keep);
	free(tab->code);
	free(tab->text);
	for (size_t i = 0; i < tab->nfiles; i++)
		free(tab->files[i]);
	free(tab->files);
	free(tab->file_slots);
	if (tab->si) {
		srcinfo_close(tab->si);
		close(tab->dwarf_fd);
	}
	memset(tab, 0, sizeof *tab);
}
