/* dwfuncs.c: a unit's functions and their address ranges, read from .debug_info itself. */
#ifndef TGPROF_DWFUNCS_H
#define TGPROF_DWFUNCS_H

#include <stddef.h>
#include <stdint.h>

/* The sections the debugging entries and their ranges are in (NULL where there is none). */
struct dwsecs {
	const unsigned char *info, *abbrev, *ranges, *rnglists, *addr;
	size_t info_size, abbrev_size, ranges_size, rnglists_size, addr_size;
	int big;
};

/* One address range of a function (subprogram, inlined subroutine, entry point). */
struct dwfunc {
	uint64_t lo, hi;
	size_t seq;             /* the function's place in its unit's DIE order */
	uint64_t die;           /* its DIE's offset in .debug_info */
};

struct dwabbrevs;

/* The reader: the sections, the abbreviation tables decoded so far, and what is left of
 * the work a file's size allows (a crafted file must not make it quadratic). */
struct dwreader {
	struct dwsecs s;
	struct dwabbrevs **tabs;   /* a hash table by offset in .debug_abbrev */
	size_t ntabs, tabs_cap;
	uint64_t abbrev_budget;    /* abbreviation entries left to decode */
	uint64_t range_budget;     /* range list entries left to read */
};

void dwreader_init(struct dwreader *r, const struct dwsecs *s);
int dwreader_funcs(struct dwreader *r, uint64_t unit, struct dwfunc **v, size_t *n);
void dwreader_release(struct dwreader *r);

#endif
