/* Reading gmon.out files: GNU format version 1 (tags 0, 1, 2), 4.4BSD and old BSD.
 * Every field is decoded with its width and the byte order of the ELF file. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "error.h"
#include "gmon_io.h"

#define GMON_MAGIC "gmon"
#define BSD44_VERSION 0x00051879u

/* A histogram record's bins as read (which histogram, where its bins are in the file),
 * to judge saturation on what one file adds to each bin. */
struct binrec {
	unsigned hist;
	size_t off;
	uint32_t n;
	int has_ffff;              /* a bin of this record is 0xffff */
};

struct reader {
	const char *name;
	const unsigned char *buf;
	size_t len, off;
	int big_endian, is64;
	struct binrec *recs;       /* this file's histogram records */
	size_t nrecs, recs_cap;
};

static int need(struct reader *r, size_t n, const char *what)
{
	if (r->len - r->off < n)
		return error("%s: offset %zu: unexpected end of file in %s (%zu of %zu bytes)",
			     r->name, r->off, what, r->len - r->off, n);
	return 0;
}

static uint64_t get_n(struct reader *r, unsigned n)
{
	uint64_t v = 0;
	const unsigned char *p = r->buf + r->off;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[r->big_endian ? n - 1 - i : i] << (8 * i);
	r->off += n;
	return v;
}

static int rd(struct reader *r, unsigned n, uint64_t *v, const char *what)
{
	if (need(r, n, what))
		return -1;
	*v = get_n(r, n);
	return 0;
}

static int rd_vma(struct reader *r, uint64_t *v, const char *what)
{
	return rd(r, r->is64 ? 8 : 4, v, what);
}

/* Appended in file order (gprof's order, in which the bins are assigned), the array
 * doubling; found again by range through p->hidx. */
static struct hist *add_hist(struct profile *p, uint64_t lo, uint64_t hi, uint32_t nbins)
{
	if (p->nhists == p->hists_cap) {
		p->hists_cap = p->hists_cap ? 2 * p->hists_cap : 4;
		p->hists = xrealloc(p->hists, (size_t)p->hists_cap * sizeof *p->hists);
	}
	struct hist *h = &p->hists[p->nhists];
	h->lowpc = lo;
	h->highpc = hi;
	h->num_bins = nbins;
	h->sample = xcalloc(nbins ? nbins : 1, sizeof *h->sample);
	hidx_add(&p->hidx, p->hists, p->nhists++);
	return h;
}

/* Histogram header checks shared by all formats; returns the record to add into. */
static int hist_header(struct profile *p, struct reader *r, size_t at, uint64_t lo,
		       uint64_t hi, uint32_t nbins, uint32_t rate, const char *dim,
		       char abbrev, struct hist **out)
{
	if (nbins == 0)
		return error("%s: offset %zu: histogram record with 0 bins", r->name, at);
	/* A reversed range (highpc below lowpc) is read as gprof reads it: the difference
	 * wraps around, the bins are huge, every symbol gets a sliver of time. */
	if (hi < lo)
		warning("%s: offset %zu: histogram range 0x%llx..0x%llx is reversed; times are "
			"meaningless (read as gprof reads it)", r->name, at,
			(unsigned long long)lo, (unsigned long long)hi);
	if ((uint64_t)nbins * 2 > r->len - r->off)
		return error("%s: offset %zu: histogram of %u bins runs past the end of the "
			     "file (%zu bytes left)", r->name, at, nbins, r->len - r->off);
	double scale = (double)((hi - lo) / 2) / nbins;
	if (p->nhists == 0 && !p->have_rate) {
		p->hz = rate;
		p->have_rate = 1;
		memcpy(p->dimension, dim, 15);
		p->dimension[15] = 0;
		p->abbrev = abbrev;
		p->hist_scale = scale;
	} else {
		if (strncmp(dim, p->dimension, 15))
			return error("%s: offset %zu: dimension unit changed between histogram "
				     "records (from '%s' to '%.15s')", r->name, at, p->dimension, dim);
		if (abbrev != p->abbrev)
			return error("%s: offset %zu: dimension abbreviation changed between "
				     "histogram records", r->name, at);
		if (fabs(p->hist_scale - scale) > 0.000001)
			return error("%s: offset %zu: different scales in histogram records",
				     r->name, at);
		if (rate != p->hz)
			warning("%s: offset %zu: profiling rate %u differs from the first "
				"histogram's %u; using %u (as gprof does)", r->name, at, rate, p->hz,
				p->hz);
	}
	unsigned same = hidx_find(&p->hidx, p->hists, lo, hi);
	struct hist *h = same == HIDX_NONE ? NULL : &p->hists[same];
	if (!h) {
		if (hidx_overlap(&p->hidx, p->hists, lo, hi) != HIDX_NONE)
			return error("%s: offset %zu: histogram 0x%llx..0x%llx overlaps an "
				     "earlier one", r->name, at, (unsigned long long)lo,
				     (unsigned long long)hi);
		h = add_hist(p, lo, hi, nbins);
	} else if (h->num_bins != nbins) {
		return error("%s: offset %zu: histogram for the same range with %u bins "
			     "instead of %u", r->name, at, nbins, h->num_bins);
	}
	*out = h;
	return 0;
}

