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
#include <cyg/profile/hal.h>   /* the HAL contract: masking, HAL_PROFILE_PC, the arc table */

/* A bucket's counter in the histogram: 8 bits (or 16, CYGNUM_PROFILE_HIST_BIN_BYTES), what
 * the memory is for (a bucket sampled more than that goes on in an overflow entry:
 * hist.c). PROFILE_BIN_MAX is a stuck bin. */
#if CYGNUM_PROFILE_HIST_BIN_BYTES == 1
typedef uint8_t profile_bin_t;
#define PROFILE_BIN_MAX 0xFFu
#else
typedef uint16_t profile_bin_t;
#define PROFILE_BIN_MAX 0xFFFFu
#endif
/* gmon.out's bins are 16-bit whatever the target's are: a bucket of this count or more is
 * written as records of its own (gmon.c). */
#define PROFILE_GMON_BIN_MAX 0xFFFFu

/*
 * One call-graph arc: 12 bytes on every target (eCos used 20), in an open-addressing hash
 * table keyed on the exact call site (<cyg/profile/hal.h>, which an mcount stub may
 * read). Addresses are kept modulo 2^32 as the hook passed them (the Thumb bit may be set):
 * on a 32-bit target that is the address; on a 64-bit one, an address in low_pc's 4 GiB
 * window (profile_arc_fits; a call with an address outside it is counted as not recorded).
 * A free slot is all zero. No call has the key (0, 0): its call site and its callee's
 * return address would both be 0 (mod 2^32), one instruction returning to two places.
 */
struct profile_arc {
    uint32_t from;       /* the call site: the return address into the caller; 0: free slot */
    uint32_t self;       /* the callee: the return address into the instrumented function */
    uint32_t count;      /* traversals, sticking at 0xFFFFFFFF */
};

/*
 * A histogram bucket counted past what its bin holds (hist.c): its true count is
 * high + its bin, up to 2^32-1. A set has PROFILE_OVF_CAPACITY of them, the ovf_used in use
 * first, sorted by bin (the serializer and gdb write them in address order).
 *   - a bin below PROFILE_BIN_MAX (0xFF, or 0xFFFF with 2-byte bins) counts on: the
 *     bucket's true count is high + bin (high 0 without an entry);
 *   - a bin at PROFILE_BIN_MAX is stuck (saturated): it refuses every further sample, which
 *     is counted in samples only. It sticks when no entry is free, or at 2^32-1;
 *   - the sample that would bring a bin to PROFILE_BIN_MAX moves PROFILE_BIN_MAX into the
 *     entry instead and leaves the bin at 0 (profile_bin_store): an entry's high is a
 *     multiple of it and never exceeds 2^32-1 - PROFILE_BIN_MAX, so that no count can wrap.
 */
struct profile_ovf {
    uint32_t bin;        /* the bucket's index in bins */
    uint32_t high;       /* its count beyond the bin */
};
#define PROFILE_OVF_CAPACITY ((uint32_t)CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS)

/* One profiled range of addresses (profile_on_ranges): its bins are bins[first, first +
 * nbins), for [low, low + span), span = nbins << bucket_shift (the range rounded up to the
 * bucket). */
struct profile_hist_range {
    uintptr_t low;
    uintptr_t span;
    uint32_t  first;
    uint32_t  nbins;
};
#define PROFILE_MAX_RANGES ((uint32_t)CYGNUM_PROFILE_MAX_RANGES)

/* The most arc records a table holds (the eCos formula's limit; keeps nslots <= 2^16,
 * which arc_home's arithmetic needs). */
#define PROFILE_ARC_CAPACITY_MAX 0xFFFFu

struct profile_state {
    /* The mcount fast path's gate, read first by __profile_mcount and by an mcount stub
     * that looks arcs up itself (<cyg/profile/hal.h>: these three fields come first,
     * in this order). While profiling runs and no reset is pending: arcs and nslots - 1
     * (the home slots; the last slot is nobody's home, so a home's next slot is always in
     * the table); else profile_arcs_none and 0, so that every lookup misses and takes the
     * slow path. */
    struct profile_arc *armed_arcs;
    uint32_t  armed_homes;
    uint32_t  hash_mul;         /* PROFILE_ARC_HASH_MUL, a constant: loaded with the two above */
    /* The mcount stub's off switch, the word after hash_mul: 0 while profiling is off
     * (never started, stopped, or profile_on failed), so that a stub returns at once
     * without looking anything up; PROFILE_MCOUNT_GATE_OPEN while it runs, a pending
     * reset included (gdb's reset closes the gate above, not this one: those calls must
     * reach the slow path). Read by the stub unmasked: a call that races profile_on or
     * profile_off is counted or not, as one just before or just after it would be. */
    uint32_t  mcount_gate;

