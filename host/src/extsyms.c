/* -S FILE: the symbol table from an nm-style listing ("address type name"), as gprof's
 * core_create_syms_from reads it: only types t and T, every one a function. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "symtab.h"

int symtab_read_listing(struct symtab *tab, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return error_errno("%s", path);
	char buf[1024], addr[1024], name[1024], type;
	size_t n = 0, cap = 0, lineno = 0;
	uint64_t text_end = tab->text_end;
	symtab_drop_syms(tab);
	while (fgets(buf, sizeof buf - 1, f)) {
		lineno++;
		if (sscanf(buf, "%1023s %c %1023s", addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T')
			continue;
		char *end;
		errno = 0;
		unsigned long long v = strtoull(addr, &end, 16);
		if (end == addr || errno)
			v = 0;             /* gprof's sscanf leaves it 0 */
		if (n + 1 >= cap) {
			cap = cap ? 2 * cap : 256;
			tab->base = xrealloc(tab->base, cap * sizeof *tab->base);
		}
		struct sym *s = &tab->base[n];
		memset(s, 0, sizeof *s);
		s->addr = v;
		s->name = xstrdup(name);
		s->owns_name = 1;
		s->is_func = 1;
		s->is_static = type == 't';
		s->order = n++;
	}
	fclose(f);
	if (n == 0) {
		tab->len = 0;
		return error("%s: file has no symbols", path);
	}
	tab->len = tab->alloc_len = n;
	tab->text_end = text_end;
	return 0;
}
