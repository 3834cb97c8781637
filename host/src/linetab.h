/* linetab.c: a unit's line-number table, decoded and searched as BFD does. */
#ifndef TGPROF_LINETAB_H
#define TGPROF_LINETAB_H

#include <stddef.h>
#include <stdint.h>

struct linetab;
struct linetab *linetab_read(const unsigned char *sec, size_t size, uint64_t off, int big,
			     unsigned addr_size);
int linetab_lookup(const struct linetab *t, uint64_t addr, unsigned *line, unsigned *file);
size_t linetab_spans(const struct linetab *t, const uint64_t (**spans)[2]);
void linetab_free(struct linetab *t);

#endif
