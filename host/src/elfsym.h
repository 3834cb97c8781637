/* elfsym.c: read the function symbols of an ELF file through libelf, as gprof selects
 * them. */
#ifndef TGPROF_ELFSYM_H
#define TGPROF_ELFSYM_H

struct symtab;

struct elf_opts {
	int ignore_static;         /* -a */
	int ignore_non_functions;  /* -D */
	int want_lines;            /* look up file/line in the DWARF (srcinfo.c) */
	int want_code_syms;        /* -l: keep the .text symbols BFD names functions after */
	int want_text;             /* -c: keep the contents of .text */
	int keep_clones;           /* keep the GCC clones gprof's filter leaves out */
};
int symtab_read_elf(struct symtab *tab, const char *path, const struct elf_opts *o);

#endif
