/* GCC's clones as functions of their own.  A clone is a function GCC made from another:
 * the rest of a partly inlined one (.part.N), one with its arguments rewritten
 * (.isra.N), with a constant argument propagated (.constprop.N), its cold blocks
 * (.cold), a static renamed by LTO (.lto_priv.N).  Most have their own mcount call.
 * GNU gprof keeps a static name only if every '.' is followed by digits (".constprop."
 * and ".clone." allowed, and its check runs on into the next name of the string table),
 * so it charges most clones' samples and calls to whatever symbol precedes them: "the
 * idle task called from the tick handler".  The gprof-compatible reports keep that; the
 * view made here keeps every clone, for --clones=own and for tgprof's own files. */
#include <stdlib.h>
#include <string.h>
#include "cg_arcs.h"
#include "clones.h"
#include "elfsym.h"
#include "error.h"
#include "gmon_io.h"
#include "hist.h"
#include "order.h"
#include "symspec.h"

/* Does S start with ".WORD" and, for a WORD that takes one, ".DIGITS"?  Its length, or 0. */
static size_t clone_suffix(const char *s)
{
	static const struct { const char *word; int number; } known[] = {
		{".part.", 1}, {".isra.", 1}, {".constprop.", 1}, {".lto_priv.", 1},
		{".clone.", 1}, {".cold", 0},
	};
	for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
		size_t n = strlen(known[k].word);
		if (strncmp(s, known[k].word, n))
			continue;
		if (!known[k].number)
			return n;
		size_t d = strspn(s + n, "0123456789");
		return d ? n + d : 0;
	}
	return 0;
}

/* A name GCC gives a clone: a function's name, then one or more clone suffixes, each
 * perhaps followed by ".DIGITS" (foo.isra.0.cold, foo.cold.12). */
int clone_name(const char *name)
{
	const char *dot = strchr(name, '.');
	int seen = 0;
	if (!dot || dot == name)
		return 0;
	for (const char *p = dot; *p;) {
		size_t n = clone_suffix(p), d;
		if (n) {
			seen = 1;
			p += n;
		} else if (p[0] == '.' && (d = strspn(p + 1, "0123456789")) > 0) {
			p += 1 + d;
		} else {
			return 0;
		}
	}
	return seen;
}

/* The file and line of each symbol from the gprof table's symbol at its address (the
 * view's symbols are read without DWARF; a clone has none). */
static void copy_sources(struct symtab *tab, const struct symtab *from)
{
	for (size_t i = 0; i < tab->len; i++) {
		struct sym *s = &tab->base[i];
		const struct sym *f = symtab_lookup(from, s->addr);
		if (f && f->addr == s->addr && f->file) {
			s->file = xstrdup(f->file);
			s->owns_file = 1;
			s->line = f->line;
		}
	}
}

static size_t count_clones(const struct symtab *tab)
{
	size_t n = 0;
	for (size_t i = 0; i < tab->len; i++)
		n += tab->base[i].clone;
	return n;
}

/* The analysis of BASE's profile over ELF's symbols with the clones kept (v->active), or
 * nothing when it has none that gprof leaves out (v->active 0: BASE is the same): each
 * symbol's samples and calls, and the arcs; the call graph (cycles, propagated times)
 * only with ASSEMBLE, for the outputs that print it.  Its warnings are BASE's: not said
 * twice. */
int clones_view_build(struct clones_view *v, const struct analysis *base, const char *elf,
		      const struct elf_opts *eo, int assemble)
{
	struct elf_opts keep = *eo;
	memset(v, 0, sizeof *v);
	if (!base->tab->clones_left_out)
		return 0;       /* the ELF's symbols read again would be the same */
	keep.keep_clones = 1;
	keep.want_lines = keep.want_code_syms = 0;
	int was_quiet = quiet, rc = -1;
	quiet = 1;
	if (symtab_read_elf(&v->tab, elf, &keep))
		goto out;
	symtab_finalize(&v->tab);
	rc = 0;
	if (!count_clones(&v->tab))
		goto out;
	copy_sources(&v->tab, base->tab);
	v->o = *base->opt;
	memset(v->o.table_len, 0, sizeof v->o.table_len);
	memset(v->o.arc_tab, 0, sizeof v->o.arc_tab);
	memset(v->o.arc_tab_len, 0, sizeof v->o.arc_tab_len);
	symspec_apply(&v->o, &v->tab);
	v->a = (struct analysis){.tab = &v->tab, .prof = base->prof, .opt = &v->o,
				 .tscale = base->tscale, .tunit = base->tunit,
				 .stacks = base->stacks, .tasks = base->tasks,
				 .chosen_tasks = base->chosen_tasks};
	v->active = 1;
	if ((rc = cg_build(&v->a)))
		goto out;
	if (base->prof->input_hist)
		hist_assign(&v->a);
	if (assemble && base->prof->input_cg)
		cg_assemble(&v->a);
out:
	quiet = was_quiet;
	return rc;
}

/* Once per run, when gprof's rules gave some clone's samples or calls to another
 * function: how many, and the option that does not. */
void clones_warn(const struct clones_view *v)
{
	if (!v->active)
		return;
	double samples = 0;
	unsigned long calls = 0;
	size_t hit = 0;
	const struct sym *first = NULL;
	for (size_t i = 0; i < v->tab.len; i++) {
		const struct sym *s = &v->tab.base[i];
		unsigned long made = 0;
		for (const struct arc *arc = s->children; arc; arc = arc->next_child)
			made += arc->count;
		if (!s->clone || (s->time == 0 && s->ncalls == 0 && made == 0))
			continue;
		samples += s->time;
		calls += s->ncalls + made;
		if (!hit++)
			first = s;
	}
	if (hit)
		warning("%.0f samples and %lu calls (to them or made by them) fell into %zu GCC "
			"clone%s (%s%s) that gprof's rules charge to the function before each: so "
			"do the flat profile and call graph; --clones=own charges each clone to "
			"itself there too (tgprof's files, as --json and --folded, always do)",
			samples, calls, hit, hit == 1 ? "" : "s", first->name,
			hit > 1 ? ", ..." : "");
}

void clones_view_release(struct clones_view *v)
{
	order_release(&v->a);
	free(v->a.cg_sorted);
	free(v->a.cycles);
	free(v->a.arcs);
	for (int t = 0; t < 2; t++)
		free(v->o.arc_tab[t]);
	symtab_release(&v->tab);
	memset(v, 0, sizeof *v);
}
