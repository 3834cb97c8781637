/* Source file and line of an address, from DWARF line tables through libdw. */
#include <stdlib.h>
#include <elfutils/libdw.h>
#include "tgprof.h"

struct srcinfo {
	Dwarf *dw;
};

struct srcinfo *srcinfo_open(int fd)
{
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw)
		return NULL;
	struct srcinfo *si = xmalloc(sizeof *si);
	si->dw = dw;
	return si;
}

/* Like bfd_find_nearest_line as gprof uses it: a file name and a non-zero line. */
int srcinfo_lookup(struct srcinfo *si, uint64_t addr, const char **file, int *line)
{
	Dwarf_Die cu;
	if (!si || !dwarf_addrdie(si->dw, addr, &cu))
		return 0;
	Dwarf_Line *l = dwarf_getsrc_die(&cu, addr);
	if (!l)
		return 0;
	int ln = 0;
	if (dwarf_lineno(l, &ln) != 0 || ln == 0)
		return 0;
	const char *f = dwarf_linesrc(l, NULL, NULL);
	if (!f)
		return 0;
	*file = f;
	*line = ln;
	return 1;
}

void srcinfo_close(struct srcinfo *si)
{
	if (!si)
		return;
	dwarf_end(si->dw);
	free(si);
}
