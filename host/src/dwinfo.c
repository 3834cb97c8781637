/* Compilation units, the functions in them (subprograms, inlined subroutines, entry
 * points) with their address ranges, and those functions' names, read from .debug_info,
 * .debug_abbrev and the range, address and string sections directly.  BFD walks every
 * debugging entry of a unit it looks into; so must we, and a walk of our own skips the
 * entries that are not functions by their abbreviation's fixed size, where libdw decoded
 * each one.
 *
 * The answers are libdw's, which gave them before (and which agree with BFD's on what
 * gprof's output shows).  A DIE's ranges are dwarf_ranges': DW_AT_low_pc with
 * DW_AT_high_pc (an address, or a constant added to low_pc), else DW_AT_ranges (a list in
 * .debug_ranges before DWARF 5, in .debug_rnglists from DWARF 5 on, relative to the
 * unit's DW_AT_low_pc).  A function's name is its DW_AT_linkage_name (or
 * DW_AT_MIPS_linkage_name) found through up to 16 DW_AT_abstract_origin or
 * DW_AT_specification links, as dwarf_attr_integrate finds it, else its DW_AT_name found
 * the same way.
 * DWARF 2 to 5, 32- and 64-bit, either byte order; not split DWARF's .dwo files nor
 * dwz's alternate file.
 *
 * The input is the attacker's: every read is bounds-checked, a unit is given up (its
 * functions so far kept) at the first entry that cannot be decoded, strings must end
 * inside their section, and the work is bounded by the sections' sizes (abbreviation
 * tables decoded once per offset, within a budget; a budget of range list entries for
 * lists many entries share; name links followed 16 deep at most). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dwconst.h"
#include "dwinfo.h"
#include "dwread.h"
#include "error.h"

/* ---- abbreviations ----------------------------------------------------------------- */
struct aspec {
	uint64_t name, form;
	int64_t implicit;          /* DW_FORM_implicit_const's value */
};

struct abbrev {
	uint64_t code;
	uint64_t tag;
	int children;
	size_t first, n;           /* its attributes: specs[first..first + n) */
	size_t fixed;              /* their size when all have a fixed one, else SIZE_MAX */
	int ranged;                /* it has a low_pc, high_pc or ranges attribute */
};

struct dwabbrevs {
	uint64_t off;
	int bad;                   /* undecodable, or over the budget */
	struct abbrev *v;          /* in the table's order */
	size_t n;
	struct aspec *specs;
	size_t *by_code;           /* code -> index + 1 (0: none), when codes are dense */
	uint64_t max_code;
	unsigned sized_for;        /* the unit shape the fixed sizes are for (0: none) */
};

static void abbrevs_free(struct dwabbrevs *t)
{
	if (!t)
		return;
	free(t->v);
	free(t->specs);
	free(t->by_code);
	free(t);
}

static void abbrevs_index(struct dwabbrevs *t)
{
	uint64_t max = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].code > max)
			max = t->v[i].code;
	if (max > 4 * (uint64_t)t->n + 64)
		return;                  /* sparse: searched */
	t->max_code = max;
	t->by_code = xcalloc(max + 1, sizeof *t->by_code);
	for (size_t i = t->n; i-- > 0;)  /* the first of a code wins, as in a search */
		t->by_code[t->v[i].code] = i + 1;
}

/* Decode the table at OFF, within the reader's budget. */
static struct dwabbrevs *abbrevs_decode(struct dwreader *dr, uint64_t off)
{
	struct dwabbrevs *t = xcalloc(1, sizeof *t);
	size_t cap = 0, scap = 0, nspecs = 0;
	t->off = off;
	if (!dr->s.abbrev || off >= dr->s.abbrev_size) {
		t->bad = 1;
		return t;
	}
	struct rd r = {dr->s.abbrev + off, dr->s.abbrev + dr->s.abbrev_size, dr->s.big, 0};
	for (;;) {
		uint64_t code = rd_leb(&r, 0);
		if (r.bad || code == 0)
			break;
		if (dr->abbrev_budget == 0) {
			t->bad = 1;
			break;
		}
		dr->abbrev_budget--;
		if (t->n == cap) {
			cap = cap ? 2 * cap : 64;
			t->v = xrealloc(t->v, cap * sizeof *t->v);
		}
		struct abbrev *a = &t->v[t->n++];
		a->code = code;
		a->tag = rd_leb(&r, 0);
		a->children = (int)rd_fixed(&r, 1);
		a->first = nspecs;
		a->ranged = 0;
		for (;;) {
			uint64_t name = rd_leb(&r, 0), form = rd_leb(&r, 0);
			if (r.bad || (name == 0 && form == 0))
				break;
			if (dr->abbrev_budget == 0) {
				r.bad = 1;
				break;
			}
			dr->abbrev_budget--;
			if (nspecs == scap) {
				scap = scap ? 2 * scap : 256;
				t->specs = xrealloc(t->specs, scap * sizeof *t->specs);
			}
			int64_t imp = form == DW_FORM_implicit_const ? (int64_t)rd_leb(&r, 1) : 0;
			t->specs[nspecs++] = (struct aspec){name, form, imp};
			a->ranged |= name == DW_AT_low_pc || name == DW_AT_high_pc || name == DW_AT_ranges;
		}
		a->n = nspecs - a->first;
		if (r.bad) {
			t->bad = 1;
			break;
		}
	}
	if (!t->bad)
		abbrevs_index(t);
	return t;
}

