/* A unit's DWARF line-number table as BFD (2.40, for gprof) decodes and searches it,
 * from .debug_line itself rather than through libdw, whose merged, address-sorted rows
 * cannot tell which sequence a row belongs to.  That matters for code removed by
 * --gc-sections: its rows stay in the table at the address its relocations resolve to.
 * On ARM that is a sequence at 0 with its true length; on RISC-V, where the assembler
 * writes every address advance as a relocated difference (linker relaxation), the whole
 * sequence, its end included, sits at address 0.  BFD never answers from such an empty
 * sequence; the last row at or before an address, libdw's way, comes from it for every
 * address past the real code.
 *
 * BFD's ways, kept here:
 * - Rows (add_line_info) are kept per sequence, sorted by address whatever order they
 *   come in (with BFD's own insertion heuristics, which decide where a row goes among
 *   rows of its address); a row with the address of the sequence's last one replaces it.
 * - A sequence runs from its first row (lowered only when a row has to be searched into
 *   place) to its end row.  Sequences are sorted by start, the longer first; one nested
 *   in an earlier one is dropped, one overlapping it starts where it ends
 *   (sort_line_sequences).
 * - An address is looked up in the sequence holding it, and there in the last row at or
 *   before it, unless that is the end row (lookup_address_in_line_info_table).
 * - A sequence starts on file entry 1 before DWARF 5 and on entry 0, the unit's primary
 *   file, from DWARF 5 on (the standard says 1: the out-of-line members of C++ templates
 *   whose code comes from a header that is entry 1 are named after the .cc file).
 * - Each finished sequence's span (lowest to highest row address) is a range the unit
 *   claims (arange_add), empty spans ignored.
 * - The header's directory and file tables are read here too (decoding the table once):
 *   entry numbers as BFD's (entry 1 is the first before DWARF 5, entry 0 from DWARF 5
 *   on); a DWARF 5 form BFD cannot read, or entries with no format, lose the table. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dwconst.h"
#include "error.h"
#include "linetab.h"
#include "dwread.h"

/* Rows are numbered in 32 bits (a row takes a byte of the program at least, and no
 * table comes near 4 GiB): a smaller row is fewer fresh pages to fault in. */
typedef uint32_t rowid;
#define NONE UINT32_MAX
#define ROWS_MAX (UINT32_MAX - 1)
/* Rows allocated at first: as many as the program has bytes, up to this many */
#define ROWS_FIRST ((size_t)1 << 22)

struct lrow {
	uint64_t addr;
	unsigned line, file;
	unsigned char op_index, end;
	rowid prev;                /* BFD's prev_line: the row before it in its sequence */
};

struct lseq {
	uint64_t low;
	rowid last;                /* BFD's last_line: its end row, once it has one */
	size_t idx;                /* decode order, for a stable sort */
	uint64_t high;             /* for sorting: its last row's address, op_index */
	unsigned char high_op;
	size_t first, n;           /* after sorting: its rows in order[first..first+n) */
};

struct lfile {
	const char *name;          /* NULL: the entry has no path */
	uint64_t dir;
};

struct linetab {
	unsigned version;
	const char **dirs;         /* the directory table, in the file's numbering */
	size_t ndirs, dirs_cap;
	struct lfile *files;       /* the file table (DW_LNE_define_file's entries too) */
	size_t nfiles, files_cap;
	struct lrow *rows;
	size_t nrows, rows_cap;
	struct lseq *seqs;
	size_t nseqs, seqs_cap;
	rowid lcl_head;            /* BFD's lcl_head: where a row out of order may go */
	rowid *order;              /* every kept sequence's rows, lowest address first */
	uint64_t (*spans)[2];      /* the finished sequences' spans, in decode order */
	size_t nspans, spans_cap;
	int rows_sorted;           /* every sequence's rows by address (BFD keeps them so) */
	int too_many;              /* rows past ROWS_MAX: the table is dropped */
	size_t hint_seq, hint_row; /* the last lookup's row: the next is mostly at or after */
};

/* ---- BFD's add_line_info ---------------------------------------------------------- */
static int sorts_after(const struct lrow *a, const struct lrow *b)
{
	return a->addr > b->addr || (a->addr == b->addr && a->op_index > b->op_index);
}

