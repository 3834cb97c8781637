/* gmon.c: the profile data of gmon.out files (GNU, 4.4BSD and old BSD formats), read
 * and summed. */
#ifndef TGPROF_GMON_IO_H
#define TGPROF_GMON_IO_H

#include <stddef.h>
#include <stdint.h>
#include "histidx.h"

struct hist {
	uint64_t lowpc, highpc;
	uint32_t num_bins;
	uint64_t *sample;          /* sums (gprof keeps int; we keep wide sums) */
};

struct raw_arc {
	uint64_t from, self;
	uint64_t count;
};

struct raw_bb {
	uint64_t addr, count;
};

struct gmon_file_info {
	const char *name;
	int version;
	int nhist, narcs, nbbs;
	int format;                /* 0 GNU, 1 4.4BSD, 2 old BSD */
	uint32_t prof_rate;
	/* The project's target's counters, from the GNU header's spare bytes (0 in other
	 * files): samples taken, profiler-overhead samples (in no bin), arcs not recorded. */
	uint32_t samples_total, samples_overhead, arcs_dropped;
	int counters_marked;       /* the arcs word's check byte is right (doc/format.md) */
	uint64_t samples_binned;   /* what this file added to the histogram bins */
};

struct profile {
	int is64, big_endian;
	struct hist *hists;
	unsigned nhists, hists_cap;
	struct hist_index hidx;    /* the records by range (histidx.c) */
	int have_rate;
	unsigned hz;
	char dimension[16];
	char abbrev;
	double hist_scale;
	struct raw_arc *arcs;
	size_t narcs, arcs_alloc;
	struct raw_bb *bbs;        /* basic-block counts, in file order */
	size_t nbbs, bbs_alloc;
	struct gmon_file_info *files;
	unsigned nfiles;
	int input_hist, input_cg, input_bb;
	/* The first BSD file's range and bins, which gprof holds every later BSD file to */
	int bsd_seen;
	uint64_t bsd_lo, bsd_hi, bsd_nbins;
};

int gmon_read(struct profile *p, const char *path, int format);
int gmon_parse(struct profile *p, const char *name, const unsigned char *buf, size_t len,
	       int format);
void gmon_counters(const struct profile *p, uint64_t sum[3]);
unsigned gmon_counters_check(uint32_t samples, uint32_t overhead, uint32_t arcs);
void gmon_report_overhead(const struct profile *p);
void profile_release(struct profile *p);

#endif
