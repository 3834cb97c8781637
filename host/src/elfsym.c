/* Function symbols of an ELF file, read through libelf and selected the way GNU gprof
 * (through BFD) selects them: class 'T' (global or weak text) and 't' (static text,
 * with gprof's name filter), Thumb bit cleared on ARM. */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <gelf.h>
#include "clones.h"
#include "elfsym.h"
#include "error.h"
#include "srcinfo.h"
#include "symtab.h"

struct secinfo {
	uint64_t addr, size;
	const char *name;
	int code, data, has_contents, readonly, debugging, alloc;
};

/* BFD's decode_section_type, after its table of well-known section names. */
static char section_class(const struct secinfo *s)
{
	static const struct { const char *name; char c; } known[] = {
		{".bss", 'b'}, {".code", 't'}, {".data", 'd'}, {"*DEBUG*", 'N'},
		{".debug", 'N'}, {".drectve", 'i'}, {".edata", 'e'}, {".fini", 't'},
		{".idata", 'i'}, {".init", 't'}, {".pdata", 'p'}, {".rdata", 'r'},
		{".rodata", 'r'}, {".sbss", 's'}, {".scommon", 'c'}, {".sdata", 'g'},
		{".text", 't'}, {"vars", 'd'}, {"zerovars", 'b'},
	};
	if (s->name)
		for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
			if (!strncmp(s->name, known[i].name, strlen(known[i].name)) &&
			    memchr(".$0123456789", s->name[strlen(known[i].name)], 13))
				return known[i].c;
	if (s->code)
		return 't';
	if (s->data)
		return s->readonly ? 'r' : 'd';
	if (!s->has_contents)
		return 'b';
	if (s->debugging)
		return 'N';
	if (s->has_contents && s->readonly)
		return 'n';
	return '?';
}

/* gprof's filter on static names: no '$', and after a '.' only digits (".NNN"), with
 * ".clone." and ".constprop." allowed.  gprof's loop steps past the terminating NUL
 * after such a suffix and goes on scanning the next string of the string table; that
 * is reproduced here, bounded by the end of the table. */
static int static_name_ok(const char *name, const char *end)
{
	const char *p;
	for (p = name; p < end && *p; ++p) {
		if (*p == '$')
			return 0;
		while (p < end && *p == '.') {
			int digit_seen = 0;
			size_t left = strnlen(p, end - p);
			if (left > 7 && !strncmp(p, ".clone.", 7))
				p += 6;
			else if (left > 11 && !strncmp(p, ".constprop.", 11))
				p += 10;
			for (p++; p < end && *p; p++) {
				if (digit_seen && *p == '.')
					break;
				else if (isdigit((unsigned char)*p))
					digit_seen = 1;
				else
					return 0;
			}
		}
		if (p >= end)
			break;
	}
	return 1;
}

/* BFD's maybe_function_sym, generic and ARM: which .text symbols may name a function. */
static void keep_code_sym(struct symtab *tab, const GElf_Sym *sym, const char *name, int machine,
			  size_t *cap)
{
	int type = GELF_ST_TYPE(sym->st_info), bind = GELF_ST_BIND(sym->st_info);
	uint64_t size = sym->st_size, value = sym->st_value;
	if (type == STT_SECTION || type == STT_FILE || type == STT_OBJECT || type == STT_TLS ||
	    type == STT_COMMON)
		return;
	if (machine == EM_ARM) {
		if (type != STT_NOTYPE && type != STT_FUNC && type != STT_GNU_IFUNC && type != 13)
			return;
		if (bind == STB_LOCAL && name[0] == '$' && strchr("atdx", name[1]) && name[1] &&
		    (name[2] == 0 || name[2] == '.'))
			return;               /* mapping symbols */
		if (type == STT_FUNC || type == STT_GNU_IFUNC || type == 13)
			value &= ~(uint64_t)1;
	} else if (size == 0 && bind == STB_LOCAL && type == STT_NOTYPE &&
		   GELF_ST_VISIBILITY(sym->st_other) == STV_HIDDEN) {
		return;
	}
	if (tab->ncode == *cap) {
		*cap = *cap ? 2 * *cap : 1024;
		tab->code = xrealloc(tab->code, *cap * sizeof *tab->code);
	}
	tab->code[tab->ncode++] = (struct code_sym){value, size ? size : 1, name,
						     type == STT_FUNC || type == STT_GNU_IFUNC,
						     bind == STB_GLOBAL};
}