/* A row that goes neither at the head of its sequence nor after lcl_head: searched into
 * place from the head, and lcl_head moved there. */
static void insert_searched(struct linetab *t, struct lseq *s, size_t r)
{
	struct lrow *rows = t->rows;
	rowid li2 = s->last, li1 = rows[li2].prev;
	while (li1 != NONE) {
		if (!sorts_after(&rows[r], &rows[li2]) && sorts_after(&rows[r], &rows[li1]))
			break;
		li2 = li1;
		li1 = rows[li1].prev;
	}
	t->lcl_head = li2;
	rows[r].prev = rows[li2].prev;
	rows[li2].prev = r;
	if (rows[r].addr < s->low)
		s->low = rows[r].addr;
}

static void add_row(struct linetab *t, const struct lrow *row)
{
	if (t->nrows >= ROWS_MAX - 1) {
		t->too_many = 1;        /* (the table is dropped: decode's caller gives up) */
		return;
	}
	if (t->nrows == t->rows_cap) {    /* (never past ROWS_MAX: decode adds up to it) */
		t->rows_cap = t->rows_cap ? 2 * t->rows_cap : 256;
		if (t->rows_cap > ROWS_MAX)
			t->rows_cap = ROWS_MAX;
		t->rows = xrealloc(t->rows, t->rows_cap * sizeof *t->rows);
	}
	rowid r = (rowid)t->nrows++;
	struct lrow *rows = t->rows, *new = &rows[r];
	*new = *row;
	new->prev = NONE;
	struct lseq *s = t->nseqs ? &t->seqs[t->nseqs - 1] : NULL;
	const struct lrow *last = s ? &rows[s->last] : NULL;
	if (last && last->addr == new->addr && last->op_index == new->op_index &&
	    last->end == new->end) {
		if (t->lcl_head == s->last)      /* only the last of them is kept */
			t->lcl_head = r;
		new->prev = last->prev;
		s->last = r;
	} else if (!s || last->end) {
		if (t->nseqs == t->seqs_cap) {
			t->seqs_cap = t->seqs_cap ? 2 * t->seqs_cap : 64;
			t->seqs = xrealloc(t->seqs, t->seqs_cap * sizeof *t->seqs);
		}
		t->seqs[t->nseqs] = (struct lseq){.low = new->addr, .last = r, .idx = t->nseqs};
		t->nseqs++;
		t->lcl_head = r;
	} else if (new->end || sorts_after(new, last)) {
		new->prev = s->last;
		s->last = r;
	} else if (!sorts_after(new, &rows[t->lcl_head]) &&
		   (rows[t->lcl_head].prev == NONE ||
		    sorts_after(new, &rows[rows[t->lcl_head].prev]))) {
		new->prev = rows[t->lcl_head].prev;
		rows[t->lcl_head].prev = r;
	} else {
		insert_searched(t, s, r);
	}
}

/* ---- decoding the line program ---------------------------------------------------- */
struct lhead {
	unsigned version, min_inst, max_ops, line_range, opcode_base;
	int line_base;
	const unsigned char *std_len;   /* standard_opcode_lengths[1..opcode_base - 1] */
	size_t offsize;                 /* 4, or 8 in 64-bit DWARF */
	const unsigned char *tables, *prog;  /* the directory and file tables, the program */
};

/* The header, with BFD's checks; R is left at the line program, and its end at the
 * table's. */
