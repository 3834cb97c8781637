/* libFuzzer target: the ELF symbol reader (libelf, the BFD-like classification, the
 * DWARF line lookups: dwinfo.c, linetab.c).  The input is written to a file first, since the
 * reader works on a path like the tool: one temporary file in $TMPDIR (default /tmp),
 * unlinked as soon as it is made and read through /proc/self/fd, so that nothing is
 * left behind however the run ends (a finding, a timeout, ^C).  Odd-sized inputs also
 * go through -l. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elfsym.h"
#include "error.h"
#include "symtab.h"

/* The path of the unlinked temporary file, or NULL. */
static const char *input_path(void)
{
	static char path[64];
	if (path[0])
		return path;
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	if (!dir || !*dir)
		dir = "/tmp";
	if ((size_t)snprintf(tmpl, sizeof tmpl, "%s/tgprof-fuzz-elf.XXXXXX", dir) >= sizeof tmpl)
		return NULL;
	int fd = mkstemp(tmpl);
	if (fd < 0)
		return NULL;
	unlink(tmpl);
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	return path;
}

static int write_input(const char *path, const unsigned char *data, size_t size)
{
	FILE *f = fopen(path, "wb");       /* truncates the unlinked file */
	if (!f)
		return -1;
	size_t n = fwrite(data, 1, size, f);
	return (fclose(f) | (n != size)) ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	quiet = 1;
	const char *path = input_path();
	if (!path || write_input(path, data, size)) {
		perror("fuzz-elf: the temporary file in $TMPDIR");
		exit(1);                    /* fuzzing nothing would look like success */
	}
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
