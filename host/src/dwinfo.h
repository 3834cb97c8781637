/* dwinfo.c: compilation units, their functions' ranges and names, read from .debug_info
 * itself. */
#ifndef TGPROF_DWINFO_H
#define TGPROF_DWINFO_H

#include <stddef.h>
#include <stdint.h>

/* The sections read (NULL where there is none). */
struct dwsecs {
	const unsigned char *info, *abbrev, *ranges, *rnglists, *addr, *str, *line_str,
			    *str_offsets;
	size_t info_size, abbrev_size, ranges_size, rnglists_size, addr_size, str_size,
	       line_str_size, str_offsets_size;
	int big;
};

/* An address range of a unit or of a function (subprogram, inlined subroutine, entry
 * point). */
struct dwfunc {
	uint64_t lo, hi;
	size_t seq;             /* the function's place in its unit's DIE order */
	uint64_t die;           /* its DIE's offset in .debug_info */
	uint64_t origin;        /* where its name is found, if it has none of its own (an
				 * inlined copy: its abstract origin); else UINT64_MAX */
};

/* A compilation unit: what its own entry says. */
struct dwunit {
	uint64_t off, end;      /* its header's offset in .debug_info, the next unit's */
	unsigned addr_size;
	int has_stmt_list;
	uint64_t stmt_list;     /* its line table's offset in .debug_line */
	const char *comp_dir;   /* NULL: none */
};

struct dwabbrevs;
struct dwlastunit;

/* The names of entries linked to (dwinfo.c's origin_name), by offset. */
struct dwname {
	uint64_t die_plus1;        /* 0: an empty slot */
	const char *name;
	int linkage;
};
struct dwnames {
	struct dwname *v;
	size_t n, cap;
};

/* The reader: the sections, the abbreviation tables decoded so far, the units met, and
 * what is left of the work a file's size allows (a crafted file must not make it
 * quadratic). */
struct dwreader {
	struct dwsecs s;
	struct dwabbrevs **tabs;   /* a hash table by offset in .debug_abbrev */
	size_t ntabs, tabs_cap;
	uint64_t (*units)[2];      /* the units met, by offset: header, end */
	size_t nunits, units_cap;
	struct dwlastunit *last;   /* the unit of the last entry read by offset */
	uint64_t abbrev_budget;    /* abbreviation entries left to decode */
	uint64_t range_budget;     /* range list entries left to read */
	struct dwnames names;
	unsigned long damaged;     /* entries found damaged (a name or file then left out), */
	uint64_t damaged_at;       /* the first's .debug_info offset, */
	const char *damaged_what;  /* and what was wrong with it */
};

void dwreader_init(struct dwreader *r, const struct dwsecs *s);
int dwreader_unit(struct dwreader *r, uint64_t off, struct dwunit *u, struct dwfunc **v,
		  size_t *n);
int dwreader_funcs(struct dwreader *r, uint64_t unit, struct dwfunc **v, size_t *n);
const char *dwreader_name(struct dwreader *r, uint64_t die, int *linkage);
/* The name of a function whose entry has no name of its own: found from ORIGIN (its
 * dwfunc's) on, as dwreader_name would find it. */
const char *dwreader_origin_name(struct dwreader *r, uint64_t origin, int *linkage);
void dwreader_release(struct dwreader *r);

#endif