static int read_header(struct rd *r, struct lhead *h)
{
	size_t offsize = 4;
	uint64_t len = rd_fixed(r, 4);
	if (len == 0xffffffff) {
		len = rd_fixed(r, 8);
		offsize = 8;
	}
	if (len > (uint64_t)(r->end - r->p))
		return -1;
	r->end = r->p + len;
	h->offsize = offsize;
	h->version = (unsigned)rd_fixed(r, 2);
	if (h->version < 2 || h->version > 5 ||
	    (size_t)(r->end - r->p) <= offsize + (h->version >= 5 ? 8 : h->version >= 4 ? 6 : 5))
		return -1;
	if (h->version >= 5) {
		rd_fixed(r, 1);             /* address size: BFD takes the unit's */
		if (rd_fixed(r, 1) != 0)    /* segment selector size */
			return -1;
	}
	uint64_t hlen = rd_fixed(r, offsize);
	const unsigned char *prog = r->p;
	if (hlen > (uint64_t)(r->end - prog))
		return -1;
	prog += hlen;
	h->min_inst = (unsigned)rd_fixed(r, 1);
	h->max_ops = h->version >= 4 ? (unsigned)rd_fixed(r, 1) : 1;
	rd_fixed(r, 1);                     /* default_is_stmt */
	h->line_base = (signed char)rd_fixed(r, 1);
	h->line_range = (unsigned)rd_fixed(r, 1);
	h->opcode_base = (unsigned)rd_fixed(r, 1);
	h->std_len = r->p - 1;
	if (h->max_ops == 0 || h->opcode_base == 0 ||
	    (size_t)(r->end - r->p) <= h->opcode_base - 1 ||
	    (size_t)(prog - r->p) < h->opcode_base - 1)
		return -1;
	h->tables = r->p + h->opcode_base - 1;
	h->prog = prog;
	r->p = prog;
	return 0;
}

/* ---- the directory and file tables -------------------------------------------------- */
static void add_dir(struct linetab *t, const char *dir)
{
	if (t->ndirs == t->dirs_cap) {
		t->dirs_cap = t->dirs_cap ? 2 * t->dirs_cap : 16;
		t->dirs = xrealloc(t->dirs, t->dirs_cap * sizeof *t->dirs);
	}
	t->dirs[t->ndirs++] = dir;
}

static void add_file(struct linetab *t, const char *name, uint64_t dir)
{
	if (t->nfiles == t->files_cap) {
		t->files_cap = t->files_cap ? 2 * t->files_cap : 16;
		t->files = xrealloc(t->files, t->files_cap * sizeof *t->files);
	}
	t->files[t->nfiles++] = (struct lfile){name, dir};
}

/* A NUL-terminated string at R (NULL if it runs past the end), R moved past it. */
static const char *rd_cstring(struct rd *r)
{
	const unsigned char *s = r->p, *z = memchr(s, 0, (size_t)(r->end - s));
	r->p = z ? z + 1 : r->end;
	return z ? (const char *)s : NULL;
}

/* The string at offset OFF of a string section (NULL if it is not all there). */
static const char *sec_string(const unsigned char *sec, size_t size, uint64_t off)
{
	if (!sec || off >= size || !memchr(sec + off, 0, size - off))
		return NULL;
	return (const char *)sec + off;
}

/* Before DWARF 5: the include directories, then the file entries, each list ended by an
 * empty string. */
static void read_tables_v4(struct linetab *t, struct rd *r)
{
	const char *s;
	while ((s = rd_cstring(r)) && *s)
		add_dir(t, s);
	while ((s = rd_cstring(r)) && *s) {
		uint64_t dir = rd_leb(r, 0);
		rd_leb(r, 0), rd_leb(r, 0);         /* time, size */
		add_file(t, s, dir);
	}
}

/* One attribute of a DWARF 5 entry in FORM: a string (*STR) or a number (*NUM); -1 for
 * a form BFD does not read there. */
static int read_form(struct rd *r, const struct linesecs *secs, size_t offsize, uint64_t form,
		     const char **str, uint64_t *num)
{
	switch (form) {
	case DW_FORM_string: *str = rd_cstring(r); return 0;
	case DW_FORM_line_strp:
		*str = sec_string(secs->line_str, secs->line_str_size, rd_fixed(r, offsize));
		return 0;
	case DW_FORM_strp: *str = sec_string(secs->str, secs->str_size, rd_fixed(r, offsize)); return 0;
	case DW_FORM_udata: *num = rd_leb(r, 0); return 0;
	case DW_FORM_data1: *num = rd_fixed(r, 1); return 0;
	case DW_FORM_data2: *num = rd_fixed(r, 2); return 0;
	case DW_FORM_data4: *num = rd_fixed(r, 4); return 0;
	case DW_FORM_data8: *num = rd_fixed(r, 8); return 0;
	case DW_FORM_data16: rd_fixed(r, 8), rd_fixed(r, 8); return 0;
	case DW_FORM_block: {
		uint64_t len = rd_leb(r, 0);
		r->p += len < (uint64_t)(r->end - r->p) ? len : (uint64_t)(r->end - r->p);
		return 0;
	}
	default: return -1;
	}
}

