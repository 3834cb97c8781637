/* @FILE arguments: the file's contents are read as more arguments, as libiberty's
 * expandargv (which gprof uses) does: words separated by white space, '...' and "..."
 * quoting, backslash escapes, @FILE inside a file expanded too; an @FILE that cannot be
 * read stays as it is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "respfile.h"

struct argvec {
	char **v;
	int n, cap;
};

static void push(struct argvec *a, char *s)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? 2 * a->cap : 16;
		a->v = xrealloc(a->v, a->cap * sizeof *a->v);
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0, got;
	char *buf = xmalloc(cap + 1);
	while ((got = fread(buf + len, 1, cap - len, f)) > 0)
		if ((len += got) == cap)
			buf = xrealloc(buf, (cap *= 2) + 1);
	fclose(f);
	buf[len] = 0;
	return buf;
}

static void expand(struct argvec *out, const char *arg, int depth)
{
	char *text = arg[0] == '@' && depth < 32 ? slurp(arg + 1) : NULL;
	if (!text) {
		push(out, xstrdup(arg));
		return;
	}
	const char *p = text;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
			p++;
		if (!*p)
			break;
		char *word = xmalloc(strlen(p) + 1), *w = word;
		char quote = 0;
		for (; *p; p++) {
			if (!quote && strchr(" \t\n\r\f\v", *p))
				break;
			if (*p == '\\' && p[1]) {
				*w++ = *++p;
			} else if (quote ? *p == quote : (*p == '\'' || *p == '"')) {
				quote = quote ? 0 : *p;
			} else {
				*w++ = *p;
			}
		}
		*w = 0;
		if (word[0] == '@') {
			expand(out, word, depth + 1);
			free(word);
		} else {
			push(out, word);
		}
	}
	free(text);
}

static struct argvec expanded;

static void release(void)
{
	for (int i = 1; i < expanded.n; i++)
		free(expanded.v[i]);
	free(expanded.v);
}

/* A new argv with every @FILE expanded (freed at exit). */
char **args_expand(int *argc, char **argv)
{
	int any = 0;
	for (int i = 1; i < *argc; i++)
		any |= argv[i][0] == '@';
	if (!any)
		return argv;
	struct argvec out = {0};
	push(&out, argv[0]);
	for (int i = 1; i < *argc; i++)
		expand(&out, argv[i], 0);
	*argc = out.n;
	expanded = out;
	atexit(release);
	return out.v;
}
