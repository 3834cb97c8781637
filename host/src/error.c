/* Error reporting and checked allocation. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "error.h"

const char *progname = "tgprof";
int quiet;

/* "tgprof: PREFIX: FMT[: ERR]\n", unless quiet. */
static void vreport(const char *prefix, const char *err, const char *fmt, va_list ap)
{
	if (quiet)
		return;
	fprintf(stderr, "%s: %s: ", progname, prefix);
	vfprintf(stderr, fmt, ap);
	if (err)
		fprintf(stderr, ": %s", err);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error", NULL, fmt, ap);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	const char *err = strerror(errno);
	va_list ap;
	va_start(ap, fmt);
	vreport("error", err, fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning", NULL, fmt, ap);
	va_end(ap);
}

static void oom(size_t n)
{
	fprintf(stderr, "%s: error: out of memory (%zu bytes)\n", progname, n);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xmalloc_lines(size_t n)
{
	if (n > SIZE_MAX - 63)
		oom(n);
	void *p = aligned_alloc(64, n ? (n + 63) & ~(size_t)63 : 64);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}