/* DWARF 5: a list of entries (directories, or FILES), each laid out by the formats
 * before it (BFD's read_formatted_entries); -1 where BFD drops the table. */
static int read_entries_v5(struct linetab *t, struct rd *r, const struct linesecs *secs,
			   size_t offsize, int files)
{
	uint64_t fmt[255][2];                    /* content type, form */
	unsigned nfmt = (unsigned)rd_fixed(r, 1);
	for (unsigned i = 0; i < nfmt; i++)
		fmt[i][0] = rd_leb(r, 0), fmt[i][1] = rd_leb(r, 0);
	uint64_t count = rd_leb(r, 0);
	if (count && !nfmt)
		return -1;
	for (uint64_t k = 0; k < count; k++) {
		if (r->p >= r->end)
			return -1;                   /* (every entry takes a byte at least) */
		const char *name = NULL;
		uint64_t dir = 0;
		for (unsigned i = 0; i < nfmt; i++) {
			const char *str = NULL;
			uint64_t num = 0;
			if (read_form(r, secs, offsize, fmt[i][1], &str, &num))
				return -1;
			if (fmt[i][0] == DW_LNCT_path)
				name = str;
			else if (fmt[i][0] == DW_LNCT_directory_index)
				dir = num;
		}
		if (files)
			add_file(t, name, dir);
		else
			add_dir(t, name);
	}
	return 0;
}

static int read_tables(struct linetab *t, const struct lhead *h, const struct linesecs *secs)
{
	struct rd r = {.p = h->tables, .end = h->prog, .big = secs->big};
	t->version = h->version;
	if (h->version < 5) {
		read_tables_v4(t, &r);
		return 0;
	}
	if (read_entries_v5(t, &r, secs, h->offsize, 0))
		return -1;
	return read_entries_v5(t, &r, secs, h->offsize, 1);
}

/* File entry FILE (numbered as in the line program): its path (*NAME, NULL if it has
 * none) and its directory's (*DIR, NULL: the unit's compilation directory); 0 if there
 * is no such entry. */
int linetab_file(const struct linetab *t, unsigned file, const char **name, const char **dir)
{
	uint64_t i = t->version >= 5 ? file : (uint64_t)file - 1;
	if (file == 0 && t->version < 5)
		return 0;
	if (i >= t->nfiles)
		return 0;
	*name = t->files[i].name;
	uint64_t d = t->version >= 5 ? t->files[i].dir : t->files[i].dir - 1;
	*dir = (t->version >= 5 || t->files[i].dir) && d < t->ndirs ? t->dirs[d] : NULL;
	return 1;
}

/* The state machine's registers. */
struct lstate {
	uint64_t addr, low, high;  /* low, high: the sequence's span so far */
	unsigned line, file, op_index;
};

static void state_start(struct lstate *st, const struct lhead *h)
{
	*st = (struct lstate){0, UINT64_MAX, 0, 1, h->version >= 5 ? 0 : 1, 0};
}

static void advance(struct lstate *st, const struct lhead *h, uint64_t adv)
{
	if (h->max_ops == 1) {
		st->addr += h->min_inst * adv;
	} else {
		st->addr += h->min_inst * ((st->op_index + adv) / h->max_ops);
		st->op_index = (unsigned)((st->op_index + adv) % h->max_ops);
	}
}

/* Any row, through add_row; an end row finishes its sequence's span. */
static void emit_row(struct linetab *t, struct lstate *st, int end)
{
	struct lrow row = {st->addr, st->line, st->file, (unsigned char)st->op_index,
			   (unsigned char)end, NONE};
	add_row(t, &row);
	if (st->addr < st->low)
		st->low = st->addr;
	if (st->addr > st->high)
		st->high = st->addr;
	if (!end || st->low == st->high)
		return;
	if (t->nspans == t->spans_cap) {
		t->spans_cap = t->spans_cap ? 2 * t->spans_cap : 64;
		t->spans = xrealloc(t->spans, t->spans_cap * sizeof *t->spans);
	}
	t->spans[t->nspans][0] = st->low;
	t->spans[t->nspans][1] = st->high;
	t->nspans++;
}

