/*
 * The gmon.out image of the current profiling data, produced on demand in pieces so that
 * an extraction path (TFTP blocks, a console dump, a RAM copy) never needs the whole file
 * in memory.
 *
 * Format: GNU gmon.out version 1 in the target's byte order and address width:
 *   header    "gmon", u32 version = 1, 12 spare bytes, which this package fills with
 *             u32 samples (all), u32 profiler-overhead samples (in no bin), u32 arcs
 *             not recorded (table full + call site outside the range); GNU gprof
 *             ignores them. Samples outside the range (or refused by a full bin) =
 *             samples - overhead - the bins' sum
 *   tag 0     histogram: addr low_pc, addr high_pc, u32 bins, u32 prof_rate,
 *             char[15] "seconds", char 's', then u16 bins
 *   tag 1     one record per arc: addr from_pc (call site), addr self_pc, u32 count
 */
#ifndef CYGONCE_PROFILE_GMON_H
#define CYGONCE_PROFILE_GMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where the last read left off, so sequential reads cost O(bytes read). */
struct profile_gmon_reader {
    const struct profile_state *state;
    uint32_t arc_ordinal;   /* the ordinal (file order) of the arc at arc_slot */
    uint32_t arc_slot;      /* the arc table slot the cursor is at */
    uint32_t arc_index;     /* 0 until the cursor is set */
    uint32_t generation;    /* a snapshot's: profile_on/profile_off since then end it */
};

/** Start reading the live profiling data. */
void profile_gmon_reader_init(struct profile_gmon_reader *r);

/** Size of the whole image in bytes (0 if profiling is off). */
size_t profile_gmon_size(const struct profile_gmon_reader *r);

/**
 * Copy up to len bytes of the image starting at offset into buf.
 * @return the bytes copied: len, or fewer at the end of the image.
 */
size_t profile_gmon_read(struct profile_gmon_reader *r, size_t offset, void *buf, size_t len);

/** Nonzero if r reads a snapshot that profile_on()/profile_off() has ended. */
int profile_snapshot_ended(const struct profile_gmon_reader *r);

/**
 * Freeze the current data for an extraction that takes a while: reads through r then see
 * the frozen data while recording goes on into a spare set (allocated by profile_on when
 * the configuration has a transfer path that needs it, e.g. CYGPKG_PROFILE_TFTP).
 * @retval 0        r reads the snapshot
 * @retval -ENODATA profiling is off
 * @retval -EBUSY   another snapshot is outstanding
 * @retval -ENOSPC  this configuration has no spare set
 */
int profile_snapshot_take(struct profile_gmon_reader *r);

/* How a snapshot ends (profile_snapshot_release's delivered). */
enum profile_snapshot_end {
    PROFILE_SNAPSHOT_MERGED = 0,        /* not delivered: merged back, nothing lost */
    PROFILE_SNAPSHOT_DELIVERED = 1,     /* every file of it reached the user */
    PROFILE_SNAPSHOT_DELIVERED_GMON = 2 /* gmon.out did; its gmon.tasks (and in the
                                           stack-profiling mode its gmon.stacks) is kept
                                           for the TFTP daemon to serve after it */
};

/**
 * End a snapshot; delivered says how (an enum profile_snapshot_end; any other nonzero value
 * is PROFILE_SNAPSHOT_DELIVERED). Delivered: the data reached the user and is dropped (the
 * counts start again from what was recorded since the snapshot); with
 * PROFILE_SNAPSHOT_DELIVERED_GMON, the task table and the tree's counts that go with that
 * gmon.out are kept (one such set: it replaces the one kept before) for `tftp get
 * gmon.tasks` and `get gmon.stacks`.
 * PROFILE_SNAPSHOT_MERGED (0): it is merged back into the live data, so nothing is lost. A
 * snapshot that profile_on()/profile_off() ended meanwhile is only forgotten (its memory is
 * not touched).
 */
void profile_snapshot_release(struct profile_gmon_reader *r, int delivered);

#ifdef __cplusplus
}
#endif
#endif