static size_t tab_slot(const struct dwreader *dr, uint64_t off)
{
	size_t mask = dr->tabs_cap - 1, i = (size_t)(off * 0x9e3779b97f4a7c15ull >> 20) & mask;
	while (dr->tabs[i] && dr->tabs[i]->off != off)
		i = (i + 1) & mask;
	return i;
}

/* The table at OFF, decoded once. */
static struct dwabbrevs *abbrevs_at(struct dwreader *dr, uint64_t off)
{
	if (2 * (dr->ntabs + 1) > dr->tabs_cap) {
		struct dwabbrevs **old = dr->tabs;
		size_t ocap = dr->tabs_cap;
		dr->tabs_cap = ocap ? 2 * ocap : 64;
		dr->tabs = xcalloc(dr->tabs_cap, sizeof *dr->tabs);
		for (size_t i = 0; i < ocap; i++)
			if (old[i])
				dr->tabs[tab_slot(dr, old[i]->off)] = old[i];
		free(old);
	}
	size_t i = tab_slot(dr, off);
	if (!dr->tabs[i]) {
		dr->tabs[i] = abbrevs_decode(dr, off);
		dr->ntabs++;
	}
	return dr->tabs[i];
}

static const struct abbrev *abbrev_find(const struct dwabbrevs *t, uint64_t code)
{
	if (t->by_code)
		return code <= t->max_code && t->by_code[code] ? &t->v[t->by_code[code] - 1] : NULL;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].code == code)
			return &t->v[i];
	return NULL;
}

/* ---- a unit and its attributes ---------------------------------------------------- */
struct unit {
	struct dwreader *dr;
	uint64_t off, end;         /* its header's offset, the next unit's */
	unsigned version, offsize, addr_size;
	uint64_t base;             /* the unit's DW_AT_low_pc: where its ranges are from */
	uint64_t addr_base, rnglists_base, str_offsets_base;
	struct dwabbrevs *abbrevs;
};

/* What an attribute's form makes of it. */
enum aclass {
	A_NONE, A_ADDR, A_ADDRX, A_CONST, A_OFFSET, A_RNGLISTX,
	A_STRING,                  /* in the entry: s */
	A_STRP, A_LINE_STRP, A_STRX,  /* in .debug_str, .debug_line_str; by index */
	A_REF, A_REF_ADDR,         /* an entry, from the unit's start, from .debug_info's */
};
struct aval {
	enum aclass cls;
	uint64_t v;
	const char *s;
};