static void read_bins(struct reader *r, struct profile *prof, struct hist *h)
{
	const unsigned char *p = r->buf + r->off;
	int ffff = 0;
	/* (what the bins add up to is summed only when the file's counters need it:
	 * bins_sum; most bins are empty, and are skipped four at a time) */
	int hi = r->big_endian ? 0 : 1;      /* the more significant byte of each bin */
	for (uint32_t i = 0, n = h->num_bins; i < n;) {
		uint64_t w;
		if (n - i >= 4 && (memcpy(&w, p + 2 * (size_t)i, 8), w == 0)) {
			i += 4;
			continue;
		}
		unsigned v = (unsigned)p[2 * (size_t)i + hi] << 8 | p[2 * (size_t)i + !hi];
		h->sample[i++] += v;
		if (v == 0xffff)
			ffff = 1;
	}
	if (r->nrecs == r->recs_cap) {
		r->recs_cap = r->recs_cap ? 2 * r->recs_cap : 8;
		r->recs = xrealloc(r->recs, r->recs_cap * sizeof *r->recs);
	}
	r->recs[r->nrecs++] = (struct binrec){(unsigned)(h - prof->hists), r->off, h->num_bins, ffff};
	r->off += (size_t)h->num_bins * 2;
}

static void add_arc(struct profile *p, uint64_t from, uint64_t self, uint64_t count)
{
	if (p->narcs == p->arcs_alloc) {
		p->arcs_alloc = p->arcs_alloc ? 2 * p->arcs_alloc : 1024;
		p->arcs = xrealloc(p->arcs, p->arcs_alloc * sizeof *p->arcs);
	}
	p->arcs[p->narcs++] = (struct raw_arc){from, self, count};
}

/* The header's 12 spare bytes at offset 8: the project's target writes three u32 there
 * (file byte order): samples taken, profiler-overhead samples (their PC was in the
 * profiling package's own code: counted, in no bin), and in the third word the arcs not
 * recorded (bits 0-23) under a check byte (bits 24-31, COUNTERS_CHECK).  GNU gprof
 * ignores them; glibc writes zeros; gprof -s leaves them uninitialised (counters_trust
 * tells its garbage from counters). */
static int read_counters(struct reader *r, struct gmon_file_info *fi)
{
	uint64_t samples, overhead, arcs;
	if (rd(r, 4, &samples, "header") || rd(r, 4, &overhead, "header") ||
	    rd(r, 4, &arcs, "header"))
		return -1;
	fi->samples_total = (uint32_t)samples;
	fi->samples_overhead = (uint32_t)overhead;
	fi->counters_marked = (arcs >> 24) == gmon_counters_check((uint32_t)samples,
								   (uint32_t)overhead,
								   (uint32_t)arcs & 0xffffff);
	fi->arcs_dropped = fi->counters_marked ? (uint32_t)arcs & 0xffffff : (uint32_t)arcs;
	return 0;
}