static int is_debug_name(const char *n)
{
	return !strncmp(n, ".debug", 6) || !strncmp(n, ".gnu.linkonce.wi.", 17) ||
	       !strncmp(n, ".zdebug", 7) || !strncmp(n, ".stab", 5) || !strcmp(n, ".line");
}

/* A section whose contents (by sh_offset and sh_size) do not all lie in the file. */
static int past_eof(const GElf_Shdr *sh, uint64_t fsize)
{
	return sh->sh_type != SHT_NOBITS &&
	       (sh->sh_offset > fsize || sh->sh_size > fsize - sh->sh_offset);
}

/* The ELF header's fields BFD rejects a file for ("not in executable format"), checked
 * before libelf trusts them: the section header entry size must be the class's, which
 * also catches an EI_CLASS byte that lies (a 64-bit file marked 32-bit or the reverse);
 * and the section header table must lie in the file. */
static int check_ehdr(Elf *e, const GElf_Ehdr *eh, const unsigned char *raw, const char *path,
		      uint64_t fsize)
{
	int is64 = eh->e_ident[EI_CLASS] == ELFCLASS64;
	size_t want = gelf_fsize(e, ELF_T_SHDR, 1, EV_CURRENT);
	size_t at = is64 ? offsetof(Elf64_Ehdr, e_shentsize) : offsetof(Elf32_Ehdr, e_shentsize);
	if (eh->e_shoff && eh->e_shentsize != want) {
		/* the other class's e_shentsize, in the file's byte order */
		size_t oat = is64 ? offsetof(Elf32_Ehdr, e_shentsize) : offsetof(Elf64_Ehdr, e_shentsize);
		unsigned other = raw[EI_DATA] == ELFDATA2MSB ? raw[oat] << 8 | raw[oat + 1]
							     : raw[oat] | raw[oat + 1] << 8;
		if (other == (is64 ? sizeof(Elf32_Shdr) : sizeof(Elf64_Shdr)))
			return error("%s: offset %u: EI_CLASS says %d-bit, but the header is a "
				     "%d-bit one (e_shentsize %u at offset %zu): not in executable "
				     "format", path, EI_CLASS, is64 ? 64 : 32, is64 ? 32 : 64, other,
				     oat);
		return error("%s: offset %zu: section header size (e_shentsize) %u, not %zu for "
			     "a %d-bit ELF file (or EI_CLASS at offset %u is wrong): not in "
			     "executable format", path, at, eh->e_shentsize, want, is64 ? 64 : 32,
			     EI_CLASS);
	}
	/* The section header table (e_shnum 0 with e_shoff set: the count is in entry 0). */
	if (eh->e_shoff) {
		uint64_t n = eh->e_shnum ? eh->e_shnum : 1;
		if (eh->e_shoff > fsize || n * eh->e_shentsize > fsize - eh->e_shoff)
			return error("%s: offset %llu: section header table (%llu x %u bytes) runs "
				     "past the end of the file (%llu bytes)", path,
				     (unsigned long long)eh->e_shoff, (unsigned long long)n,
				     eh->e_shentsize, (unsigned long long)fsize);
	}
	return 0;
}

/* BFD ignores a section name table index that is out of range or not a string table
 * ("corrupt string table index"), and then finds no .text: an error at e_shstrndx (or at
 * section 0's sh_link, where a large index is kept). */
