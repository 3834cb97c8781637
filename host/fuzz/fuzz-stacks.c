/* libFuzzer target: the gmon.stacks reader (header and node records, both byte orders and
 * widths as the input says), then what is made of a tree: the measured call graph over a
 * small fixed symbol table and profile, the folded stacks, the flame graph and speedscope
 * (to /dev/null).  The input goes to a temporary file, as the reader works on a path (the
 * ELF fuzzer's way: unlinked at once, read through /proc/self/fd). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analysis.h"
#include "cg_arcs.h"
#include "error.h"
#include "gmon_io.h"
#include "options.h"
#include "stacks.h"
#include "symtab.h"
#include "fixed-analysis.h"

static const char *input_path(void)
{
	static char path[64];
	if (path[0])
		return path;
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	if (!dir || !*dir)
		dir = "/tmp";
	if ((size_t)snprintf(tmpl, sizeof tmpl, "%s/tgprof-fuzz-stacks.XXXXXX", dir) >= sizeof tmpl)
		return NULL;
	int fd = mkstemp(tmpl);
	if (fd < 0)
		return NULL;
	unlink(tmpl);
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	return path;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	quiet = 1;
	const char *path = input_path();
	FILE *f = path ? fopen(path, "wb") : NULL;
	if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
		perror("fuzz-stacks: the temporary file in $TMPDIR");
		exit(1);                    /* fuzzing nothing would look like success */
	}
	struct stacks st;
	if (stacks_read(&st, path) == 0) {
		struct symtab tab;
		struct profile p;
		struct options o;
		struct analysis a;
		fixed_analysis(&tab, &p, &a, &o);
		a.stacks = &st;           /* cg_assemble measures the call graph with it */
		if (cg_build(&a) == 0)
			cg_assemble(&a);
		stacks_write_folded(&st, &a, "/dev/null");
		stacks_write_flame(&st, &a, "/dev/null");
		stacks_write_speedscope(&st, &a, "/dev/null");
		fixed_analysis_release(&tab, &p, &a);
	}
	stacks_release(&st);
	return 0;
}