/* A GNU histogram record (tag 0, at offset AT): its header, then its bins. */
static int gnu_hist_record(struct profile *p, struct reader *r, struct gmon_file_info *fi,
			   size_t at)
{
	uint64_t lo, hi, nb, rate;
	char dim[15], abbrev;
	if (rd_vma(r, &lo, "histogram header") || rd_vma(r, &hi, "histogram header") ||
	    rd(r, 4, &nb, "histogram header") || rd(r, 4, &rate, "histogram header") ||
	    need(r, 16, "histogram header"))
		return -1;
	memcpy(dim, r->buf + r->off, 15);
	abbrev = (char)r->buf[r->off + 15];
	r->off += 16;
	struct hist *h;
	if (hist_header(p, r, at, lo, hi, (uint32_t)nb, (uint32_t)rate, dim, abbrev, &h))
		return -1;
	read_bins(r, p, h);
	fi->nhist++;
	p->input_hist = 1;
	return 0;
}

/* A GNU call-graph arc record (tag 1). */
static int gnu_arc_record(struct profile *p, struct reader *r, struct gmon_file_info *fi)
{
	uint64_t from, self, count;
	if (rd_vma(r, &from, "call-graph arc") || rd_vma(r, &self, "call-graph arc") ||
	    rd(r, 4, &count, "call-graph arc"))
		return -1;
	add_arc(p, from, self, count);
	fi->narcs++;
	p->input_cg = 1;
	return 0;
}

/* A GNU basic-block record (tag 2, at offset AT): a count, then address/count pairs. */
static int gnu_bb_record(struct profile *p, struct reader *r, struct gmon_file_info *fi,
			 size_t at)
{
	uint64_t n, addr, cnt;
	if (rd(r, 4, &n, "basic-block record"))
		return -1;
	size_t each = r->is64 ? 16 : 8;
	if (n > (r->len - r->off) / each)
		return error("%s: offset %zu: basic-block record of %llu entries runs past the "
			     "end of the file", r->name, at, (unsigned long long)n);
	if (p->nbbs + n > p->bbs_alloc) {
		p->bbs_alloc = p->nbbs + n + p->bbs_alloc;
		p->bbs = xrealloc(p->bbs, p->bbs_alloc * sizeof *p->bbs);
	}
	for (uint64_t i = 0; i < n; i++) {
		if (rd_vma(r, &addr, "basic-block record") || rd_vma(r, &cnt, "basic-block record"))
			return -1;
		p->bbs[p->nbbs++] = (struct raw_bb){addr, cnt};
	}
	fi->nbbs++;
	p->input_bb = 1;
	return 0;
}

static int parse_gnu(struct profile *p, struct reader *r, struct gmon_file_info *fi)
{
	uint64_t v;
	r->off = 4;
	if (rd(r, 4, &v, "header version"))
		return -1;
	if (v != 1 && v != 0)
		return error("%s: offset 4: unsupported gmon version %llu (expected 1)", r->name,
			     (unsigned long long)v);
	fi->version = (int)v;
	if (read_counters(r, fi))
		return -1;
	while (r->off < r->len) {
		size_t at = r->off;
		int tag = r->buf[r->off++], rc;
		if (tag == 0)
			rc = gnu_hist_record(p, r, fi, at);
		else if (tag == 1)
			rc = gnu_arc_record(p, r, fi);
		else if (tag == 2)
			rc = gnu_bb_record(p, r, fi, at);
		else
			rc = error("%s: offset %zu: bad record tag %d (file corrupted?)", r->name,
				   at, tag);
		if (rc)
			return -1;
	}
	return 0;
}