/* Read one attribute value of FORM (skipping it where it is none of the above). */
static void read_form(struct rd *r, const struct unit *u, uint64_t form, int64_t implicit,
		      struct aval *a)
{
	a->cls = A_NONE;
	for (int indirect = 0; form == DW_FORM_indirect; indirect++) {
		form = rd_leb(r, 0);
		if (indirect == 4 || form == DW_FORM_implicit_const)
			r->bad = 1;     /* its value would be in the abbreviation */
	}
	switch (form) {
	case DW_FORM_addr: a->cls = A_ADDR; a->v = rd_fixed(r, u->addr_size); break;
	case DW_FORM_addrx: case DW_FORM_GNU_addr_index:
		a->cls = A_ADDRX; a->v = rd_leb(r, 0); break;
	case DW_FORM_addrx1: a->cls = A_ADDRX; a->v = rd_fixed(r, 1); break;
	case DW_FORM_addrx2: a->cls = A_ADDRX; a->v = rd_fixed(r, 2); break;
	case DW_FORM_addrx3: a->cls = A_ADDRX; a->v = rd_fixed(r, 3); break;
	case DW_FORM_addrx4: a->cls = A_ADDRX; a->v = rd_fixed(r, 4); break;
	case DW_FORM_data1: a->cls = A_CONST; a->v = rd_fixed(r, 1); break;
	case DW_FORM_data2: a->cls = A_CONST; a->v = rd_fixed(r, 2); break;
	case DW_FORM_data4: a->cls = A_CONST; a->v = rd_fixed(r, 4); break;
	case DW_FORM_data8: a->cls = A_CONST; a->v = rd_fixed(r, 8); break;
	case DW_FORM_udata: a->cls = A_CONST; a->v = rd_leb(r, 0); break;
	case DW_FORM_sdata: a->cls = A_CONST; a->v = rd_leb(r, 1); break;
	case DW_FORM_implicit_const: a->cls = A_CONST; a->v = (uint64_t)implicit; break;
	case DW_FORM_sec_offset: a->cls = A_OFFSET; a->v = rd_fixed(r, u->offsize); break;
	case DW_FORM_rnglistx: a->cls = A_RNGLISTX; a->v = rd_leb(r, 0); break;
	case DW_FORM_flag_present: break;
	case DW_FORM_ref1: a->cls = A_REF; a->v = rd_fixed(r, 1); break;
	case DW_FORM_ref2: a->cls = A_REF; a->v = rd_fixed(r, 2); break;
	case DW_FORM_ref4: a->cls = A_REF; a->v = rd_fixed(r, 4); break;
	case DW_FORM_ref8: a->cls = A_REF; a->v = rd_fixed(r, 8); break;
	case DW_FORM_ref_udata: a->cls = A_REF; a->v = rd_leb(r, 0); break;
	case DW_FORM_ref_addr:
		a->cls = A_REF_ADDR;
		a->v = rd_fixed(r, u->version <= 2 ? u->addr_size : u->offsize);
		break;
	case DW_FORM_strp: a->cls = A_STRP; a->v = rd_fixed(r, u->offsize); break;
	case DW_FORM_line_strp: a->cls = A_LINE_STRP; a->v = rd_fixed(r, u->offsize); break;
	case DW_FORM_strx: case DW_FORM_GNU_str_index: a->cls = A_STRX; a->v = rd_leb(r, 0); break;
	case DW_FORM_strx1: a->cls = A_STRX; a->v = rd_fixed(r, 1); break;
	case DW_FORM_strx2: a->cls = A_STRX; a->v = rd_fixed(r, 2); break;
	case DW_FORM_strx3: a->cls = A_STRX; a->v = rd_fixed(r, 3); break;
	case DW_FORM_strx4: a->cls = A_STRX; a->v = rd_fixed(r, 4); break;
	case DW_FORM_flag: rd_skip(r, 1); break;
	case DW_FORM_ref_sup4: rd_skip(r, 4); break;
	case DW_FORM_ref_sig8: case DW_FORM_ref_sup8: rd_skip(r, 8); break;
	case DW_FORM_data16: rd_skip(r, 16); break;
	case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
		rd_skip(r, u->offsize); break;
	case DW_FORM_loclistx: rd_leb(r, 0); break;
	case DW_FORM_string: {
		const unsigned char *nul = memchr(r->p, 0, (size_t)(r->end - r->p));
		a->cls = A_STRING;
		a->s = (const char *)r->p;
		rd_skip(r, nul ? (uint64_t)(nul - r->p) + 1 : UINT64_MAX);
		break;
	}
	case DW_FORM_block1: rd_skip(r, rd_fixed(r, 1)); break;
	case DW_FORM_block2: rd_skip(r, rd_fixed(r, 2)); break;
	case DW_FORM_block4: rd_skip(r, rd_fixed(r, 4)); break;
	case DW_FORM_block: case DW_FORM_exprloc: rd_skip(r, rd_leb(r, 0)); break;
	default: r->bad = 1; break;      /* a form we cannot size: the unit ends here */
	}
}

/* The fixed size of FORM's values in unit U, or 0 if they have none (or no bytes). */
static size_t form_size(const struct unit *u, uint64_t form)
{
	switch (form) {
	case DW_FORM_addr: return u->addr_size;
	case DW_FORM_addrx1: case DW_FORM_data1: case DW_FORM_flag: case DW_FORM_ref1:
	case DW_FORM_strx1: return 1;
	case DW_FORM_addrx2: case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: return 2;
	case DW_FORM_addrx3: case DW_FORM_strx3: return 3;
	case DW_FORM_addrx4: case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_ref_sup4:
	case DW_FORM_strx4: return 4;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16: return 16;
	case DW_FORM_sec_offset: case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_strp_sup:
	case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt: return u->offsize;
	case DW_FORM_ref_addr: return u->version <= 2 ? u->addr_size : u->offsize;
	}
	return 0;
}

/* Each abbreviation's fixed size in units of U's shape, which form sizes depend on (a
 * table shared by units of several shapes is sized again, within the budget: else every
 * entry takes the slow way). */
static void abbrevs_size(struct dwreader *dr, struct dwabbrevs *t, const struct unit *u)
{
	unsigned shape = u->version << 16 | u->offsize << 8 | u->addr_size;
	if (t->sized_for == shape)
		return;
	int afford = dr->abbrev_budget >= t->n;
	if (afford)
		dr->abbrev_budget -= t->n;
	t->sized_for = shape;
	for (size_t i = 0; i < t->n; i++) {
		struct abbrev *a = &t->v[i];
		a->fixed = afford ? 0 : SIZE_MAX;
		for (size_t k = 0; k < a->n && a->fixed != SIZE_MAX; k++) {
			uint64_t form = t->specs[a->first + k].form;
			size_t n = form_size(u, form);
			if (n)
				a->fixed += n;
			else if (form != DW_FORM_flag_present && form != DW_FORM_implicit_const)
				a->fixed = SIZE_MAX;
		}
	}
}

