/* filebuf.c: a whole file in memory, and fields decoded from it in a byte order the
 * file states (the target's companion files: gmon.stacks, gmon.tasks). */
#ifndef TGPROF_FILEBUF_H
#define TGPROF_FILEBUF_H

#include <stddef.h>
#include <stdint.h>

int filebuf_read(const char *path, unsigned char **buf, size_t *len);
uint64_t filebuf_get(const unsigned char *p, unsigned n, int big);
int filebuf_check_start(const char *path, const unsigned char *b, size_t len,
			const char *kind, unsigned size, const char *magic, int *big,
			unsigned *addr);
/* A companion file that is not the gmon files' snapshot: why (then ", ignored" for a file
 * found beside the gmon file, then hint) as an error for a file named on the command line
 * (-1), as a warning for one found beside (1: the caller goes on without it). */
int filebuf_refuse(int named, const char *why, const char *hint);

#endif
