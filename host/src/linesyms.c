/* -l: symbols for source lines, made as gprof's core_create_line_syms makes them.  Every
 * address of .text is looked up; where the (line, function, file) triple changes a line
 * symbol begins, named after the DWARF function, static if its function is.  Function
 * symbols then join them and the table is finalized again (at one address the function
 * symbol wins). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "error.h"
#include "msort.h"
#include "srcinfo.h"
#include "symtab.h"

static int same_str(const char *a, const char *b)
{
	return a == b || !strcmp(a, b);
}

/* ---- the name BFD's _bfd_elf_find_function gives an address ------------------------ */
struct code_index {
	const struct code_sym **v; /* by value, then symbol table order */
	size_t n;
};

static int cmp_code(const void *l, const void *r, void *ctx)
{
	const struct code_sym *a = l, *b = r;
	(void)ctx;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* BFD's better_fit, for two symbols at the same address. */
static int better_fit(const struct code_sym *best, const struct code_sym *s, uint64_t off)
{
	if (!best)
		return 1;
	if (best->value + best->size <= off)
		return s->size > best->size;
	if (s->value + s->size > off) {
		if (best->is_function && !s->is_function)
			return 0;
		if (s->is_function && !best->is_function)
			return 1;
		if (best->is_global && !s->is_global)
			return 0;
		if (s->is_global && !best->is_global)
			return 1;
	}
	return s->size > best->size;
}

static const char *code_name(const struct code_index *ci, uint64_t addr)
{
	size_t lo = 0, hi = ci->n;          /* first value > addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ci->v[mid]->value <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	uint64_t v = ci->v[lo - 1]->value;
	size_t first = lo - 1;
	while (first > 0 && ci->v[first - 1]->value == v)
		first--;
	const struct code_sym *best = NULL;
	for (size_t i = first; i < lo; i++)
		if (better_fit(best, ci->v[i], addr))
			best = ci->v[i];
	return best ? best->name : NULL;
}

/* symtab_lookup for addresses that only grow: the search goes on from *AT. */
static const struct sym *sym_onward(const struct symtab *tab, size_t *at, uint64_t vma)
{
	size_t i = *at;
	while (i + 1 < tab->len && tab->base[i + 1].addr <= vma)
		i++;
	*at = i;
	const struct sym *s = i < tab->len ? &tab->base[i] : NULL;
	return s && s->addr <= vma && vma <= s->end_addr ? s : NULL;
}

/* Line symbol S for FUNC at FILE:LINE, address VMA; P the line symbol before it, if any
 * (a line of the same function keeps its staticness, else its function symbol's: found
 * from *AT on). */
static void line_sym_fill(struct symtab *tab, struct line_sym *s, const struct line_sym *p,
			  const char *func, const char *file, int line, uint64_t vma, size_t *at)
{
	*s = (struct line_sym){vma, func, file, line, 0};
	if (!p || p->file != file)
		symtab_note_file(tab, file);
	if (p && same_str(s->file, p->file) && same_str(s->name, p->name)) {
		s->is_static = p->is_static;
	} else {
		const struct sym *f = sym_onward(tab, at, vma);
		if (f)
			s->is_static = f->is_static;
	}
}

/* Every address of .text: a line symbol where the function or line changes. */
static struct line_sym *walk_lines(struct symtab *tab, struct srcinfo *si,
				   const struct code_index *ci, size_t *np)
{
	struct line_sym *lines = NULL;
	size_t n = 0, cap = 0, at = 0;
	const char *func = NULL;
	/* (the addresses up to where the answer may change get the same line symbol: after
	 * one DWARF answers for, the walk goes on from there) */
	for (uint64_t vma = tab->text_start, next; si && vma < tab->text_end; vma = next) {
		const char *file;
		int line;
		uint64_t until;
		next = vma + 1;
		if (!srcinfo_lookup(si, vma, &file, &line, &until))
			continue;
		/* as BFD: the innermost DWARF function (inlined or not, by its linkage name
		 * if it has one), else the symbol table's function */
		int linkage = 0;
		func = srcinfo_function(si, &linkage);
		if (func)
			next = until;
		else if (!(func = code_name(ci, vma)))
			continue;
		struct line_sym *p = n ? &lines[n - 1] : NULL;
		if (p && p->line == line && same_str(p->name, func) && same_str(p->file, file))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			lines = xrealloc(lines, cap * sizeof *lines);
			p = n ? &lines[n - 1] : NULL;
		}
		line_sym_fill(tab, &lines[n], p, func, file, line, vma, &at);
		n++;
	}
	*np = n;
	return lines;
}

int symtab_add_lines(struct symtab *tab, const char *path)
{
	/* -l walks every address of .text: one whose contents the file does not hold would
	 * have it walk an address span the file only claims (time not linear in the file) */
	if (tab->text_past_eof)
		return error("%s: offset %llu: .text (%llu bytes) runs past the end of the file: "
			     "not walked line by line (-l)", path,
			     (unsigned long long)tab->text_offset,
			     (unsigned long long)(tab->text_end - tab->text_start));
	if (tab->text_end - tab->text_start > ((uint64_t)1 << 28))
		return error("%s: .text of %llu bytes is too large to walk line by line", path,
			     (unsigned long long)(tab->text_end - tab->text_start));
	struct code_index ci = {xmalloc((tab->ncode + 1) * sizeof *ci.v), tab->ncode};
	for (size_t i = 0; i < tab->ncode; i++)
		ci.v[i] = &tab->code[i];
	msort_ptrs((void **)ci.v, ci.n, cmp_code, NULL);
	if (!tab->si) {         /* (the symbols were read without DWARF at hand) */
		int fd = open(path, O_RDONLY);
		if (fd < 0)
			return free(ci.v), error_errno("%s", path);
		if ((tab->si = srcinfo_open(fd)))
			tab->dwarf_fd = fd;     /* kept: the line symbols' strings are its */
		else
			close(fd);
	}
	size_t n;
	struct line_sym *lines = walk_lines(tab, tab->si, &ci, &n);
	srcinfo_report(tab->si, path);
	free(ci.v);
	/* line symbols first, then the function symbols (which keep their ends, as in gprof),
	 * sorted again: a merge */
	symtab_add_lines_in_order(tab, lines, n);
	free(lines);
	return 0;
}
