/* Symbol specifications (symspecs) of -p/-P/-q/-Q/-n/-N/-k, matched as gprof does:
 * "file:function", "file:line", "file" (has a dot), "line" (digits), "function". */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "tgprof.h"

static void parse_one(char *spec, char **file, char **name, int *line)
{
	*file = *name = NULL;
	*line = 0;
	char *colon = strrchr(spec, ':');
	if (colon) {
		*colon = 0;
		if (colon > spec)
			*file = spec;
		spec = colon + 1;
		if (*spec) {
			if (isdigit((unsigned char)spec[0]))
				*line = atoi(spec);
			else
				*name = spec;
		}
	} else if (*spec) {
		if (strchr(spec, '.'))
			*file = spec;
		else if (isdigit((unsigned char)*spec))
			*line = atoi(spec);
		else
			*name = spec;
	}
}

int symspec_add(struct options *o, const char *spec, int table)
{
	o->specs = xrealloc(o->specs, (o->nspecs + 1) * sizeof *o->specs);
	struct symspec *s = &o->specs[o->nspecs++];
	memset(s, 0, sizeof *s);
	s->table = table;
	char *copy = xstrdup(spec);
	char *slash = strchr(copy, '/');
	if (slash && (table == INCL_ARCS || table == EXCL_ARCS)) {
		*slash = 0;
		s->has_right = 1;
		parse_one(slash + 1, &s->rfile, &s->rname, &s->rline);
	}
	parse_one(copy, &s->file, &s->name, &s->line);
	s->owned = copy;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static int match(const char *file, const char *name, int line, const struct sym *sym)
{
	if (file && (!sym->file || strcmp(file, base_name(sym->file))))
		return 0;
	if (line && line != sym->line)
		return 0;
	if (name && (!sym->name || strcmp(name, sym->name)))
		return 0;
	return 1;
}

void symspec_apply(struct options *o, struct symtab *tab)
{
	for (size_t i = 0; i < tab->len; i++) {
		struct sym *sym = &tab->base[i];
		sym->sel = 0;
		for (size_t k = 0; k < o->nspecs; k++) {
			struct symspec *s = &o->specs[k];
			if (match(s->file, s->name, s->line, sym)) {
				sym->sel |= 1u << s->table;
				o->table_len[s->table]++;
			}
		}
	}
}

int symspec_arc_selected(const struct options *o, const struct sym *parent,
			 const struct sym *child, int table)
{
	for (size_t k = 0; k < o->nspecs; k++) {
		const struct symspec *s = &o->specs[k];
		if (s->table != table)
			continue;
		if (match(s->file, s->name, s->line, parent) &&
		    (!s->has_right || match(s->rfile, s->rname, s->rline, child)))
			return 1;
	}
	return 0;
}

unsigned symspec_table_len(const struct options *o, int table)
{
	return o->table_len[table];
}

void symspec_release(struct options *o)
{
	for (size_t k = 0; k < o->nspecs; k++)
		free(o->specs[k].owned);
	free(o->specs);
	o->specs = NULL;
	o->nspecs = 0;
}
