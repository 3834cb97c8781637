/* The halting sweep's firmware (tests/qemu/test_sweep.py): what its two files share. */
#ifndef TESTS_QEMU_SWEEP_H
#define TESTS_QEMU_SWEEP_H

#include <stdint.h>

#define SWEEP_ROUNDS      64   /* snapshot transfers, delivered and abandoned in turn: a
                                  halt runs the target to the end of its section, so a
                                  section of N instructions needs N passes */
#define SWEEP_WORK        12   /* work() calls between transfers */
#define SWEEP_FAST_US     40   /* the fast timer: a -pg handler that nests anywhere */
#define SWEEP_SAMPLE_US   25   /* the profile timer */
#define SWEEP_HOT          4   /* buckets brought past 0xFFFF in each round (fewer than the
                                  overflow entries: none sticks) */

/* What the delivered snapshots held, summed by the firmware from their gmon.out images. */
struct sweep_totals {
    uint32_t samples;        /* header: samples */
    uint32_t overhead;       /* header: profiler-overhead samples (in no bin) */
    uint32_t out_of_range;   /* samples outside the range: samples - overhead - bins */
    uint32_t in_bins;        /* sum of the histogram's bins */
    uint32_t calls;          /* sum of the arcs' counts */
    uint32_t not_recorded;   /* header: calls not recorded (table full, call site outside) */
    uint32_t files;
};

/* sweep_support.c (no -pg): one transfer of a snapshot, read 512 bytes at a time with
 * between() called after each block; delivered or abandoned. */
void sweep_transfer(int deliver, void (*between)(void));
extern struct sweep_totals sweep_delivered;

/* sweep_support.c: profile_reset() (ranges == NULL) or profile_on_ranges(ranges, 2, ...)
 * again, adding what it discards to sweep_discarded first, as one change for gdb. */
struct profile_range;
void sweep_discard(const struct profile_range *ranges);

/* sweep_support.c: brings the bucket of pc (in a profiled range, not the package's code)
 * (every other call past 0xFFFF first) to a bin of 0xFD at once, as that many samples would (counted in
 * sweep_samples_taken), then takes three samples there through __profile_hit: the 8-bit bin
 * fills up and its count goes on in an overflow entry. Nothing while profiling is off. */
void sweep_overflow(uintptr_t pc);
/* sweep_support.c: calls to self (through __profile_mcount, as the stub's slow path makes
 * them) from three call sites at or after lo that share a home slot in the live arc table,
 * counted unequally, so that the third, two slots past its home, is found where the fast
 * paths do not look and takes a fast slot once it has been counted more (arc_promote,
 * both ways); then calls from the first site to a second callee of that home (a fast slot
 * that holds the site's other arc). The calls made (for the true count); nothing while
 * profiling is off. */
uint32_t sweep_crowd(uintptr_t lo, uintptr_t self);
extern struct sweep_totals sweep_discarded;
/* Every sample the profile timer took (counted before __profile_hit sees it). */
extern volatile uint32_t sweep_samples_taken;

#endif