static int parse_bsd(struct profile *p, struct reader *r, struct gmon_file_info *fi)
{
	uint64_t lo, hi, ncnt, version, rate = 0;
	size_t ptr = r->is64 ? 8 : 4, hdr;
	r->off = 0;
	if (r->len < 2 * ptr + 8)
		return error("%s: offset %zu: file too short to be a gmon file (the BSD header "
			     "needs %zu bytes)", r->name, r->len, 2 * ptr + 8);
	rd_vma(r, &lo, "BSD header");
	rd_vma(r, &hi, "BSD header");
	rd(r, 4, &ncnt, "BSD header");
	rd(r, 4, &version, "BSD header");
	if (version == BSD44_VERSION) {
		if (rd(r, 4, &rate, "BSD header"))
			return -1;
		if (p->bsd_seen && rate != p->hz)
			return error("%s: offset %zu: profiling rate %llu incompatible with the "
				     "first gmon file's %u", r->name, 2 * ptr + 8,
				     (unsigned long long)rate, p->hz);
		if (rate == 0) {
			/* gprof's HZ_WRONG: it asks the kernel (hertz()), as for old BSD */
			warning("%s: offset %zu: profiling rate 0: assuming 100 Hz (as gprof on "
				"Linux)", r->name, 2 * ptr + 8);
			rate = 100;
		}
		hdr = 2 * ptr + 4 + 4 + 4 + 12;
		fi->format = 1;
	} else {
		hdr = 2 * ptr + 4;
		fi->format = 2;
		rate = 100;        /* gprof asks the kernel (hertz()); Linux answers 100 */
	}
	if (r->len < hdr || ncnt < hdr)
		return error("%s: offset %zu: BSD header claims %llu bytes, needs at least %zu",
			     r->name, 2 * ptr, (unsigned long long)ncnt, hdr);
	/* gprof 2.40 holds a later BSD file to the first one's range and number of bins
	 * (an old BSD and a 4.4BSD header of as many bins go together) */
	uint64_t nb = (ncnt - hdr) / 2;
	if (p->bsd_seen && (lo != p->bsd_lo || hi != p->bsd_hi || nb != p->bsd_nbins))
		return error("%s: offset 0: BSD header (0x%llx..0x%llx, %llu bins) incompatible "
			     "with the first gmon file's (0x%llx..0x%llx, %llu bins)", r->name,
			     (unsigned long long)lo, (unsigned long long)hi,
			     (unsigned long long)nb, (unsigned long long)p->bsd_lo,
			     (unsigned long long)p->bsd_hi, (unsigned long long)p->bsd_nbins);
	/* gprof compares the range in 2-byte units before it reads any bin, and stops */
	if (lo / 2 > hi / 2)
		return error("%s: offset 0: histogram range 0x%llx..0x%llx is reversed: does not "
			     "appear to be in gmon.out format", r->name, (unsigned long long)lo,
			     (unsigned long long)hi);
	if (!p->bsd_seen) {
		p->bsd_seen = 1;
		p->bsd_lo = lo;
		p->bsd_hi = hi;
		p->bsd_nbins = nb;
	}
	r->off = hdr;
	/* A BSD file is a histogram and arcs, however many of each it has: gprof sets
	 * gmon_input to both (so -q prints a call graph of <spontaneous> entries, and -s
	 * writes no basic-block records of an earlier file). */
	p->input_hist = p->input_cg = 1;
	p->input_bb = 0;
	uint32_t nbins = (uint32_t)((ncnt - hdr) / 2);
	if (nbins) {
		char dim[15] = "seconds";
		struct hist *h;
		if (fi->format == 2 && p->have_rate == 0)
			warning("%s: old BSD format has no clock rate: assuming 100 Hz (as gprof on "
				"Linux)", r->name);
		if (hist_header(p, r, 0, lo, hi, nbins, (uint32_t)rate, dim, 's', &h))
			return -1;
		read_bins(r, p, h);
		fi->nhist++;
	}
	size_t each = 2 * ptr + (r->is64 ? 8 : 4);
	while (r->len - r->off >= each) {
		uint64_t from, self, count;
		rd_vma(r, &from, "arc");
		rd_vma(r, &self, "arc");
		rd(r, r->is64 ? 8 : 4, &count, "arc");
		add_arc(p, from, self, count);
		fi->narcs++;
	}
	if (r->off != r->len)
		warning("%s: offset %zu: %zu trailing bytes ignored", r->name, r->off,
			r->len - r->off);
	return 0;
}

/* What this file's histogram records add up to. */
static uint64_t bins_sum(const struct reader *r)
{
	uint64_t sum = 0;
	int hi = r->big_endian ? 0 : 1;
	for (size_t i = 0; i < r->nrecs; i++) {
		const unsigned char *b = r->buf + r->recs[i].off;
		for (uint32_t k = 0; k < r->recs[i].n; k++, b += 2)
			sum += (unsigned)b[hi] << 8 | b[!hi];
	}
	return sum;
}

