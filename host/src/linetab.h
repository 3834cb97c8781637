/* linetab.c: a unit's line-number table, decoded and searched as BFD does. */
#ifndef TGPROF_LINETAB_H
#define TGPROF_LINETAB_H

#include <stddef.h>
#include <stdint.h>

struct linetab;
/* The sections a line table refers to (NULL where there is none). */
struct linesecs {
	const unsigned char *line, *line_str, *str;  /* .debug_line, .debug_line_str, .debug_str */
	size_t line_size, line_str_size, str_size;
	int big;
};
struct linetab *linetab_read(const struct linesecs *secs, uint64_t off, unsigned addr_size);
int linetab_file(const struct linetab *t, unsigned file, const char **name, const char **dir);
int linetab_lookup(struct linetab *t, uint64_t addr, unsigned *line, unsigned *file,
		   uint64_t *next);
size_t linetab_spans(const struct linetab *t, const uint64_t (**spans)[2]);
void linetab_free(struct linetab *t);

#endif