/* The address at index I of .debug_addr (0 and *OK cleared if it is not there). */
static uint64_t addr_at(const struct unit *u, uint64_t i, int *ok)
{
	const struct dwsecs *s = &u->dr->s;
	uint64_t at = u->addr_base + i * u->addr_size;
	if (!s->addr || i > s->addr_size / u->addr_size || at < u->addr_base ||
	    at > s->addr_size || s->addr_size - at < u->addr_size) {
		*ok = 0;
		return 0;
	}
	struct rd r = {s->addr + at, s->addr + s->addr_size, s->big, 0};
	return rd_fixed(&r, u->addr_size);
}

/* An address-class value as an address. */
static int aval_addr(const struct unit *u, const struct aval *a, uint64_t *addr)
{
	int ok = 1;
	if (a->cls == A_ADDR)
		*addr = a->v;
	else if (a->cls == A_ADDRX)
		*addr = addr_at(u, a->v, &ok);
	else
		ok = 0;
	return ok;
}

/* ---- range lists ------------------------------------------------------------------- */
struct flist {
	struct dwfunc *v;
	size_t n, cap;
};

static void flist_add(struct flist *f, uint64_t lo, uint64_t hi, size_t seq, uint64_t die)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->v = xrealloc(f->v, f->cap * sizeof *f->v);
	}
	f->v[f->n++] = (struct dwfunc){lo, hi, seq, die, UINT64_MAX};
}

/* A list in .debug_ranges (before DWARF 5). */
static void ranges_v4(const struct unit *u, uint64_t off, struct flist *f, size_t seq,
		      uint64_t die)
{
	const struct dwsecs *s = &u->dr->s;
	if (!s->ranges || off >= s->ranges_size)
		return;
	struct rd r = {s->ranges + off, s->ranges + s->ranges_size, s->big, 0};
	uint64_t base = u->base, max = u->addr_size == 8 ? UINT64_MAX
					: (UINT64_C(1) << (8 * u->addr_size)) - 1;
	while (u->dr->range_budget) {
		u->dr->range_budget--;
		uint64_t b = rd_fixed(&r, u->addr_size), e = rd_fixed(&r, u->addr_size);
		if (r.bad || (b == 0 && e == 0))
			return;
		if (b == max)
			base = e;
		else
			flist_add(f, base + b, base + e, seq, die);
	}
}

/* A list in .debug_rnglists (DWARF 5). */
static void ranges_v5(const struct unit *u, uint64_t off, struct flist *f, size_t seq,
		      uint64_t die)
{
	const struct dwsecs *s = &u->dr->s;
	if (!s->rnglists || off >= s->rnglists_size)
		return;
	struct rd r = {s->rnglists + off, s->rnglists + s->rnglists_size, s->big, 0};
	uint64_t base = u->base;
	int ok = 1;
	while (u->dr->range_budget && ok && !r.bad) {
		u->dr->range_budget--;
		uint64_t b, e, kind = rd_fixed(&r, 1);
		switch (kind) {
		case DW_RLE_end_of_list: return;
		case DW_RLE_base_addressx: base = addr_at(u, rd_leb(&r, 0), &ok); continue;
		case DW_RLE_base_address: base = rd_fixed(&r, u->addr_size); continue;
		case DW_RLE_startx_endx:
			b = addr_at(u, rd_leb(&r, 0), &ok);
			e = addr_at(u, rd_leb(&r, 0), &ok);
			break;
		case DW_RLE_startx_length:
			b = addr_at(u, rd_leb(&r, 0), &ok);
			e = b + rd_leb(&r, 0);
			break;
		case DW_RLE_offset_pair:
			b = base + rd_leb(&r, 0);
			e = base + rd_leb(&r, 0);
			break;
		case DW_RLE_start_end:
			b = rd_fixed(&r, u->addr_size);
			e = rd_fixed(&r, u->addr_size);
			break;
		case DW_RLE_start_length:
			b = rd_fixed(&r, u->addr_size);
			e = b + rd_leb(&r, 0);
			break;
		default:
			return;
		}
		if (ok && !r.bad)
			flist_add(f, b, e, seq, die);
	}
}

/* A DW_AT_ranges value: the list it points to, read. */
static void ranges_read(const struct unit *u, const struct aval *a, struct flist *f,
			size_t seq, uint64_t die)
{
	uint64_t off = a->v;
	if (a->cls == A_RNGLISTX) {
		const struct dwsecs *s = &u->dr->s;
		uint64_t at = u->rnglists_base + a->v * u->offsize;
		if (u->version < 5 || !s->rnglists || a->v > s->rnglists_size / u->offsize ||
		    at < u->rnglists_base || at > s->rnglists_size)
			return;
		struct rd r = {s->rnglists + at, s->rnglists + s->rnglists_size, s->big, 0};
		off = u->rnglists_base + rd_fixed(&r, u->offsize);
		if (r.bad || off < u->rnglists_base)
			return;
	} else if (a->cls != A_OFFSET && a->cls != A_CONST) {
		return;
	}
	if (u->version >= 5)
		ranges_v5(u, off, f, seq, die);
	else
		ranges_v4(u, off, f, seq, die);
}

/* ---- the walk ---------------------------------------------------------------------- */
/* The attributes of an entry that matter here. */
struct dieattrs {
	struct aval low, high, ranges, addr_base, rnglists_base, str_offsets_base;
	struct aval stmt_list, comp_dir, name, linkage, mips_linkage, origin, spec;
};