/* Whether a bin got exactly 65535 from this file.  Saturation is judged on what the
 * file adds to each bin, over all its records for the range: a sum written by -s splits a
 * bin over 65535 into several records, whose first ones hold 0xffff without being
 * saturated.  A range with one record (the usual case) is judged on the record alone. */
static int bins_saturated(const struct reader *r, const struct profile *p)
{
	size_t *count = xcalloc(p->nhists + 1, sizeof *count);
	uint64_t **sum = xcalloc(p->nhists + 1, sizeof *sum);
	int hi = r->big_endian ? 0 : 1, sat = 0;
	for (size_t i = 0; i < r->nrecs; i++)
		count[r->recs[i].hist]++;
	for (size_t i = 0; i < r->nrecs; i++) {
		const struct binrec *a = &r->recs[i];
		if (count[a->hist] == 1) {
			sat |= a->has_ffff;
			continue;
		}
		uint32_t n = p->hists[a->hist].num_bins;
		if (!sum[a->hist])
			sum[a->hist] = xcalloc(n ? n : 1, sizeof **sum);
		const unsigned char *b = r->buf + a->off;
		for (uint32_t k = 0; k < a->n && k < n; k++, b += 2)
			sum[a->hist][k] += (unsigned)b[hi] << 8 | b[!hi];
	}
	for (unsigned h = 0; h < p->nhists; h++) {
		for (uint32_t k = 0; sum[h] && k < p->hists[h].num_bins; k++)
			sat |= sum[h][k] == 0xffff;
		free(sum[h]);
	}
	free(sum);
	free(count);
	return sat;
}

/* The check byte over the target's counters: 0xA5 and every byte of the three values
 * (the arcs' 24 bits), XORed.  It tells them from gprof -s's uninitialised bytes. */
unsigned gmon_counters_check(uint32_t samples, uint32_t overhead, uint32_t arcs)
{
	uint32_t x = samples ^ overhead ^ (arcs & 0xffffff);
	return 0xa5u ^ (x & 0xff) ^ ((x >> 8) & 0xff) ^ ((x >> 16) & 0xff) ^ (x >> 24);
}

/* Are the spare bytes the target's counters?  Every sample is in a bin, overhead or
 * outside the range: samples >= overhead + the bins' sum, marked or not.  A file without
 * the check byte (written before it, or gprof -s's garbage: there the histogram's high
 * address and bin count, or a heap pointer) is believed only when at most half of its
 * samples fell outside the range; garbage has thousands to billions "outside". */
static int counters_trust(const struct gmon_file_info *fi)
{
	uint64_t accounted = (uint64_t)fi->samples_overhead + fi->samples_binned;
	if (!fi->samples_total && !fi->samples_overhead)
		return 1;               /* glibc's zeros; or calls lost before any sample */
	if (accounted > fi->samples_total)
		return 0;
	return fi->counters_marked || fi->samples_total - accounted <= accounted;
}

/* What the target counted but charged to no function and no arc, for one file.  Samples
 * = overhead + the bins' sum + samples outside the range (or refused by a full bin).  The
 * arcs word counts the calls mcount saw and kept in no arc (target/src/arcs.c): a call
 * site outside every profiled range (an interrupt handler's entry, whose return address
 * is an exception-return value, and what it tail-calls; code outside the ranges, a ROM
 * or the C library calling back), and calls that found the arc table full.  The word
 * holds their sum: only gdb's gprof_dump, reading the target's counters, tells them
 * apart. */
static void report_loss(const struct gmon_file_info *fi)
{
	uint64_t accounted = (uint64_t)fi->samples_overhead + fi->samples_binned;
	uint64_t outside = fi->samples_total > accounted ? fi->samples_total - accounted : 0;
	if (outside)
		warning("%s: %llu of %u samples fell outside the histogram range (or in a full "
			"bin): they are in no function", fi->name, (unsigned long long)outside,
			fi->samples_total);
	if (fi->arcs_dropped)
		warning("%s: %u calls are in no call arc: their caller lay outside the profiled "
			"range (an interrupt entry, or a tail call from one; code outside the "
			"range, such as a ROM or the C library calling back), or the target's arc "
			"table was full (gdb's gprof_dump counts the two apart)", fi->name,
			fi->arcs_dropped);
}