/* An extended opcode; -1 for one BFD does not know (it then drops the whole table). */
static int extended_op(struct linetab *t, struct rd *r, struct lstate *st,
		       const struct lhead *h, unsigned addr_size)
{
	uint64_t len = rd_leb(r, 0);
	switch (rd_fixed(r, 1)) {
	case DW_LNE_end_sequence:
		emit_row(t, st, 1);
		state_start(st, h);
		return 0;
	case DW_LNE_set_address:            /* the unit's address size, as BFD reads it */
		if (addr_size != 2 && addr_size != 4 && addr_size != 8)
			return -1;
		st->addr = rd_fixed(r, addr_size);
		st->op_index = 0;
		return 0;
	case DW_LNE_define_file: {
		const char *name = rd_cstring(r);
		uint64_t dir = rd_leb(r, 0);
		rd_leb(r, 0), rd_leb(r, 0);
		if (name)
			add_file(t, name, dir);
		return 0;
	}
	case DW_LNE_set_discriminator:
		rd_leb(r, 0);
		return 0;
	case DW_LNE_HP_SOURCE_FILE_CORRELATION:
		r->p += len - 1 <= (uint64_t)(r->end - r->p) ? len - 1 : (uint64_t)(r->end - r->p);
		return 0;
	default:
		return -1;
	}
}

static int standard_op(struct rd *r, struct lstate *st,
		       const struct lhead *h, unsigned op)
{
	switch (op) {
	case DW_LNS_advance_pc:
		if (h->max_ops == 1) {
			advance(st, h, rd_leb(r, 0));
		} else {                    /* BFD sets, not adds, the address here */
			uint64_t adv = rd_leb(r, 0);
			st->addr = (st->op_index + adv) / h->max_ops * h->min_inst;
			st->op_index = (unsigned)((st->op_index + adv) % h->max_ops);
		}
		break;
	case DW_LNS_advance_line:
		st->line += (unsigned)rd_leb(r, 1);
		break;
	case DW_LNS_set_file:
		st->file = (unsigned)rd_leb(r, 0);
		break;
	case DW_LNS_const_add_pc:
		if (h->line_range == 0)
			return -1;
		advance(st, h, (255 - h->opcode_base) / h->line_range);
		break;
	case DW_LNS_fixed_advance_pc:
		st->addr += rd_fixed(r, 2);
		st->op_index = 0;
		break;
	case DW_LNS_set_column:     /* as BFD: one operand, whatever the header says */
		rd_leb(r, 0);
		break;
	case DW_LNS_negate_stmt:
	case DW_LNS_set_basic_block:
		break;
	default:              /* any other: ULEB operands, ignored */
		for (unsigned i = 0; i < h->std_len[op]; i++)
			rd_leb(r, 0);
		break;
	}
	return 0;
}

/* The open sequence's last row, where a row may be added after it or over it; NULL if
 * there is none (no sequence, or the last one ended). */
static struct lrow *open_last(struct linetab *t)
{
	struct lrow *last = t->nseqs ? &t->rows[t->seqs[t->nseqs - 1].last] : NULL;
	return last && !last->end ? last : NULL;
}

/* The line program, after the header; -1 where BFD gives up on the table.  A row that
 * is not an end row (a special opcode's, most of a program, or copy's) takes add_row's
 * common cases here, at less cost, with the open sequence's last row at hand (found
 * again after anything that may have moved it): a row at the last one's address takes
 * its place (GCC writes several at an address; nothing else links to the last row, so
 * it is overwritten), a row past it goes after it. */