    /* The sample fast path's gate, read first by __profile_hit: a PC is recorded only if
     * (pc - low_pc) < armed_span. It is open_span while running and 0 while off or while a
     * reset is pending, so one compare both range-checks and gates. This is the largest
     * range (the only one for profile_on), whose bins come first in bins; the other ranges
     * are the slow path's (hist.c). low_pc's 4 GiB window is the arc table's. */
    uintptr_t low_pc;
    uintptr_t armed_span;
    uintptr_t high_pc;          /* low_pc + its range's nbins << bucket_shift */
    uintptr_t open_span;        /* that range [start, end) rounded up to the bucket */

    /* The package's own code, [__profile_text_start, __profile_text_end) from the linker
     * script (profiler_span 0 without them): a sample there is profiler overhead, counted
     * in samples_overhead and never put in a bin, wherever the profiled range is. */
    uintptr_t profiler_low;
    uintptr_t profiler_span;
    /* HAL_PROFILE_PC as a mask (what gdb applies to the table's addresses, as gmon.c does) */
    uintptr_t pc_mask;

    profile_bin_t *bins;        /* nbins counters, 8-bit or 16-bit (a bucket's true count: hist.c) */
    uint32_t  nbins;            /* of all the ranges */
    uint32_t  nranges;          /* ranges in use: ranges[0 .. nranges), in address order */
    struct profile_hist_range ranges[PROFILE_MAX_RANGES];
    struct profile_ovf *ovf;    /* PROFILE_OVF_CAPACITY entries (NULL if 0), sorted by bin */
    uint32_t  ovf_used;         /* entries in use: ovf[0 .. ovf_used) */
    uint32_t  ovf_capacity;     /* PROFILE_OVF_CAPACITY (for gdb) */
    uint32_t  bucket_shift;     /* log2 of the bucket size in bytes */
    uint32_t  prof_rate;        /* samples per second: 1e6 / interval the HAL uses */

    struct profile_arc *arcs;   /* nslots records; a free slot has from == 0 */
    uint32_t  nslots;           /* arcs_capacity + 1: one slot is always free; homes: all
                                   but the last */
    uint32_t  arcs_used;        /* records in use */
    uint32_t  arcs_capacity;
    uint32_t  probe_max;        /* the farthest any record in use lies from its home slot */

    /* Loss and activity counters (see struct profile_stats). samples counts every sample:
     * samples = the buckets' true counts + samples_out_of_range + samples_overhead + what
     * stuck bins refused. buckets_saturated: bins that went to PROFILE_BIN_MAX (stuck). */
    uint32_t samples;
    uint32_t samples_out_of_range;
    uint32_t samples_overhead;
    uint32_t buckets_saturated;
    uint32_t arcs_dropped;
    uint32_t arcs_out_of_range;

    uint32_t running;           /* profile_on succeeded and profile_off not yet called */
    /* gdb's gprof_reset sets reset_pending = 1 and closes both gates (armed_span = 0,
     * armed_homes = 0, armed_arcs = profile_arcs_none) while the target is halted; the
     * next sample or mcount takes the slow path and performs the reset, and so does
     * anything else that adds to the live data (a snapshot's merge-back) first. */
    volatile uint32_t reset_pending;

    /* Samples no longer in the arrays: reset, or handed out in a delivered snapshot.
     * samples_retired + samples (+ a snapshot's) = every sample since profile_on. */
    uint32_t samples_retired;

    void  *memory;              /* the one allocation: one or two sets */
    size_t memory_bytes;
    size_t set_bytes;           /* bytes of one set: arcs, overflow entries, bins */
    void  *set;                 /* where this state's set starts (profile_set_layout) */
    void  *spare;               /* a zeroed set for the next snapshot, or NULL */

