/* symspec.c: gprof's symbol specifications (FUNCTION, FILE, LINE, FILE:FUNCTION,
 * FILE:LINE, FROM/TO) and the symbols and arcs they select. */
#ifndef TGPROF_SYMSPEC_H
#define TGPROF_SYMSPEC_H

#include "options.h"
#include "symtab.h"

int symspec_add(struct options *o, const char *spec, int table);
void symspec_apply(struct options *o, struct symtab *tab);
int symspec_arc_selected(const struct options *o, const struct sym *parent,
			 const struct sym *child, int table);
unsigned symspec_table_len(const struct options *o, int table);
/* gprof's rule for a table pair (-p/-P, -q/-Q, -n/-N, -A, -C): S is selected if the
 * including table INCL names it, or if that table is empty and the excluding one, EXCL,
 * does not.  (Inline: asked of every symbol, and of every histogram bin's.) */
static inline int symspec_selects(const struct options *o, const struct sym *s, int incl,
				  int excl)
{
	return (s->sel >> incl & 1) || (o->table_len[incl] == 0 && !(s->sel >> excl & 1));
}

/* S is named by EXCL and not by INCL (what an inherited selection gives up). */
static inline int symspec_excludes(const struct sym *s, int incl, int excl)
{
	return !(s->sel >> incl & 1) && (s->sel >> excl & 1);
}
void symspec_release(struct options *o);

#endif