static int decode(struct linetab *t, struct rd *r, const struct lhead *h,
		  unsigned addr_size)
{
	struct lstate st;                   /* (end_sequence starts it again) */
	state_start(&st, h);
	struct lrow *last = open_last(t);
	/* (rows past the first allocation are added only by add_row, which stops at
	 * ROWS_MAX: the program is read to its end, and the table then dropped) */
	while (r->p < r->end) {
		unsigned op = *r->p++;
		int special = op >= h->opcode_base;    /* (before copy: a base of 1 has none) */
		if (special || op == DW_LNS_copy) {
			if (special) {
				if (h->line_range == 0)
					return -1;
				unsigned adj = op - h->opcode_base;
				advance(&st, h, adj / h->line_range);
				st.line += (unsigned)h->line_base + adj % h->line_range;
			}
			if (last && st.addr > last->addr && t->nrows < t->rows_cap) {
				struct lseq *s = &t->seqs[t->nseqs - 1];
				rowid n = (rowid)t->nrows++;
				t->rows[n] = (struct lrow){st.addr, st.line, st.file,
							   (unsigned char)st.op_index, 0, s->last};
				s->last = n;
				last = &t->rows[n];
				if (st.addr > st.high)
					st.high = st.addr;
			} else if (last && st.addr == last->addr && st.op_index == last->op_index) {
				last->line = st.line;
				last->file = st.file;
			} else {
				emit_row(t, &st, 0);
				last = open_last(t);
			}
			continue;
		}
		if (op == 0) {
			if (extended_op(t, r, &st, h, addr_size) != 0)
				return -1;
			last = open_last(t);
		} else if (standard_op(r, &st, h, op) != 0) {
			return -1;          /* (a standard opcode other than copy adds no row) */
		}
	}
	return t->too_many ? -1 : 0;
}

