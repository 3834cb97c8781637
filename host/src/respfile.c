/* @FILE arguments: the file's contents are read as more arguments, as libiberty's
 * expandargv (which gprof uses) does: words separated by white space, '...' and "..."
 * quoting, backslash escapes, @FILE inside a file expanded too; an @FILE that cannot be
 * read stays as it is.  As there, the 2000th word that starts with '@' is an error
 * (the only bound on a file that names itself, or two that name each other twice), and
 * so is an @FILE that is a directory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "error.h"
#include "respfile.h"

/* libiberty's iteration_limit: its "-- iteration_limit == 0" fails at the 2000th. */
#define AT_WORDS_MAX 1999

struct argvec {
	char **v;
	int n, cap;
};

struct expander {
	struct argvec out;
	unsigned at_words;     /* words starting with '@' seen so far, as libiberty counts */
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

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* The next word at *pp, unquoted and unescaped in place (a word is never longer than its
 * text, so writing over the text behind the reading is safe, and the whole file costs
 * one pass); NULL at the end.  A backslash at the very end is dropped, as buildargv does. */
static char *next_word(char **pp)
{
	char *p = *pp;
	while (is_space(*p))
		p++;
	if (!*p)
		return NULL;
	char *word = p, *w = p, quote = 0;
	for (; *p; p++) {
		if (!quote && is_space(*p))
			break;
		if (*p == '\\') {
			if (p[1])
				*w++ = *++p;
		} else if (quote ? *p == quote : (*p == '\'' || *p == '"')) {
			quote = quote ? 0 : *p;
		} else {
			*w++ = *p;
		}
	}
	*pp = *p ? p + 1 : p;
	*w = 0;
	return word;
}

static int expand(struct expander *x, const char *arg, const char *from);

/* The words of @-file PATH (already known to be a readable file), each expanded. */
static int expand_file(struct expander *x, const char *path, char *text)
{
	char *p = text, *word;
	while ((word = next_word(&p)))
		if (expand(x, word, path) < 0)
			return -1;
	return 0;
}

/* ARG (from the command line when FROM is NULL, else from @-file FROM) onto x->out. */
static int expand(struct expander *x, const char *arg, const char *from)
{
	struct stat st;
	char *text;
	if (arg[0] != '@') {
		push(&x->out, xstrdup(arg));
		return 0;
	}
	if (++x->at_words > AT_WORDS_MAX)
		return error("too many @-files encountered: %s%s%s is the %uth (does an @-file "
			     "include itself?)", arg, from ? " in " : "", from ? from : "",
			     x->at_words);
	if (stat(arg + 1, &st) == 0 && S_ISDIR(st.st_mode))
		return error("@-file refers to a directory: %s", arg + 1);
	if (!(text = slurp(arg + 1))) {
		push(&x->out, xstrdup(arg));
		return 0;
	}
	int rc = expand_file(x, arg + 1, text);
	free(text);
	return rc;
}

/* v[0] is the caller's argv[0], not a copy. */
static void release_vec(struct argvec *a)
{
	for (int i = 1; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
}

static struct argvec expanded;

static void release(void)
{
	release_vec(&expanded);
}

/* *argv with every @FILE expanded (the new one freed at exit); -1 after an error. */
int args_expand_files(int *argc, char ***argv)
{
	int any = 0;
	for (int i = 1; i < *argc; i++)
		any |= (*argv)[i][0] == '@';
	if (!any)
		return 0;
	struct expander x = {0};
	push(&x.out, (*argv)[0]);
	for (int i = 1; i < *argc; i++)
		if (expand(&x, (*argv)[i], NULL) < 0) {
			release_vec(&x.out);
			return -1;
		}
	*argc = x.out.n;
	*argv = x.out.v;
	expanded = x.out;
	atexit(release);
	return 0;
}
