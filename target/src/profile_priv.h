/*
 * Private to the package: the profiling state shared by profile.c (set-up, reset),
 * hist.c (timer samples), arcs.c (call graph) and gmon.c (serializer). gdb/gprof.gdb reads
 * `profile_state` by field name through the debug info, so renaming a field here means
 * changing the gdb script too.
 */
#ifndef CYGONCE_PROFILE_PRIV_H
#define CYGONCE_PROFILE_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <cyg/profile/opts.h>
#include <cyg/profile/profile.h>
#include <cyg/hal/profile_arch.h>

#define PROFILE_BIN_MAX 0xFFFFu

/*
 * One call-graph arc: 12 bytes on a 32-bit target (eCos used 20). The call site's address
 * is split: its hash slot gives the high part, from_low holds the offset within the slot
 * (HASH_SHIFT <= 16 is asserted in opts.h).
 */
struct profile_arc {
    uintptr_t self_pc;   /* callee: the return address into the instrumented function */
    uint32_t  count;     /* traversals */
    uint16_t  from_low;  /* (caller_pc - low_pc) & slot mask */
    uint16_t  next;      /* index of the next arc in this slot's chain; 0 ends it */
};

/* Arc index 0 means "none", so record 0 is never used and indices fit 16 bits. */
#define PROFILE_ARC_INDEX_MAX 0xFFFFu

struct profile_state {
    /* Fast-path gate, read first by __profile_hit and __profile_mcount: a PC is recorded
     * only if (pc - low_pc) < armed_span. It is open_span while running and 0 while off or
     * while a reset is pending, so one compare both range-checks and gates. */
    uintptr_t low_pc;
    uintptr_t armed_span;
    uintptr_t high_pc;          /* low_pc + nbins << bucket_shift */
    /* The range [start, end) rounded up to the bucket and (with a call graph) to the hash
     * slot, whichever is less: every PC in the range is admitted, none past the bins or
     * the slot heads (a bucket may be far larger than a slot). */
    uintptr_t open_span;

    uint16_t *bins;             /* nbins 16-bit counters, sticking at 0xFFFF */
    uint32_t  nbins;
    uint32_t  bucket_shift;     /* log2 of the bucket size in bytes */
    uint32_t  prof_rate;        /* samples per second: 1e6 / interval the HAL uses */

    uint16_t *heads;            /* nslots chain heads (arc indices), by call-site slot */
    uint32_t  nslots;
    uint32_t  slot_shift;       /* CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT, for readers */
    struct profile_arc *arcs;   /* arcs[1 .. arcs_capacity]; arcs[0] unused */
    uint32_t  arcs_used;        /* highest arc index in use */
    uint32_t  arcs_capacity;

    /* Loss and activity counters (see struct profile_stats). */
    uint32_t samples;
    uint32_t samples_out_of_range;
    uint32_t buckets_saturated;
    uint32_t arcs_dropped;
    uint32_t arcs_out_of_range;

    uint32_t running;           /* profile_on succeeded and profile_off not yet called */
    /* gdb's gprof_reset sets reset_pending = 1 and armed_span = 0 while the target is
     * halted; the next sample or mcount takes the slow path and performs the reset, and
     * so does anything else that adds to the live data (a snapshot's merge-back) first. */
    volatile uint32_t reset_pending;
    /* Nonzero while a masked section outside the two hot paths changes this state or
     * profile_frozen (profile_lock to profile_unlock). Masked sections do not preempt each
     * other, so a halted target is in the middle of a change only if it is halted inside
     * one: busy says so for these, the PC for the hot paths (__profile_hit,
     * __profile_mcount). gdb/gprof.gdb runs the target out of both before it reads. */
    volatile uint32_t busy;
    /* Counts profile_on/profile_off calls (survives them): a snapshot that outlives its
     * sets sees a different generation and never touches their memory again. */
    uint32_t generation;

    /* Samples no longer in the arrays: reset, or handed out in a delivered snapshot.
     * samples_retired + samples (+ a snapshot's) = every sample since profile_on. */
    uint32_t samples_retired;

    void  *memory;              /* the one allocation: one or two sets of arcs, heads, bins */
    size_t memory_bytes;
    size_t set_bytes;           /* bytes of one set */
    void  *spare;               /* a zeroed set for the next snapshot, or NULL */
};

/* Owned by profile.c; the hot paths in hist.c and arcs.c update counters and arrays in it
 * with interrupts masked (or, for samples, from the timer ISR); gdb reads it while halted. */
extern struct profile_state profile_state;

/* Owned by snapshot.c: the data frozen by profile_snapshot_take(), read by gmon.c through
 * a reader, merged back or dropped by profile_snapshot_release(). */
extern struct profile_state profile_frozen;

/* Points s's arcs, heads and bins into the set of memory at base. */
void profile_set_layout(struct profile_state *s, void *base);

/* Adds count traversals of an arc (the call site at offset off of the range), inserting it
 * if new; counts the calls as dropped when the table is full. Interrupts masked. */
void profile_arc_add(struct profile_state *s, uintptr_t off, uintptr_t self_pc, uint32_t count);

/* Slow path shared by hist.c and arcs.c: performs a pending reset.
 * Called with interrupts masked. Returns nonzero if profiling is running afterwards. */
int profile_slow_path(struct profile_state *s);

/* Clears bins, arcs and counters. Called inside a profile_lock section, by the slow path
 * (which also settles a reset gdb asked for). */
void profile_clear(struct profile_state *s);

/* Zeroes the counters and empties the arc table (not the arrays). Interrupts masked. */
void profile_clear_counts(struct profile_state *s);

/*
 * A section that changes the profiling state outside the hot paths: interrupts masked (no
 * other section can run meanwhile) and busy set for gdb. Sections do not nest: code called
 * inside one (the slow path, profile_clear, profile_arc_add) takes no lock of its own.
 */
static inline void profile_set_busy(uint32_t busy)
{
    /* Compiler barriers: no change to the state may move across the flag. */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    profile_state.busy = busy;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline hal_profile_irq_state profile_lock(void)
{
    hal_profile_irq_state irq = hal_profile_irq_save();
    profile_set_busy(1);
    return irq;
}

static inline void profile_unlock(hal_profile_irq_state irq)
{
    profile_set_busy(0);
    hal_profile_irq_restore(irq);
}

/* The size of the gmon.out image of nbins bins and narcs arcs (gmon.c), computed without
 * overflow: profile_on refuses a layout whose image, with its arc table full, does not
 * fit 32 bits. */
uint64_t profile_gmon_bytes(uint64_t nbins, uint64_t narcs);

#endif
