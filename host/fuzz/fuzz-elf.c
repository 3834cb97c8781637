/* libFuzzer target: the ELF symbol reader (libelf, the BFD-like classification, the
 * DWARF line lookups through libdw).  The input is written to a file first, since the
 * reader works on a path like the tool.  Odd-sized inputs also go through -l. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tgprof.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char path[64];
	quiet = 1;
	if (!path[0])
		snprintf(path, sizeof path, "/tmp/tgprof-fuzz-elf.%d", (int)getpid());
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	struct symtab tab;
	struct elf_opts eo = {.want_lines = 1, .want_code_syms = size & 1};
	if (symtab_read_elf(&tab, path, &eo) == 0) {
		symtab_finalize(&tab);
		if (eo.want_code_syms)
			symtab_add_lines(&tab, path);     /* -l, for odd-sized inputs */
		for (size_t i = 0; i < tab.len; i++)
			symtab_lookup(&tab, tab.base[i].addr);
		symtab_release(&tab);
	}
	return 0;
}
