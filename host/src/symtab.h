/* The symbol table: the functions (or, with -l, lines) a profile's addresses are charged
 * to, sorted by address (symtab.c), and the ways to read one: -S's nm-style listing
 * (extsyms.c), -l's line symbols (linesyms.c).  The ELF reader is elfsym.h. */
#ifndef TGPROF_SYMTAB_H
#define TGPROF_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct arc;
struct srcinfo;

/* -l: basic-block counts (gmon.out tag 2) of a line, gprof's bb_addr/bb_calls: the first
 * NBBS distinct addresses, an address of 0 marks the end. */
#define NBBS 10
struct bbcounts {
	uint64_t addr[NBBS];
	unsigned long calls[NBBS];
};

/* Three cache lines' worth, each pass over the table touching few of them: what every
 * report reads, then the call graph's links, then its times (and what is seldom read). */
struct sym {
	/* what the symbol is, its time and calls */
	uint64_t addr, end_addr;
	const char *name;          /* NULL for a cycle header */
	double time;               /* histogram time in ticks */
	unsigned long ncalls;
	uint64_t scaled_addr;
	int line;
	unsigned sel;              /* bit set of symspec tables that select this symbol */
	uint32_t order;            /* position in the raw symbol list (ties) */
	unsigned is_static : 1, is_func : 1, owns_name : 1;
	unsigned owns_file : 1;    /* FILE is this symbol's copy (else the DWARF reader's) */
	unsigned mapped : 1;       /* -R: named after its object file (mapfile.c) */
	unsigned clone : 1;        /* a GCC clone gprof leaves out, kept for --clones=own */
	unsigned print_flag : 1;   /* call graph: printed */
	unsigned dname_done : 1;   /* DNAME made */

	/* call graph: links, and depth-first numbering */
	struct arc *parents, *children;
	struct sym *cyc_head, *cyc_next;
	struct sym *uf_parent, *uf_tail;
	int top_order;
	int stack_pos;
	int cyc_num;
	int index;

	/* call graph: times; and what few reports read */
	double child_time;
	double prop_fract, prop_self, prop_child;
	unsigned long self_calls;
	const char *file;          /* source file from DWARF line info, or NULL */
	char *dname;               /* demangled name, once printed */
	struct bbcounts *bb;       /* -l: basic-block counts, or NULL */
};

/* A symbol BFD's _bfd_elf_find_function may name an address after (for -l). */
struct code_sym {
	uint64_t value, size;
	const char *name;
	unsigned is_function : 1, is_global : 1;
};

struct symtab {
	struct sym *base;
	size_t len;
	size_t alloc_len;          /* entries before duplicate removal (gprof reads one past) */
	uint64_t text_start, text_end; /* .text vma, vma + size */
	uint64_t text_offset;      /* .text's file offset, and its contents run past the end of */
	int text_past_eof;         /* the file (a broken file's claim): not walked by -l */
	int is64, big_endian, machine;
	char *strings_keep;        /* the string table the names point into */
	char **files;              /* source files in the order first met (gprof's list) */
	const char *noted[64];     /* paths symtab_note_file was given, by a hash of the */
	size_t noted_file[64];     /* pointer, and their entries in FILES (while the strings
				    * live: symtab_forget_noted when their owner goes) */
	size_t *file_slots;        /* FILES by a hash of the path: entry + 1, 0 empty */
	size_t file_slots_mask;
	size_t nfiles, files_cap;
	unsigned char *text;       /* -c: the contents of .text */
	size_t text_size;
	struct code_sym *code;     /* -l: .text symbols by value (stable), for function names */
	size_t ncode;
	struct srcinfo *si;        /* -l: the DWARF the symbols were looked up in, as they left
				    * it (BFD keeps its state for gprof's line symbols) */
	int dwarf_fd;                 /* its file */
	int clones_left_out;       /* the ELF has GCC clones gprof's filter leaves out */
};

/* A line symbol as -l's walk makes it (a struct sym is 192 bytes: only the final
 * table holds them). */
struct line_sym {
	uint64_t addr;
	const char *name, *file;   /* the DWARF reader's strings or the symbol table's */
	int line;
	unsigned is_static;
};

void symtab_finalize(struct symtab *tab);
/* LINES' N symbols (in address order) join the table (finalized), before its own where
 * they tie, and the table is finalized again. */
void symtab_add_lines_in_order(struct symtab *tab, const struct line_sym *lines, size_t n);
struct sym *symtab_lookup(const struct symtab *tab, uint64_t addr);
void symtab_release(struct symtab *tab);
void symtab_drop_syms(struct symtab *tab);
/* PATH (a string that lives until symtab_forget_noted) is a source file of the table. */
void symtab_note_file(struct symtab *tab, const char *path);
void symtab_forget_noted(struct symtab *tab);
/* linesyms.c: -l, one symbol per source line (after the function symbols). */
int symtab_add_lines(struct symtab *tab, const char *path);
/* extsyms.c: -S, symbols from an nm-style listing instead of the ELF's */
int symtab_read_listing(struct symtab *tab, const char *path);

#endif