/* ---- BFD's sort_line_sequences and lookup ----------------------------------------- */
static int cmp_seq(const void *l, const void *r)
{
	const struct lseq *a = l, *b = r;
	if (a->low != b->low)
		return a->low < b->low ? -1 : 1;
	if (a->high != b->high)                    /* the longer first */
		return a->high > b->high ? -1 : 1;
	if (a->high_op != b->high_op)
		return a->high_op > b->high_op ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Sort, drop nested sequences, trim overlapping ones, and lay each one's rows out in
 * order (BFD's line_info_lookup). */
static void sort_sequences(struct linetab *t)
{
	if (t->nseqs == 0)
		return;
	for (size_t i = 0; i < t->nseqs; i++) {
		t->seqs[i].high = t->rows[t->seqs[i].last].addr;
		t->seqs[i].high_op = t->rows[t->seqs[i].last].op_index;
	}
	qsort(t->seqs, t->nseqs, sizeof *t->seqs, cmp_seq);
	size_t kept = 1;
	uint64_t high = t->seqs[0].high;
	for (size_t i = 1; i < t->nseqs; i++) {
		struct lseq *s = &t->seqs[i];
		if (s->low < high) {
			if (s->high <= high)
				continue;           /* nested */
			s->low = high;          /* overlapping */
		}
		high = s->high;
		t->seqs[kept++] = *s;
	}
	t->nseqs = kept;
	t->order = xmalloc((t->nrows + 1) * sizeof *t->order);
	size_t at = 0;
	int sorted = 1;
	for (size_t i = 0; i < t->nseqs; i++) {
		struct lseq *s = &t->seqs[i];
		size_t n = 0;
		for (rowid r = s->last; r != NONE; r = t->rows[r].prev)
			n++;
		s->first = at;
		s->n = n;
		uint64_t above = UINT64_MAX;
		for (rowid r = s->last; r != NONE; r = t->rows[r].prev) {
			t->order[at + --n] = r;
			sorted &= t->rows[r].addr <= above;
			above = t->rows[r].addr;
		}
		at += s->n;
	}
	t->rows_sorted = sorted;
	t->hint_seq = SIZE_MAX;
}

/* ADDR's row: 1 with its LINE and FILE entry, or 0; *NEXT is an address above ADDR up
 * to which (not included) every address gets the same answer (the next row's, or past
 * rows that answer the same). */
int linetab_lookup(struct linetab *t, uint64_t addr, unsigned *line, unsigned *file,
		   uint64_t *next)
{
	*next = addr + 1;
	if (!t)
		return 0;
	const struct lseq *s = NULL;
	size_t lo = 0, hi = t->nseqs;
	/* the last lookup's sequence, if it holds ADDR (they are apart: the search's too) */
	if (t->hint_seq < t->nseqs && addr >= t->seqs[t->hint_seq].low &&
	    addr < t->seqs[t->hint_seq].high) {
		s = &t->seqs[t->hint_seq];
		lo = hi;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		s = &t->seqs[mid];
		if (addr < s->low)
			hi = mid;
		else if (addr >= s->high)
			lo = mid + 1;
		else
			break;
	}
	if (!s || addr < s->low || addr >= s->high) {
		if (lo < t->nseqs && t->seqs[lo].low > addr)
			*next = t->seqs[lo].low;    /* (between sequences: no row) */
		else if (lo >= t->nseqs)
			*next = UINT64_MAX;
		return 0;
	}
	const rowid *o = t->order + s->first;
	const struct lrow *row = NULL;
	size_t mid = 0, seq = (size_t)(s - t->seqs);
	lo = 0, hi = s->n;
	/* the row the search would find (the last at or below ADDR, as the rows are in
	 * order) if it is the hint's or one of the next two */
	if (t->rows_sorted && t->hint_seq == seq)
		for (size_t m = t->hint_row; m < s->n && m <= t->hint_row + 2; m++)
			if (t->rows[o[m]].addr <= addr &&
			    (m + 1 >= s->n || addr < t->rows[o[m + 1]].addr)) {
				mid = m;
				row = &t->rows[o[m]];
				lo = hi;                /* found: no search */
				break;
			}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		row = &t->rows[o[mid]];
		if (addr < row->addr)
			hi = mid;
		else if (mid + 1 < s->n && addr >= t->rows[o[mid + 1]].addr)
			lo = mid + 1;
		else
			break;
	}
	t->hint_seq = seq;
	t->hint_row = mid;
	if (!row || addr < row->addr || mid + 1 >= s->n || addr >= t->rows[o[mid + 1]].addr ||
	    row->end || o[mid] == s->last)
		return 0;
	/* the rows after it that answer the same (a row of the same line and file that is
	 * neither an end row nor the sequence's last: GCC writes one per column or view)
	 * are passed over: NEXT is where the answer changes */
	size_t k = mid + 1;
	while (t->rows_sorted && k + 1 < s->n && t->rows[o[k]].line == row->line &&
	       t->rows[o[k]].file == row->file && !t->rows[o[k]].end && o[k] != s->last)
		k++;
	*next = t->rows[o[k]].addr < s->high ? t->rows[o[k]].addr : s->high;
	t->hint_row = k - 1;    /* (the next lookup mostly asks at NEXT: row k) */
	*line = row->line;
	*file = row->file;
	return 1;
}

/* The line table at offset OFF of .debug_line (in SECS), of a unit whose
 * addresses are ADDR_SIZE bytes; NULL where BFD would have none (it says why on its
 * standard error; gprof's standard output does not change). */
struct linetab *linetab_read(const struct linesecs *secs, uint64_t off, unsigned addr_size)
{
	if (!secs->line || secs->line_size < 16 || off >= secs->line_size)
		return NULL;
	struct rd r = {.p = secs->line + off, .end = secs->line + secs->line_size, .big = secs->big};
	struct lhead h;
	struct linetab *t = xcalloc(1, sizeof *t);
	if (read_header(&r, &h) != 0 || read_tables(t, &h, secs) != 0) {
		linetab_free(t);
		return NULL;
	}
	/* (allocated once: growing by copying faulted every page in twice; the pages of
	 * rows never made are never touched) */
	t->rows_cap = (size_t)(r.end - r.p) + 1 < ROWS_FIRST ? (size_t)(r.end - r.p) + 1 : ROWS_FIRST;
	t->rows = xmalloc(t->rows_cap * sizeof *t->rows);
	if (decode(t, &r, &h, addr_size) != 0) {
		linetab_free(t);
		return NULL;
	}
	/* (the rows not made given back: the next tables take those pages) */
	t->rows = xrealloc(t->rows, (t->nrows + 1) * sizeof *t->rows);
	t->rows_cap = t->nrows + 1;
	sort_sequences(t);
	return t;
}

/* Its sequences' spans, in the order decoded (the ranges BFD has the unit claim). */
size_t linetab_spans(const struct linetab *t, const uint64_t (**spans)[2])
{
	*spans = t ? (const uint64_t (*)[2])t->spans : NULL;
	return t ? t->nspans : 0;
}

void linetab_free(struct linetab *t)
{
	if (!t)
		return;
	free(t->dirs);
	free(t->files);
	free(t->rows);
	free(t->seqs);
	free(t->order);
	free(t->spans);
	free(t);
}
