/* symspec.c: gprof's symbol specifications (FUNCTION, FILE, LINE, FILE:FUNCTION,
 * FILE:LINE, FROM/TO) and the symbols and arcs they select. */
#ifndef TGPROF_SYMSPEC_H
#define TGPROF_SYMSPEC_H

struct options;
struct sym;
struct symtab;

int symspec_add(struct options *o, const char *spec, int table);
void symspec_apply(struct options *o, struct symtab *tab);
int symspec_arc_selected(const struct options *o, const struct sym *parent,
			 const struct sym *child, int table);
unsigned symspec_table_len(const struct options *o, int table);
void symspec_release(struct options *o);

#endif