static void read_attrs(struct rd *r, const struct unit *u, const struct abbrev *a,
		       struct dieattrs *d)
{
	memset(d, 0, sizeof *d);
	if (!a->n)
		return;         /* (a table of no attributes at all has no specs array) */
	const struct aspec *sp = u->abbrevs->specs + a->first;
	for (size_t i = 0; i < a->n && !r->bad; i++) {
		struct aval *to, unused;
		switch (sp[i].name) {
		case DW_AT_low_pc: to = &d->low; break;
		case DW_AT_high_pc: to = &d->high; break;
		case DW_AT_ranges: to = &d->ranges; break;
		case DW_AT_addr_base: case DW_AT_GNU_addr_base: to = &d->addr_base; break;
		case DW_AT_rnglists_base: to = &d->rnglists_base; break;
		case DW_AT_str_offsets_base: to = &d->str_offsets_base; break;
		case DW_AT_stmt_list: to = &d->stmt_list; break;
		case DW_AT_comp_dir: to = &d->comp_dir; break;
		case DW_AT_name: to = &d->name; break;
		case DW_AT_linkage_name: to = &d->linkage; break;
		case DW_AT_MIPS_linkage_name: to = &d->mips_linkage; break;
		case DW_AT_abstract_origin: to = &d->origin; break;
		case DW_AT_specification: to = &d->spec; break;
		default: {      /* (half a function's attributes: passed over by size) */
			size_t n = form_size(u, sp[i].form);
			if (n)
				rd_skip(r, n);
			else if (sp[i].form != DW_FORM_flag_present &&
				 sp[i].form != DW_FORM_implicit_const)
				read_form(r, u, sp[i].form, sp[i].implicit, &unused);
			continue;
		}
		}
		read_form(r, u, sp[i].form, sp[i].implicit, to);
	}
}

/* Skip an entry's attributes: at once when they all have a fixed size. */
static void skip_attrs(struct rd *r, const struct unit *u, const struct abbrev *a)
{
	if (a->fixed != SIZE_MAX) {
		rd_skip(r, a->fixed);
		return;
	}
	if (!a->n)
		return;
	const struct aspec *sp = u->abbrevs->specs + a->first;
	for (size_t i = 0; i < a->n && !r->bad; i++) {
		size_t n = form_size(u, sp[i].form);
		if (n)
			rd_skip(r, n);
		else if (sp[i].form != DW_FORM_flag_present && sp[i].form != DW_FORM_implicit_const) {
			struct aval v;
			read_form(r, u, sp[i].form, sp[i].implicit, &v);
		}
	}
}

/* A function's ranges, as dwarf_ranges gives them. */
static void func_ranges_of(const struct unit *u, const struct dieattrs *d, struct flist *f,
			   size_t seq, uint64_t die);

/* The link an entry's name is found through, where it has no name of its own; else
 * UINT64_MAX (as name_from follows it). */
static uint64_t name_link(const struct unit *u, const struct dieattrs *d)
{
	if (d->linkage.cls != A_NONE || d->mips_linkage.cls != A_NONE || d->name.cls != A_NONE)
		return UINT64_MAX;
	const struct aval *link = d->origin.cls != A_NONE ? &d->origin : &d->spec;
	return link->cls == A_REF && link->v < u->end - u->off ? u->off + link->v
	       : link->cls == A_REF_ADDR ? link->v : UINT64_MAX;
}

/* The function ranges of the entry at DIE (attributes D), with where its name is. */
static void func_ranges(const struct unit *u, const struct dieattrs *d, struct flist *f,
			size_t seq, uint64_t die)
{
	size_t first = f->n;
	func_ranges_of(u, d, f, seq, die);
	if (f->n > first) {
		uint64_t origin = name_link(u, d);
		for (size_t i = first; i < f->n; i++)
			f->v[i].origin = origin;
	}
}

static void func_ranges_of(const struct unit *u, const struct dieattrs *d, struct flist *f,
			   size_t seq, uint64_t die)
{
	uint64_t lo, hi;
	if (aval_addr(u, &d->low, &lo)) {
		if (aval_addr(u, &d->high, &hi)) {
			flist_add(f, lo, hi, seq, die);
			return;
		}
		if (d->high.cls == A_CONST) {
			flist_add(f, lo, lo + d->high.v, seq, die);
			return;
		}
	}
	if (d->ranges.cls != A_NONE)
		ranges_read(u, &d->ranges, f, seq, die);
}