static int check_shstrndx(Elf *e, const GElf_Ehdr *eh, const char *path, size_t shnum,
			  size_t shstrndx)
{
	int is64 = eh->e_ident[EI_CLASS] == ELFCLASS64;
	uint64_t at = is64 ? offsetof(Elf64_Ehdr, e_shstrndx) : offsetof(Elf32_Ehdr, e_shstrndx);
	if (eh->e_shstrndx == SHN_XINDEX)
		at = eh->e_shoff + (is64 ? offsetof(Elf64_Shdr, sh_link)
				   : offsetof(Elf32_Shdr, sh_link));
	GElf_Shdr sh;
	Elf_Scn *scn = shstrndx && shstrndx < shnum ? elf_getscn(e, shstrndx) : NULL;
	if (shstrndx && (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB))
		return error("%s: offset %llu: section name table index %zu is %s: can't find "
			     ".text section", path, (unsigned long long)at, shstrndx,
			     shstrndx >= shnum ? "past the section headers" : "not a string table");
	return 0;
}

/* BFD rejects a symbol table whose entry size is not the format's. */
static int check_symtab_entsize(Elf *e, const GElf_Ehdr *eh, const char *path, size_t i,
				const GElf_Shdr *sh)
{
	int is64 = eh->e_ident[EI_CLASS] == ELFCLASS64;
	size_t want = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
	if ((sh->sh_type != SHT_SYMTAB && sh->sh_type != SHT_DYNSYM) || sh->sh_entsize == want)
		return 0;
	uint64_t at = eh->e_shoff + i * eh->e_shentsize +
		      (is64 ? offsetof(Elf64_Shdr, sh_entsize) : offsetof(Elf32_Shdr, sh_entsize));
	return error("%s: offset %llu: %s entry size (sh_entsize) %llu, not %zu: not in "
		     "executable format", path, (unsigned long long)at,
		     sh->sh_type == SHT_SYMTAB ? "symbol table" : "dynamic symbol table",
		     (unsigned long long)sh->sh_entsize, want);
}

/* The state of one symtab_read_elf: the file, its headers and the tables found. */
struct elf_reader {
	struct symtab *tab;
	const char *path;
	const struct elf_opts *o;
	int fd;
	uint64_t fsize;
	unsigned char ident[sizeof(Elf64_Ehdr)];   /* the raw header */
	Elf *e;
	GElf_Ehdr eh;
	size_t shnum, shstrndx;
	struct secinfo *secs;      /* by section index */
	Elf_Scn *symscn, *textscn;
	GElf_Shdr symsh;
	Elf_Data *symdata, *strdata, *xdata;
	char *strings;             /* a private NUL-terminated copy of the string table */
	const char *strend;
	struct srcinfo *si;
};