    /* What outlives profile_off (and profile_on's restart): profile_stop forgets every
     * field before this one, and closes the gates. Last, so that "before" is one span. */
    struct profile_lasting {
        /* Nonzero while a masked section outside the two hot paths changes this state or
         * profile_frozen (profile_lock to profile_unlock). Masked sections do not preempt
         * each other, so a halted target is in the middle of a change only if it is halted
         * inside one: busy says so for these, the PC for the hot paths (__profile_hit,
         * __profile_mcount and the mcount stub). gdb/gprof.gdb runs the target out of both
         * before it reads. */
        volatile uint32_t busy;
        /* Counts profile_on/profile_off calls: a snapshot that outlives its sets sees a
         * different generation and never touches their memory again. */
        uint32_t generation;
    } lasting;
};

/* What an mcount stub reads (<cyg/profile/hal.h>), checked here. */
_Static_assert(sizeof(struct profile_arc) == PROFILE_ARC_BYTES &&
               offsetof(struct profile_arc, from) == PROFILE_ARC_FROM &&
               offsetof(struct profile_arc, self) == PROFILE_ARC_SELF &&
               offsetof(struct profile_arc, count) == PROFILE_ARC_COUNT,
               "struct profile_arc must match <cyg/profile/hal.h>");
_Static_assert(offsetof(struct profile_state, armed_arcs) == PROFILE_STATE_ARCS &&
               offsetof(struct profile_state, armed_homes) == PROFILE_STATE_HOMES &&
               offsetof(struct profile_state, hash_mul) == PROFILE_STATE_HASH_MUL,
               "struct profile_state's first fields must match <cyg/profile/hal.h>");
/* What profile_stop keeps is the state's last field: it zeroes the span before it. */
_Static_assert(offsetof(struct profile_state, lasting) + sizeof(struct profile_lasting) ==
               sizeof(struct profile_state), "struct profile_lasting must come last");
_Static_assert(offsetof(struct profile_state, mcount_gate) == PROFILE_STATE_MCOUNT_GATE,
               "the mcount stubs read the gate at PROFILE_STATE_MCOUNT_GATE");

/* The records the closed mcount gate points to (a home and the slot after it): free,
 * never written (owned by profile.c). */
extern const struct profile_arc profile_arcs_none[2];

/* Owned by profile.c; the hot paths in hist.c and arcs.c update counters and arrays in it
 * with interrupts masked (or, for samples, from the timer ISR); gdb reads it while halted. */
extern struct profile_state profile_state;

/* Owned by snapshot.c: the data frozen by profile_snapshot_take(), read by gmon.c through
 * a reader, merged back or dropped by profile_snapshot_release(). */
extern struct profile_state profile_frozen;

/* Every sample since profile_on (profile_get_stats' samples_total). Only a sample moves
 * it: a reset retires samples, a snapshot freezes them and a merge-back or a delivery
 * moves them on, each keeping the sum. In a lock section (or halted). */
static inline uint32_t profile_samples_since_on(void)
{
    return profile_state.samples_retired + profile_state.samples + profile_frozen.samples;
}

/* Bytes of the heap allocation whose failure made the last profile_on() or profile_write()
 * return -ENOMEM (0: they did not), so that a message can say how much was missing
 * (autostart.c) while the API returns only the errno. Set by the one that failed, cleared
 * as each starts; thread context only, as they are. */
extern size_t profile_enomem_bytes;

/*
 * A set of arrays (profile_on allocates one, and a spare for snapshots): its parts in
 * address order, the arc records first (word alignment), then the overflow entries, then
 * the bins. Both profile_set_layout, which places the parts, and snapshot.c, which
 * zeroes a frozen set up to the end of one part in a single span, take the order from
 * profile_set_span.
 */
enum profile_set_part { PROFILE_SET_ARCS, PROFILE_SET_OVF, PROFILE_SET_BINS };

/* Bytes from the start of s's set to the end of part: that part and every one before it. */
static inline size_t profile_set_span(const struct profile_state *s, enum profile_set_part part)
{
    size_t bytes = (size_t)s->nslots * sizeof(struct profile_arc);
    if (part >= PROFILE_SET_OVF)
        bytes += (size_t)PROFILE_OVF_CAPACITY * sizeof(struct profile_ovf);
    if (part >= PROFILE_SET_BINS)
        bytes += (size_t)s->nbins * sizeof(profile_bin_t);
    return bytes;
}

/* Points s's arcs, overflow entries and bins into the set of memory at base. */
void profile_set_layout(struct profile_state *s, void *base);

/* Opens both fast-path gates onto s's current arrays (profiling runs, no reset pending),
 * or closes them. Interrupts masked. */