/* The unit's header at OFF; R is left at its first entry and ends at the unit's end. */
static int read_unit_header(struct dwreader *dr, uint64_t off, struct unit *u, struct rd *r)
{
	const struct dwsecs *s = &dr->s;
	const unsigned char *end = s->info ? s->info + s->info_size : NULL;
	*r = (struct rd){end, end, s->big, 1};     /* (past the last unit: read, and bad) */
	if (!s->info || off >= s->info_size)
		return -1;
	*r = (struct rd){s->info + off, end, s->big, 0};
	u->dr = dr;
	u->off = off;
	u->offsize = 4;
	uint64_t len = rd_fixed(r, 4);
	if (len == 0xffffffff) {
		u->offsize = 8;
		len = rd_fixed(r, 8);
	}
	if (r->bad || len > (uint64_t)(r->end - r->p))
		return -1;
	r->end = r->p + len;
	u->end = (uint64_t)(r->end - s->info);
	u->version = (unsigned)rd_fixed(r, 2);
	uint64_t abbrev_off, type = DW_UT_compile;
	if (u->version >= 5) {
		type = rd_fixed(r, 1);
		u->addr_size = (unsigned)rd_fixed(r, 1);
		abbrev_off = rd_fixed(r, u->offsize);
		if (type == DW_UT_skeleton || type == DW_UT_split_compile)
			rd_skip(r, 8);
		else if (type == DW_UT_type || type == DW_UT_split_type)
			rd_skip(r, 8 + u->offsize);
	} else {
		abbrev_off = rd_fixed(r, u->offsize);
		u->addr_size = (unsigned)rd_fixed(r, 1);
	}
	if (r->bad || u->version < 2 || u->version > 5 ||
	    (u->addr_size != 2 && u->addr_size != 4 && u->addr_size != 8))
		return -1;
	u->abbrevs = abbrevs_at(dr, abbrev_off);
	u->addr_base = u->offsize == 8 ? 16 : 8;      /* past a .debug_addr header */
	u->rnglists_base = u->offsize == 8 ? 20 : 12; /* past a .debug_rnglists header */
	u->str_offsets_base = u->offsize == 8 ? 16 : 8; /* past a .debug_str_offsets header */
	if (u->abbrevs->bad)
		return -1;
	abbrevs_size(dr, u->abbrevs, u);
	return 0;
}

/* The unit's own entry (*D), its base address and where its indices point; NULL if it
 * cannot be read. */
static const struct abbrev *read_unit_die(struct rd *r, struct unit *u, struct dieattrs *d)
{
	const struct abbrev *a = abbrev_find(u->abbrevs, rd_leb(r, 0));
	if (r->bad || !a)
		return NULL;
	read_attrs(r, u, a, d);
	if (r->bad)
		return NULL;
	if (d->addr_base.cls == A_OFFSET || d->addr_base.cls == A_CONST)
		u->addr_base = d->addr_base.v;
	if (d->rnglists_base.cls == A_OFFSET || d->rnglists_base.cls == A_CONST)
		u->rnglists_base = d->rnglists_base.v;
	if (d->str_offsets_base.cls == A_OFFSET || d->str_offsets_base.cls == A_CONST)
		u->str_offsets_base = d->str_offsets_base.v;
	if (!aval_addr(u, &d->low, &u->base))
		u->base = 0;
	return a;
}

/* A NUL-terminated string at OFF of a section (NULL if it does not end there). */
static const char *section_string(const unsigned char *sec, size_t size, uint64_t off)
{
	if (!sec || off >= size || !memchr(sec + off, 0, size - off))
		return NULL;
	return (const char *)sec + off;
}

/* Damage found at AT of .debug_info (WHAT): counted, the first kept, for the report. */
static void damaged(struct dwreader *dr, uint64_t at, const char *what)
{
	if (!dr->damaged++) {
		dr->damaged_at = at;
		dr->damaged_what = what;
	}
}

static const char *aval_string_of(const struct unit *u, const struct aval *a);

/* A string-class value as a string (NULL: none, or not readable: an offset past its
 * section is damage). */
static const char *aval_string(const struct unit *u, const struct aval *a)
{
	const char *s = aval_string_of(u, a);
	if (!s && (a->cls == A_STRP || a->cls == A_LINE_STRP || a->cls == A_STRX))
		damaged(u->dr, u->off, "a string attribute's offset lies past its section (in "
			"the unit at this offset)");
	return s;
}

static const char *aval_string_of(const struct unit *u, const struct aval *a)
{
	const struct dwsecs *s = &u->dr->s;
	uint64_t off = a->v;
	switch (a->cls) {
	case A_STRING:
		return a->s;
	case A_LINE_STRP:
		return section_string(s->line_str, s->line_str_size, off);
	case A_STRX: {
		uint64_t at = u->str_offsets_base + a->v * u->offsize;
		if (!s->str_offsets || a->v > s->str_offsets_size / u->offsize ||
		    at < u->str_offsets_base || at > s->str_offsets_size)
			return NULL;
		struct rd r = {s->str_offsets + at, s->str_offsets + s->str_offsets_size, s->big, 0};
		off = rd_fixed(&r, u->offsize);
		if (r.bad)
			return NULL;
	}
		/* fall through */
	case A_STRP:
		return section_string(s->str, s->str_size, off);
	default:
		return NULL;
	}
}