/* The raw ELF identification, checked before libelf trusts the file's sizes. */
static int elf_check_ident(struct elf_reader *r)
{
	const char *path = r->path;
	const unsigned char *ident = r->ident;
	struct stat st;
	if (fstat(r->fd, &st))
		return error_errno("%s", path);
	if (!S_ISREG(st.st_mode))
		return error("%s: not a regular file", path);
	r->fsize = (uint64_t)st.st_size;
	ssize_t got = pread(r->fd, r->ident, sizeof r->ident, 0);
	if (got < 0)
		return error_errno("%s", path);
	if (got == 0)
		return error("%s: offset 0: empty file, not in executable format", path);
	if (memcmp(ident, ELFMAG, (size_t)got < SELFMAG ? (size_t)got : SELFMAG))
		return error("%s: offset 0: not in executable format (no ELF magic)", path);
	if (got > EI_CLASS && ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64)
		return error("%s: offset %d: bad ELF class %u (EI_CLASS, 1 or 2): not in "
			     "executable format", path, EI_CLASS, ident[EI_CLASS]);
	if (got > EI_DATA && ident[EI_DATA] != ELFDATA2LSB && ident[EI_DATA] != ELFDATA2MSB)
		return error("%s: offset %d: bad ELF byte order %u (EI_DATA, 1 or 2): not in "
			     "executable format", path, EI_DATA, ident[EI_DATA]);
	uint64_t ehsize = ident[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if (r->fsize < ehsize)
		return error("%s: offset 0: file too short for an ELF header (%llu of %llu bytes)",
			     path, (unsigned long long)r->fsize, (unsigned long long)ehsize);
	return 0;
}

/* The ELF header and the section header table's place and count. */
static int elf_read_headers(struct elf_reader *r)
{
	const char *path = r->path;
	if (elf_check_ident(r))
		return -1;
	r->e = elf_begin(r->fd, ELF_C_READ, NULL);
	if (!r->e || elf_kind(r->e) != ELF_K_ELF)
		return error("%s: offset 0: not in executable format (not an ELF file)", path);
	if (!gelf_getehdr(r->e, &r->eh))
		return error("%s: offset 0: bad ELF header: %s", path, elf_errmsg(-1));
	if (check_ehdr(r->e, &r->eh, r->ident, path, r->fsize))
		return -1;
	r->tab->is64 = r->eh.e_ident[EI_CLASS] == ELFCLASS64;
	r->tab->big_endian = r->eh.e_ident[EI_DATA] == ELFDATA2MSB;
	r->tab->machine = r->eh.e_machine;
	if (elf_getshdrnum(r->e, &r->shnum) || elf_getshdrstrndx(r->e, &r->shstrndx))
		return error("%s: offset %llu: bad section headers: %s", path,
			     (unsigned long long)r->eh.e_shoff, elf_errmsg(-1));
	return check_shstrndx(r->e, &r->eh, path, r->shnum, r->shstrndx);
}

/* The first .text: its range and, for -c, its contents. */
static void elf_note_text(struct elf_reader *r, Elf_Scn *scn, const GElf_Shdr *sh)
{
	struct symtab *tab = r->tab;
	r->textscn = scn;
	if (r->o->want_text && sh->sh_type != SHT_NOBITS && past_eof(sh, r->fsize)) {
		/* gprof: "can't do -c", and it goes on without */
		warning("%s: offset %llu: .text (%llu bytes) runs past the end of the file "
			"(%llu bytes): no -c", r->path, (unsigned long long)sh->sh_offset,
			(unsigned long long)sh->sh_size, (unsigned long long)r->fsize);
	} else if (r->o->want_text && sh->sh_type != SHT_NOBITS) {
		Elf_Data *d = elf_getdata(scn, NULL);
		if (d && d->d_buf && d->d_size) {
			tab->text = xmalloc(d->d_size);
			memcpy(tab->text, d->d_buf, d->d_size);
			tab->text_size = d->d_size;
		}
	}
	tab->text_start = sh->sh_addr;
	tab->text_end = sh->sh_addr + sh->sh_size;
	tab->text_offset = sh->sh_offset;
	tab->text_past_eof = sh->sh_type != SHT_NOBITS && past_eof(sh, r->fsize);
}

/* Every section's BFD flags (for section_class), the first .text and .symtab. */
static int elf_scan_sections(struct elf_reader *r)
{
	r->secs = xcalloc(r->shnum + 1, sizeof *r->secs);
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(r->e, scn));) {
		GElf_Shdr sh;
		size_t i = elf_ndxscn(scn);
		if (i >= r->shnum || !gelf_getshdr(scn, &sh))
			continue;
		if (check_symtab_entsize(r->e, &r->eh, r->path, i, &sh))
			return -1;
		struct secinfo *s = &r->secs[i];
		s->name = elf_strptr(r->e, r->shstrndx, sh.sh_name);
		s->addr = sh.sh_addr;
		s->size = sh.sh_size;
		s->has_contents = sh.sh_type != SHT_NOBITS;
		s->alloc = !!(sh.sh_flags & SHF_ALLOC);
		s->readonly = !(sh.sh_flags & SHF_WRITE);
		s->code = !!(sh.sh_flags & SHF_EXECINSTR);
		s->data = !s->code && s->alloc && s->has_contents;
		s->debugging = s->name && is_debug_name(s->name);
		if (s->name && !strcmp(s->name, ".text") && !r->textscn)
			elf_note_text(r, scn, &sh);
		if (sh.sh_type == SHT_SYMTAB && !r->symscn) {
			r->symscn = scn;
			r->symsh = sh;
		}
	}
	if (!r->textscn)
		return error("%s: can't find .text section", r->path);
	if (!r->symscn)
		return error("%s: has no symbols (no .symtab section)", r->path);
	return 0;
}

