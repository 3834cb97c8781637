/* -R: gprof's map of functions to object files, for its file ordering.  Each line is an
 * object file, a colon, and text whose last blank-separated word is a function's name, as
 * `nm --extern-only --defined-only -v --print-file-name` prints them; lines starting
 * "No symbols in " are skipped.  Read as gprof's fscanf loop reads it (whitespace after a
 * line's text, blank lines and the next line's indentation included, is skipped); then
 * the first function of each run of one file stands for the file: it is named after the
 * file, and the file's other functions are no symbols at all. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "mapfile.h"
#include "msort.h"
#include "symtab.h"

static int cmp_func(const void *l, const void *r, void *ctx)
{
	(void)ctx;
	return strcmp(((const struct fmap_entry *)l)->func, ((const struct fmap_entry *)r)->func);
}

static int parse_error(const char *path, size_t at, const char *why)
{
	return error("%s: offset %zu: unable to parse the mapping file: %s (a line is "
		     "FILE:... FUNCTION, as nm --print-file-name prints)", path, at, why);
}

static size_t skip_space(const char *b, size_t len, size_t i)
{
	while (i < len && isspace((unsigned char)b[i]))
		i++;
	return i;
}

/* One line from *at: its file and function into E (0), skipped (1), or an error (-1). */
static int parse_line(const char *path, const char *b, size_t len, size_t *at,
		      struct fmap_entry *e)
{
	size_t i = *at, f0 = i;
	while (i < len && b[i] != '\n' && b[i] != ':')
		i++;
	if (i == f0)
		return parse_error(path, f0, "no file name");
	size_t f1 = i;
	if (f1 - f0 >= 14 && !memcmp(b + f0, "No symbols in ", 14)) {
		*at = skip_space(b, len, i);
		return 1;
	}
	size_t r0 = i;
	while (i < len && b[i] != '\n')
		i++;
	if (i == r0 && i < len)
		return parse_error(path, r0, "no colon after the file name");
	/* at the end of the file gprof's second field keeps the first's text */
	size_t r1 = i == r0 ? f1 : i;
	r0 = i == r0 ? f0 : r0;
	size_t sp = r1;
	while (sp > r0 && b[sp - 1] != ' ')
		sp--;
	if (sp == r0)
		return parse_error(path, r0, "no blank before the function name");
	e->file = strndup(b + f0, f1 - f0);
	e->func = strndup(b + sp, r1 - sp);
	*at = skip_space(b, len, i);
	return 0;
}

static int fmap_parse(struct fmap *m, const char *path, const char *b, size_t len)
{
	size_t at = 0, cap = 0;
	while (at < len) {
		if (m->n == cap) {
			cap = cap ? 2 * cap : 64;
			m->e = xrealloc(m->e, cap * sizeof *m->e);
		}
		struct fmap_entry *e = &m->e[m->n];
		memset(e, 0, sizeof *e);
		int rc = parse_line(path, b, len, &at, e);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			e->is_first = m->n == 0 || strcmp(e->file, m->e[m->n - 1].file) != 0;
			m->n++;
		}
	}
	return 0;
}

int fmap_read(struct fmap *m, const char *path)
{
	memset(m, 0, sizeof *m);
	FILE *f = fopen(path, "r");
	if (!f)
		return error_errno("%s: cannot open the mapping file", path);
	char *b = NULL;
	size_t len = 0, cap = 0, got;
	do {
		if (len == cap)
			b = xrealloc(b, cap = cap ? 2 * cap : 4096);
		got = fread(b + len, 1, cap - len, f);
		len += got;
	} while (got);
	int bad = ferror(f);
	fclose(f);
	int rc = bad ? error("%s: read error", path) : fmap_parse(m, path, b, len);
	free(b);
	if (rc) {
		fmap_release(m);
		return -1;
	}
	/* by function name, as gprof sorts and searches it (glibc's qsort: stable) */
	m->byname = xmalloc((m->n + 1) * sizeof *m->byname);
	for (size_t i = 0; i < m->n; i++)
		m->byname[i] = &m->e[i];
	msort_ptrs(m->byname, m->n, cmp_func, NULL);
	return 0;
}

/* glibc's bsearch: which of several entries of one name answers depends on its halving */
static const struct fmap_entry *fmap_find(const struct fmap *m, const char *name)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct fmap_entry *e = m->byname[mid];
		int c = strcmp(name, e->func);
		if (c < 0)
			hi = mid;
		else if (c > 0)
			lo = mid + 1;
		else
			return e;
	}
	return NULL;
}

/* Before symtab_finalize: a mapped function is its file's symbol if it comes first in the
 * file's run of lines, else it is dropped (its code goes to the symbol before it). */
void fmap_apply(const struct fmap *m, struct symtab *tab)
{
	size_t dst = 0;
	for (size_t i = 0; i < tab->len; i++) {
		struct sym *s = &tab->base[i];
		const struct fmap_entry *e = fmap_find(m, s->name);
		if (e && !e->is_first) {
			free((char *)s->file);
			continue;
		}
		if (e) {
			s->name = e->file;
			s->mapped = 1;
		}
		tab->base[dst++] = *s;
	}
	tab->len = tab->alloc_len = dst;
}

void fmap_release(struct fmap *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->e[i].file);
		free(m->e[i].func);
	}
	free(m->e);
	free(m->byname);
	memset(m, 0, sizeof *m);
}