/* Note a unit met (in .debug_info order), for finding an entry's unit. */
static void note_unit(struct dwreader *dr, uint64_t off, uint64_t end)
{
	if (dr->nunits && dr->units[dr->nunits - 1][0] >= off)
		return;
	if (dr->nunits == dr->units_cap) {
		dr->units_cap = dr->units_cap ? 2 * dr->units_cap : 64;
		dr->units = xrealloc(dr->units, dr->units_cap * sizeof *dr->units);
	}
	dr->units[dr->nunits][0] = off;
	dr->units[dr->nunits][1] = end;
	dr->nunits++;
}

/* The unit whose header is at OFF of .debug_info: 0, its entry's attributes in *U and
 * its own ranges in *V, *N (the caller frees *V); 1 if its entry cannot be read (U->end
 * is the next unit's offset); -1 if there is no unit there (no more units). */
int dwreader_unit(struct dwreader *dr, uint64_t off, struct dwunit *du, struct dwfunc **v,
		  size_t *n)
{
	struct unit u = {0};
	struct rd r;
	struct dieattrs d;
	struct flist f = {0};
	*v = NULL;
	*n = 0;
	memset(du, 0, sizeof *du);
	int hdr = read_unit_header(dr, off, &u, &r);
	if (hdr && (r.bad || r.end == dr->s.info + dr->s.info_size))
		return -1;
	du->off = off;
	du->end = (uint64_t)(r.end - dr->s.info);
	if (hdr || !read_unit_die(&r, &u, &d))
		return 1;
	note_unit(dr, off, du->end);
	du->addr_size = u.addr_size;
	du->has_stmt_list = d.stmt_list.cls == A_OFFSET || d.stmt_list.cls == A_CONST;
	du->stmt_list = d.stmt_list.v;
	du->comp_dir = aval_string(&u, &d.comp_dir);
	func_ranges(&u, &d, &f, 0, off);
	*v = f.v;
	*n = f.n;
	return 0;
}

/* Every function range of the unit whose header is at offset UNIT of .debug_info, in
 * entry order (*V, *N: the caller frees *V); the entries after one that cannot be
 * decoded are not read.  -1 if the unit's own entry cannot be. */
int dwreader_funcs(struct dwreader *dr, uint64_t unit, struct dwfunc **v, size_t *n)
{
	struct unit u = {0};
	struct rd r;
	struct flist f = {0};
	*v = NULL;
	*n = 0;
	struct dieattrs cu;
	const struct abbrev *top;
	if (read_unit_header(dr, unit, &u, &r) || !(top = read_unit_die(&r, &u, &cu)))
		return -1;
	if (!top->children)
		return 0;
	size_t depth = 1, seq = 0;
	while (depth > 0 && r.p < r.end) {
		uint64_t die = (uint64_t)(r.p - dr->s.info);
		uint64_t code = rd_leb(&r, 0);
		if (r.bad)
			break;
		if (code == 0) {
			depth--;
			continue;
		}
		const struct abbrev *a = abbrev_find(u.abbrevs, code);
		if (!a)
			break;
		int is_func = a->tag == DW_TAG_subprogram || a->tag == DW_TAG_inlined_subroutine ||
			      a->tag == DW_TAG_entry_point;
		if (is_func && !a->ranged) {
			seq++;          /* (a declaration: no range to read, skipped by size) */
			skip_attrs(&r, &u, a);
			if (r.bad)
				break;
		} else if (is_func) {
			struct dieattrs d;
			read_attrs(&r, &u, a, &d);
			if (r.bad)
				break;
			func_ranges(&u, &d, &f, seq++, die);
		} else {
			skip_attrs(&r, &u, a);
			if (r.bad)
				break;
		}
		if (a->children)
			depth++;
	}
	*v = f.v;
	*n = f.n;
	return 0;
}

/* The unit of the last entry read by offset, and where its entries start. */
struct dwlastunit {
	struct unit u;
	uint64_t first;
};

/* The unit whose header is at OFF, and where its entries start (*FIRST): -1 if it cannot
 * be read.  The last one is kept: a unit's functions are named one after another. */
static int unit_at(struct dwreader *dr, uint64_t off, struct unit *u, uint64_t *first)
{
	if (!dr->last)
		dr->last = xcalloc(1, sizeof *dr->last);
	struct dwlastunit *l = dr->last;
	if (!l->u.dr || l->u.off != off) {
		struct rd r;
		struct dieattrs cu;
		l->u.dr = NULL;
		if (read_unit_header(dr, off, &l->u, &r) || !read_unit_die(&r, &l->u, &cu)) {
			l->u.dr = NULL;
			return -1;
		}
		l->first = (uint64_t)(r.p - dr->s.info);
	}
	*u = l->u;
	*first = l->first;
	return 0;
}

/* The entry at DIE: its unit in *U, its attributes in *D; -1 if it cannot be read. */
static int read_die_at(struct dwreader *dr, uint64_t die, struct unit *u, struct dieattrs *d)
{
	size_t lo = 0, hi = dr->nunits;        /* the last unit starting at or before DIE */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (dr->units[mid][0] <= die)
			lo = mid + 1;
		else
			hi = mid;
	}
	uint64_t first;
	if (!lo || die >= dr->units[lo - 1][1] || unit_at(dr, dr->units[lo - 1][0], u, &first) ||
	    die < first)
		return -1;
	struct rd r = {dr->s.info + die, dr->s.info + u->end, dr->s.big, 0};
	const struct abbrev *a = abbrev_find(u->abbrevs, rd_leb(&r, 0));
	if (r.bad || !a)
		return -1;
	read_attrs(&r, u, a, d);
	return r.bad ? -1 : 0;
}