/* The symbol table's data, a copy of its string table, its SHT_SYMTAB_SHNDX if any. */
static int elf_load_symtab(struct elf_reader *r)
{
	const GElf_Shdr *symsh = &r->symsh;
	Elf_Scn *strscn = elf_getscn(r->e, symsh->sh_link);
	GElf_Shdr strsh;
	if (past_eof(symsh, r->fsize) ||
	    (strscn && gelf_getshdr(strscn, &strsh) && past_eof(&strsh, r->fsize))) {
		const GElf_Shdr *bad = past_eof(symsh, r->fsize) ? symsh : &strsh;
		return error("%s: offset %llu: %s (%llu bytes) runs past the end of the file "
			     "(%llu bytes)", r->path, (unsigned long long)bad->sh_offset,
			     bad == symsh ? "symbol table" : "string table",
			     (unsigned long long)bad->sh_size, (unsigned long long)r->fsize);
	}
	r->symdata = elf_getdata(r->symscn, NULL);
	r->strdata = strscn ? elf_getdata(strscn, NULL) : NULL;
	if (!r->symdata || !r->strdata || !r->strdata->d_buf)
		return error("%s: offset %llu: unreadable symbol or string table: %s", r->path,
			     (unsigned long long)symsh->sh_offset, elf_errmsg(-1));
	size_t size = r->strdata->d_size;
	r->strings = xmalloc(size + 1);
	memcpy(r->strings, r->strdata->d_buf, size);
	r->strings[size] = 0;
	r->strend = r->strings + size;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(r->e, scn));) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB_SHNDX &&
		    sh.sh_link == elf_ndxscn(r->symscn))
			r->xdata = elf_getdata(scn, NULL);
	}
	return 0;
}

/* gprof's class of a symbol as nm would print it: 'T' (global or weak text), 't'
 * (static text that passes gprof's name filter), or 0 for a symbol gprof skips. */
static char elf_classify(struct elf_reader *r, const GElf_Sym *sym, size_t shndx,
			 const struct secinfo **secp)
{
	int type = GELF_ST_TYPE(sym->st_info), bind = GELF_ST_BIND(sym->st_info);
	const struct secinfo *sec = NULL;
	*secp = NULL;
	if (r->o->ignore_static && bind == STB_LOCAL)
		return 0;
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_COMMON)
		return 0;                            /* 'U', 'w', 'C' */
	if (type == STT_GNU_IFUNC)
		return 0;                            /* 'i': BFD's class for ifunc resolvers */
	int is_abs = sym->st_shndx == SHN_ABS || shndx >= r->shnum;
	if (!is_abs)
		sec = *secp = &r->secs[shndx];
	char cls;
	if (bind == STB_WEAK) {
		if (type == STT_OBJECT)
			return 0;                    /* 'V' */
		cls = 'T';                           /* 'W' counts as global text */
	} else if (bind != STB_LOCAL && bind != STB_GLOBAL) {
		return 0;                            /* STB_GNU_UNIQUE and others */
	} else {
		if ((is_abs ? 'a' : section_class(sec)) != 't')
			return 0;
		cls = bind == STB_GLOBAL ? 'T' : 't';
	}
	if (cls == 't') {
		const char *name = r->strings + sym->st_name;
		if (!*name)
			return 0;
		if (!static_name_ok(name, r->strend)) {
			if (!clone_name(name))
				return 0;
			r->tab->clones_left_out = 1;
			if (!r->o->keep_clones)
				return 0;
			cls = 'c';       /* a clone, kept as a static function */
		}
		if (!strncmp(name, "__gnu_compiled", 14) || !strncmp(name, "___gnu_compiled", 15))
			return 0;
		if (r->o->ignore_non_functions && type != STT_FUNC && type != STT_GNU_IFUNC)
			return 0;
	}
	return cls;
}