/* FORMAT: 0 auto, 1 GNU ("magic"), 2 BSD. */
int gmon_parse(struct profile *p, const char *name, const unsigned char *buf, size_t len,
	       int format)
{
	struct reader r = {.name = name, .buf = buf, .len = len, .big_endian = p->big_endian,
			   .is64 = p->is64};
	p->files = xrealloc(p->files, (p->nfiles + 1) * sizeof *p->files);
	struct gmon_file_info *fi = &p->files[p->nfiles++];
	memset(fi, 0, sizeof *fi);
	fi->name = name;
	int is_gnu = len >= 4 && !memcmp(buf, GMON_MAGIC, 4);
	if (format == 1 && !is_gnu)
		return error("%s: offset 0: bad magic (not a GNU gmon.out file)", name);
	int rc = (is_gnu && format != 2) ? parse_gnu(p, &r, fi) : parse_bsd(p, &r, fi);
	int saturated = 0;
	if (!rc) {
		if (fi->samples_total || fi->samples_overhead)
			fi->samples_binned = bins_sum(&r);
		saturated = bins_saturated(&r, p);
	}
	free(r.recs);
	if (rc)
		return rc;
	if (!counters_trust(fi))
		fi->samples_total = fi->samples_overhead = fi->arcs_dropped = 0;
	report_loss(fi);
	if (saturated)
		warning("%s: histogram bins saturated at 65535 samples: times are too low", name);
	return 0;
}

/* The target's counters summed over the files read, in 64 bits. */
void gmon_counters(const struct profile *p, uint64_t sum[3])
{
	sum[0] = sum[1] = sum[2] = 0;
	for (unsigned i = 0; i < p->nfiles; i++) {
		sum[0] += p->files[i].samples_total;
		sum[1] += p->files[i].samples_overhead;
		sum[2] += p->files[i].arcs_dropped;
	}
}

/* One line for all the files read: the share of the samples taken in the profiling
 * package's own code.  Nothing when no file has the target's counters. */
void gmon_report_overhead(const struct profile *p)
{
	uint64_t c[3];
	gmon_counters(p, c);
	if (!c[0] || quiet)
		return;
	fprintf(stderr, "%s: profiler overhead: %.1f%% of samples (%llu of %llu), not charged "
		"to any function\n", progname, 100.0 * (double)c[1] / (double)c[0],
		(unsigned long long)c[1], (unsigned long long)c[0]);
}

/* A regular file mapped whole (its pages mapped at once: no copy, no fault per page);
 * 0 if it cannot be (a pipe, an empty file), and the caller reads it instead. */
static const unsigned char *map_file(FILE *f, size_t *len)
{
	struct stat st;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > SIZE_MAX)
		return NULL;
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
		       fileno(f), 0);
	if (m == MAP_FAILED)
		return NULL;
	*len = (size_t)st.st_size;
	return m;
}

int gmon_read(struct profile *p, const char *path, int format)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return error_errno("%s", path);
	size_t len = 0;
	const unsigned char *mapped = map_file(f, &len);
	if (mapped) {
		fclose(f);
		int rc = gmon_parse(p, path, mapped, len, format);
		munmap((void *)mapped, len);
		return rc;
	}
	size_t cap = 1 << 16;
	unsigned char *buf = xmalloc(cap);
	for (;;) {
		size_t n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (len < cap)
			break;
		cap *= 2;
		buf = xrealloc(buf, cap);
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return error("%s: read error", path);
	}
	int rc = gmon_parse(p, path, buf, len, format);
	free(buf);
	return rc;
}

void profile_release(struct profile *p)
{
	for (unsigned i = 0; i < p->nhists; i++)
		free(p->hists[i].sample);
	free(p->hists);
	hidx_release(&p->hidx);
	free(p->arcs);
	free(p->bbs);
	free(p->files);
	memset(p, 0, sizeof *p);
}