static const char *origin_name(struct dwreader *dr, uint64_t die, int *linkage);

/* DIE's slot in M (its own, or the empty one it would take). */
static struct dwname *origin_slot(struct dwnames *m, uint64_t die)
{
	size_t h = (size_t)((die + 1) * 0x9E3779B97F4A7C15ull >> 20) & (m->cap - 1);
	while (m->v[h].die_plus1 && m->v[h].die_plus1 != die + 1)
		h = (h + 1) & (m->cap - 1);
	return &m->v[h];
}

/* The name found from the entry at DIE on, with at most HOPS links followed. */
static const char *name_from(struct dwreader *dr, uint64_t die, int hops, int *linkage)
{
	/* One walk down the links: each kind of name from the first entry that has one, as
	 * three of dwarf_attr_integrate's walks, one per kind, would find it. */
	const char *found[3] = {NULL, NULL, NULL};  /* linkage name, MIPS's, name */
	int seen[3] = {0, 0, 0};
	struct unit u;
	struct dieattrs d;
	*linkage = 0;
	if (read_die_at(dr, die, &u, &d))
		return NULL;
	for (int chain = 0; chain < hops; chain++) {
		const struct aval *kind[3] = {&d.linkage, &d.mips_linkage, &d.name};
		for (int k = 0; k < 3; k++)
			if (!seen[k] && kind[k]->cls != A_NONE) {
				seen[k] = 1;    /* there, if not a string: dwarf_formstring fails */
				found[k] = aval_string(&u, kind[k]);
			}
		if (seen[0] && seen[1] && seen[2])
			break;
		const struct aval *link = d.origin.cls != A_NONE ? &d.origin : &d.spec;
		uint64_t to = link->cls == A_REF && link->v < u.end - u.off ? u.off + link->v
			    : link->cls == A_REF_ADDR ? link->v : UINT64_MAX;
		if (to == UINT64_MAX)
			break;
		if (chain == 0 && hops == 16 && !seen[0] && !seen[1] && !seen[2])
			return origin_name(dr, to, linkage);   /* all from there on */
		if (chain + 1 == hops) {
			damaged(dr, die, "a chain of more than 16 DW_AT_abstract_origin or "
				"DW_AT_specification links from the entry at this offset (a loop?)");
			break;
		}
		if (read_die_at(dr, to, &u, &d))
			break;
	}
	for (int k = 0; k < 3; k++)
		if (found[k]) {
			*linkage = k < 2;
			return found[k];
		}
	return NULL;
}

/* The name found from the entry at DIE on with 15 links left, that of an entry without
 * names of its own that links there (an inlined copy's abstract origin): remembered, as
 * many copies share one origin. */
static const char *origin_name(struct dwreader *dr, uint64_t die, int *linkage)
{
	struct dwnames *m = &dr->names;
	if (2 * (m->n + 1) > m->cap) {
		struct dwnames old = *m;
		m->cap = old.cap ? 2 * old.cap : 256;
		m->v = xcalloc(m->cap, sizeof *m->v);
		m->n = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.v[i].die_plus1)
				*origin_slot(m, old.v[i].die_plus1 - 1) = old.v[i], m->n++;
		free(old.v);
	}
	struct dwname *e = origin_slot(m, die);
	if (!e->die_plus1) {
		int l;
		e->name = name_from(dr, die, 15, &l);
		e->linkage = l;
		e->die_plus1 = die + 1;
		m->n++;
	}
	*linkage = e->linkage;
	return e->name;
}

/* The name of the function whose entry is at DIE: its linkage name (*LINKAGE set) if it or
 * an entry it links to has one, else its DW_AT_name, found the same way; NULL if none. */
const char *dwreader_name(struct dwreader *dr, uint64_t die, int *linkage)
{
	return name_from(dr, die, 16, linkage);
}

const char *dwreader_origin_name(struct dwreader *dr, uint64_t origin, int *linkage)
{
	return origin_name(dr, origin, linkage);
}

void dwreader_init(struct dwreader *dr, const struct dwsecs *s)
{
	memset(dr, 0, sizeof *dr);
	dr->s = *s;
	dr->abbrev_budget = 4 * (uint64_t)s->abbrev_size + 4096;
	dr->range_budget = (uint64_t)s->ranges_size + s->rnglists_size + s->info_size + 4096;
}

void dwreader_release(struct dwreader *dr)
{
	for (size_t i = 0; i < dr->tabs_cap; i++)
		abbrevs_free(dr->tabs[i]);
	free(dr->tabs);
	free(dr->units);
	free(dr->last);
	free(dr->names.v);
	memset(dr, 0, sizeof *dr);
}