static inline void profile_arm(struct profile_state *s)
{
    s->armed_span = s->open_span;
#if PROFILE_CALLGRAPH
    s->mcount_gate = PROFILE_MCOUNT_GATE_OPEN;
#endif
    /* (On a 64-bit target, the mcount gate opens only when the table's window is the
     * first 4 GiB: a stub compares a record's zero-extended words with whole addresses.
     * Elsewhere every call takes the slow path, which checks the window; exact, slower.
     * Folded away on a 32-bit target.) */
    if (s->arcs && (uint64_t)s->low_pc >> 32 == 0) {
        s->armed_arcs = s->arcs;
        s->armed_homes = s->nslots - 1;
    }
}

static inline void profile_disarm(struct profile_state *s)
{
    s->mcount_gate = 0;
    s->armed_span = 0;
    s->armed_homes = 0;
    s->armed_arcs = (struct profile_arc *)profile_arcs_none;   /* read, never written */
    s->hash_mul = PROFILE_ARC_HASH_MUL;     /* a constant: whole again after a stop */
}

/* Can the arc table hold the address a? On a 32-bit target always; on a 64-bit one if it
 * lies in the 4 GiB window of low_pc (folded away on a 32-bit target). */
static inline int profile_arc_fits(const struct profile_state *s, uintptr_t a)
{
    return ((uint64_t)(a ^ s->low_pc) >> 32) == 0;
}

/* The address a table entry v (an address mod 2^32) stands for: v in low_pc's window. */
static inline uintptr_t profile_arc_addr(const struct profile_state *s, uint32_t v)
{
    return (uintptr_t)((uint64_t)s->low_pc >> 32 << 32 | v);
}

/* The bin of address pc in s's ranges, or UINT32_MAX if it lies in none (no bin has that
 * index: there are at most 2^32-1). */
static inline uint32_t profile_range_bin(const struct profile_state *s, uintptr_t pc)
{
    for (uint32_t r = 0; r < s->nranges; r++) {
        uintptr_t off = pc - s->ranges[r].low;
        if (off < s->ranges[r].span)
            return s->ranges[r].first + (uint32_t)(off >> s->bucket_shift);
    }
    return UINT32_MAX;
}

/* Is pc the package's own code (a sample there is profiler overhead)? */
static inline int profile_is_overhead(const struct profile_state *s, uintptr_t pc)
{
    return pc - s->profiler_low < s->profiler_span;
}

/* Adds count traversals of the arc from -> self (table entries: addresses mod 2^32, from
 * nonzero), inserting it if new; counts the calls as dropped when the table is full.
 * Interrupts masked, gate open. */
void profile_arc_add(struct profile_state *s, uint32_t from, uint32_t self, uint32_t count);

/* The true count of bucket b of s: its bin plus its overflow entry's high part. */
uint32_t profile_bin_count(const struct profile_state *s, uint32_t b);
/* The first overflow entry of s whose bin is b or above (ovf_used if none). */
uint32_t profile_ovf_lower_bound(const struct profile_state *s, uint32_t b);

/* Sets bucket b's true count to count (or to 2^32-1 if more), in its bin and, past what
 * the bin holds, its overflow entry (taking a free one, or giving it back); stuck (or a
 * count of 2^32-1, or no free entry when one is needed) leaves the bin stuck at
 * PROFILE_BIN_MAX, with what the entry holds beyond it, and counts a bin newly stuck in
 * buckets_saturated. A count below PROFILE_BIN_MAX is never stuck. Interrupts masked (a profile_lock section). */
void profile_bin_store(struct profile_state *s, uint32_t b, uint64_t count, int stuck);

/* Slow path shared by hist.c and arcs.c: performs a pending reset.
 * Called with interrupts masked. Returns nonzero if profiling is running afterwards. */
int profile_slow_path(struct profile_state *s);

/* Clears bins, arcs and counters. Called inside a profile_lock section, by the slow path
 * (which also settles a reset gdb asked for). */
void profile_clear(struct profile_state *s);

/* Zeroes the counters, arcs_used, probe_max and ovf_used (not the arrays: for a set whose
 * arrays are zero already, such as a spare). Interrupts masked. */
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
    profile_state.lasting.busy = busy;
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

#if PROFILE_STACKS
/* Stack-profiling mode (stacks.c). A node of the calling-context tree; its children are a
 * list (first_child, next_sibling). */
