/* Error reporting and checked allocation (error.c).  Library code reports and returns
 * -1; only main decides to exit (the allocators exit on running out of memory). */
#ifndef TGPROF_ERROR_H
#define TGPROF_ERROR_H

#include <stddef.h>

/* Print "tgprof: error: ..." and return -1, so library code can `return error(...)`. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* error() with ": strerror(errno)" appended, as git's error_errno(). */
int error_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
/* xmalloc on a cache line's boundary (64 bytes): a table of structs laid out by lines */
void *xmalloc_lines(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
extern const char *progname;
extern int quiet;              /* no messages (fuzzing) */

#endif