/* Fill symbol S (the N-th kept) from ELF symbol SYM of class CLS in section SEC. */
static void elf_fill_sym(struct elf_reader *r, struct sym *s, size_t n, const GElf_Sym *sym,
			 char cls, const struct secinfo *sec)
{
	int type = GELF_ST_TYPE(sym->st_info);
	memset(s, 0, sizeof *s);
	uint64_t v = sym->st_value;
	if (r->eh.e_machine == EM_ARM && (type == STT_FUNC || type == STT_GNU_IFUNC))
		v &= ~(uint64_t)1;
	if (r->eh.e_type == ET_REL && sec)
		v += sec->addr;
	if (!r->tab->is64)
		v &= 0xffffffffu;
	s->addr = v;
	s->name = r->strings + sym->st_name;
	s->is_static = cls == 't' || cls == 'c';
	s->clone = cls == 'c';
	s->is_func = type == STT_FUNC || type == STT_GNU_IFUNC;
	s->order = n;
	const char *f;
	int line;
	if (r->si && srcinfo_lookup(r->si, v, &f, &line, NULL)) {
		s->file = xstrdup(f);
		s->owns_file = 1;
		symtab_note_file(r->tab, f);
		s->line = line;
	}
}

/* Walk the symbol table: the .text symbols for -l, the function symbols gprof keeps. */
static int elf_read_symbols(struct elf_reader *r)
{
	struct symtab *tab = r->tab;
	/* The entry size is the format's (check_symtab_entsize rejected any other sh_entsize). */
	size_t entsize = gelf_fsize(r->e, ELF_T_SYM, 1, EV_CURRENT);
	size_t nsyms = entsize ? r->symdata->d_size / entsize : 0;
	size_t n = 0, cap = 0, ncode_cap = 0;
	size_t textndx = elf_ndxscn(r->textscn);
	for (size_t i = 1; i < nsyms; i++) {
		GElf_Sym sym;
		GElf_Word xndx = 0;
		if (!gelf_getsymshndx(r->symdata, r->xdata, (int)i, &sym, &xndx))
			continue;
		int type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_SECTION || type == STT_FILE)
			continue;                    /* BSF_DEBUGGING */
		if (sym.st_name >= r->strdata->d_size)
			continue;
		size_t shndx = sym.st_shndx == SHN_XINDEX ? xndx : sym.st_shndx;
		if (r->o->want_code_syms && shndx == textndx && sym.st_shndx != SHN_ABS &&
		    sym.st_shndx != SHN_COMMON)
			keep_code_sym(tab, &sym, r->strings + sym.st_name, r->eh.e_machine,
				      &ncode_cap);
		const struct secinfo *sec;
		char cls = elf_classify(r, &sym, shndx, &sec);
		if (!cls)
			continue;
		if (n + 1 >= cap) {
			cap = cap ? 2 * cap : 1024;
			tab->base = xrealloc(tab->base, cap * sizeof *tab->base);
		}
		elf_fill_sym(r, &tab->base[n], n, &sym, cls, sec);
		n++;
	}
	if (n == 0)
		return error("%s: file has no symbols", r->path);
	tab->len = tab->alloc_len = n;
	return 0;
}

int symtab_read_elf(struct symtab *tab, const char *path, const struct elf_opts *o)
{
	struct elf_reader r = {.tab = tab, .path = path, .o = o};
	memset(tab, 0, sizeof *tab);
	if (elf_version(EV_CURRENT) == EV_NONE)
		return error("libelf: %s", elf_errmsg(-1));
	r.fd = open(path, O_RDONLY);
	if (r.fd < 0)
		return error_errno("%s", path);
	int rc = -1;
	if (!elf_read_headers(&r) && !elf_scan_sections(&r) && !elf_load_symtab(&r)) {
		if (o->want_lines)
			r.si = srcinfo_open(r.fd);
		rc = elf_read_symbols(&r);
	}
	if (!rc) {
		tab->strings_keep = r.strings;
		r.strings = NULL;
	}
	if (!rc)
		srcinfo_report(r.si, path);
	if (!rc && o->want_code_syms && r.si && (tab->dwarf_fd = dup(r.fd)) >= 0) {
		tab->si = r.si;         /* -l asks on */
		r.si = NULL;
	}
	if (r.si)               /* (the paths noted were its strings) */
		symtab_forget_noted(tab);
	srcinfo_close(r.si);
	free(r.strings);
	free(r.secs);
	if (r.e)
		elf_end(r.e);
	close(r.fd);
	if (rc)
		symtab_release(tab);
	return rc;
}