struct profile_stack_node {
    uint32_t  parent;           /* 0xFFFFFFFF: a root (a thread's context, a handler) */
    uint32_t  first_child, next_sibling;
    uintptr_t self;             /* the function (0 for a context node) */
    uintptr_t from;             /* its call site's return address; a context's id */
    uint32_t  calls, samples;
};
/* A frame of a shadow stack. */
struct profile_stack_frame {
    uint32_t  node;
    uint16_t  flags;
    uint16_t  level;            /* the exception level it was entered at (0: thread) */
    uintptr_t fn, site;         /* what its exit hook will name */
    uintptr_t sp;               /* the stack pointer its enter hook saw */
};
/* The fast path's hint slots (profile_stacks.hints), and a node's index in one. */
#define PROFILE_STACK_HINTS (1u << (31 - __builtin_clz(CYGNUM_PROFILE_STACKS_NODES)))
#if CYGNUM_PROFILE_STACKS_NODES <= 256
typedef uint8_t profile_stack_hint;
#else
typedef uint16_t profile_stack_hint;
#endif
/* A shadow stack: the handlers' (stacks[0]) or a thread's. depth counts frames past
 * CYGNUM_PROFILE_STACKS_DEPTH too, which are not kept. */
/* A hook window (stacks.c): the last sample's node and PC since the last hook of its
 * context, and the frame that context's last exit hook ended, with that hook's return
 * address. */
struct profile_stack_window {
    uint32_t  sample_node, exited_node, exited_parent;
    uintptr_t sample_pc, exited_ret;
};
struct profile_shadow_stack {
    uintptr_t context;          /* the thread's id (profile_task_switch) */
    uint32_t  context_node;
    uint32_t  depth;
    /* Its hooks' window (stacks.c), before the frames so that v6-M reaches it by an
     * immediate offset: each context keeps its own, since a handler's hooks must not close
     * the window of the thread it interrupted. */
    struct profile_stack_window window;
    struct profile_stack_frame frames[CYGNUM_PROFILE_STACKS_DEPTH];
};
struct profile_stacks {
    uint32_t nodes_used;
    uint32_t roots;             /* the handlers' roots (contexts are apart) */
    uint32_t thread;            /* the running thread's stack: stacks[thread] */
    struct profile_shadow_stack *running;   /* &stacks[thread], for the hooks */
    uint32_t threads_used;      /* stacks[1 .. threads_used) are threads' */
    uint32_t samples_truncated, calls_unrecorded, frames_repaired, calls_unhooked;
    uint32_t switches_lost;     /* profile_task_switch found no room for a thread */
    /* The enter hook's fast path (stacks.c): the node found or made last for a hash of its
     * parent and call site, checked against the node before use; as many slots as NODES
     * rounded down to a power of two (RAM: a small part's tree is the part's heap), each
     * a byte where a byte holds every node's index. */
    profile_stack_hint hints[PROFILE_STACK_HINTS];
    struct profile_shadow_stack stacks[CYGNUM_PROFILE_STACKS_THREADS + 1];
    struct profile_stack_node nodes[CYGNUM_PROFILE_STACKS_NODES];
};
extern struct profile_stacks profile_stacks;

/* The running thread is now id: its shadow stack (made if new). -ENOMEM: no room, it
 * shares the first thread's (counted). In a lock section (profile_task_switch). */
int profile_stack_select(uintptr_t id);
/* The thread id ended: its context takes the id ended_id (its tree keeps its counts), and
 * a thread of id later gets a shadow stack of its own. In a lock section (profile_task_end). */
void profile_stack_end(uintptr_t id, uintptr_t ended_id);
/* One sample, at pc, to the innermost frame's node (__profile_hit, masked, for every sample
 * it counts but the profiler's own). */
void profile_stack_sample(uintptr_t pc);
/* Zeroes the tree's counts, keeping its nodes (profile_clear, in a lock section). */
void profile_stack_clear(void);
/* A snapshot's share (snapshot.c, in its lock sections): freeze moves the live counts
 * aside (with gmon.out's data, profile_frozen filled); thaw (delivered: as
 * profile_snapshot_release's) drops them, keeps them for the TFTP daemon's gmon.stacks
 * (PROFILE_SNAPSHOT_DELIVERED_GMON) or adds them back; forget
 * drops them and the kept ones when profile_on/profile_off end the snapshot. */
