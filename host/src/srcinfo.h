/* srcinfo.c: source file, line and function of an address, from DWARF as BFD finds
 * them. */
#ifndef TGPROF_SRCINFO_H
#define TGPROF_SRCINFO_H

#include <stdint.h>

struct srcinfo;
struct srcinfo *srcinfo_open(int fd);
int srcinfo_lookup(struct srcinfo *si, uint64_t addr, const char **file, int *line,
		   uint64_t *until);
const char *srcinfo_function(struct srcinfo *si, int *linkage);
/* A warning on standard error, naming PATH, if damaged DWARF was met since the last report
 * (its names and files are then left out, as where there is none). */
void srcinfo_report(struct srcinfo *si, const char *path);
void srcinfo_close(struct srcinfo *si);

#endif
