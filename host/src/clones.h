/* clones.c: GCC's clones (NAME.part.N, .isra.N, .constprop.N, .cold, .lto_priv.N) as
 * functions of their own.  GNU gprof's symbol filter leaves most of them out, charging
 * their samples and calls to the symbol before them; tgprof's gprof-compatible reports
 * do the same, and a second analysis keeps them, for --clones=own and tgprof's files. */
#ifndef TGPROF_CLONES_H
#define TGPROF_CLONES_H

#include "analysis.h"
#include "options.h"
#include "symtab.h"

struct elf_opts;

enum { CLONES_DEFAULT, CLONES_FOLD, CLONES_OWN };   /* --clones= */

struct clones_view {
	struct symtab tab;         /* the ELF's symbols with the clones kept */
	struct options o;          /* the run's, with symspec tables of this tab */
	struct analysis a;
	int active;                /* the ELF has clones gprof leaves out: a is computed */
};

int clone_name(const char *name);
int clones_view_build(struct clones_view *v, const struct analysis *base, const char *elf,
		      const struct elf_opts *eo, int assemble);
void clones_warn(const struct clones_view *v);
void clones_view_release(struct clones_view *v);

#endif