void profile_stack_freeze(void);
void profile_stack_thaw(int delivered);
void profile_stack_forget(void);
/* Drops every node no live frame needs (profile_on/profile_off, in a lock section). */
void profile_stack_compact(void);
/* The frozen tree as gmon.stacks (write.c): its size (0: none frozen) and a piece of it. */
size_t profile_stack_image_size(void);
size_t profile_stack_image_read(size_t offset, void *buf, size_t len);
/* The kept tree (the TFTP daemon's gmon.stacks): its size (0: none kept) with the
 * generation of the kept counts, and a piece of it. lwIP's context; no lock: the memory
 * is static, and a read is good only if profile_stack_kept_ended(generation) is still 0
 * after it (the caller checks). */
size_t profile_stack_kept_size(uint32_t *generation);
size_t profile_stack_kept_read(size_t offset, void *buf, size_t len);
int profile_stack_kept_ended(uint32_t generation);
#define PROFILE_STACK_SAMPLE(pc) profile_stack_sample(pc)
#else
#define PROFILE_STACK_SAMPLE(pc) ((void)(pc))
#endif

/*
 * Per-task time (tasks.c). The task table: slot 0 is the context the firmware started on
 * (id 0, "main"), slots[1 .. used) the tasks profile_task_switch registered, slots[TASKS]
 * the tasks that found no slot ("(other tasks)", id all-ones).
 */
struct profile_task {
    uintptr_t   id;             /* an ended task's: PROFILE_TASK_ENDED_ID(n), no task's */
    const char *name;           /* the caller's string (NULL: none); an ended task's: the
                                   table's copy (tasks.c) */
    uint32_t    samples;        /* timer samples taken while it ran (but the running
                                   task's latest: since folded_at) */
};
/* The id an ended task's slot takes, the n-th to end (from 0): no task's, nor "(other
 * tasks)"'s, so that a task created at its address later gets a slot of its own. */
#define PROFILE_TASK_ENDED_ID(n) (UINTPTR_MAX - 1u - (uintptr_t)(n))
struct profile_tasks {
    uint32_t current;           /* the running task's slot */
    uint32_t used;              /* slots registered: 1 .. CYGNUM_PROFILE_TASKS */
    uint32_t unregistered;      /* profile_task_switch calls that found no slot */
    uint32_t ended;             /* profile_task_end calls that found the task */
    /* profile_samples_since_on() when the running task's samples were last added to its
     * slot: the sample path counts nothing per task, the running task's samples are the
     * difference */
    uint32_t folded_at;
    struct profile_task slots[CYGNUM_PROFILE_TASKS + 1];
};
/* Owned by tasks.c; changed in lock sections (profile_task_switch, reset, snapshot); read by
 * gdb/gprof.gdb (gmon.tasks). */
extern struct profile_tasks profile_tasks;
/* Zeroes the counts (profile_clear, profile_stop: in a lock section). */
void profile_task_clear(void);
/* A snapshot's share (snapshot.c, in its lock sections), as profile_stack_freeze/thaw/
 * forget: freeze after profile_frozen is filled; thaw keeps a table delivered with
 * PROFILE_SNAPSHOT_DELIVERED_GMON for the TFTP daemon. */
void profile_task_freeze(void);
void profile_task_thaw(int delivered);
void profile_task_forget(void);
/* The frozen table as gmon.tasks (write.c): its size (0: none frozen) and a piece of it. */
size_t profile_task_image_size(void);
size_t profile_task_image_read(size_t offset, void *buf, size_t len);
/* The kept table (the TFTP daemon's gmon.tasks, as profile_stack_kept_*): its size (0: none
 * kept) with the generation of the kept table, and a piece of it; a read is good only if
 * profile_task_kept_ended(generation) is still 0 after it. */
size_t profile_task_kept_size(uint32_t *generation);
size_t profile_task_kept_read(size_t offset, void *buf, size_t len);
int profile_task_kept_ended(uint32_t generation);

/* Puts v at p as bytes bytes in the target's byte order (gmon.c: the files' fields go out
 * one by one, never as a compiler struct); returns p + bytes. */
uint8_t *profile_put_uint(uint8_t *p, uint64_t v, size_t bytes);

/* The largest gmon.out image of nbins bins in nranges ranges and narcs arcs (gmon.c),
 * computed without overflow: every overflow entry in use at 2^32-1 (each such bucket is
 * written as 65537 records). profile_on refuses a layout whose largest image does not fit
 * 32 bits. */
uint64_t profile_gmon_bytes_max(uint64_t nbins, uint64_t nranges, uint64_t narcs);

#endif
