/* profile_on / profile_off / profile_reset / profile_get_stats and the shared slow path. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "profile_priv.h"
#if PROFILE_TFTP
#include <cyg/profile/tftp.h>
#endif

/* The records the closed mcount gate points to (profile_disarm): free, never written. */
const struct profile_arc profile_arcs_none[2];

/* (profile_priv.h) Owned by profile_on_ranges and profile_write. */
size_t profile_enomem_bytes;

/* The one profiling state. Owned here: profile_on/profile_off/profile_reset change its
 * layout and arrays in profile_lock sections; hist.c (timer ISR) and arcs.c (mcount, any
 * context) and the HAL's mcount stub update counters; snapshot.c swaps sets; gmon.c and
 * gdb read it. Its mcount gate is closed from the start (profile_disarm). */
struct profile_state profile_state = {
    .armed_arcs = (struct profile_arc *)profile_arcs_none,
    .hash_mul = PROFILE_ARC_HASH_MUL,
    .mcount_gate = 0,       /* off: the stub returns at once */
};

/*
 * The package's own code, gathered by the linker script into one run (hal/cortexm/cortexm.ld
 * and the other architectures' scripts; doc/porting.md for a linker script of one's own):
 * samples there are profiler overhead. Weak: without them (0) nothing is overhead.
 */
extern char __profile_text_start[] __attribute__((weak));
extern char __profile_text_end[] __attribute__((weak));

#define ARC_RESERVE 50  /* as eCos: spare arcs for degenerate (tiny) programs */

static uint32_t ceil_log2(uint32_t v)
{
    uint32_t shift = 0;
    while (((uint32_t)1 << shift) < v)
        shift++;
    return shift;
}

/* Each part where the one before it ends (profile_set_span gives the order). */
void profile_set_layout(struct profile_state *s, void *base)
{
    char *set = base;
    s->set = base;
    s->arcs = s->nslots ? (struct profile_arc *)set : NULL;
    s->ovf = PROFILE_OVF_CAPACITY ?
             (struct profile_ovf *)(set + profile_set_span(s, PROFILE_SET_ARCS)) : NULL;
    s->bins = (profile_bin_t *)(set + profile_set_span(s, PROFILE_SET_OVF));
}

void profile_clear(struct profile_state *s)
{
    s->samples_retired += s->samples;
    if (s->bins)
        memset(s->bins, 0, (size_t)s->nbins * sizeof s->bins[0]);
    if (s->ovf)
        memset(s->ovf, 0, (size_t)PROFILE_OVF_CAPACITY * sizeof s->ovf[0]);
    if (s->arcs)
        memset(s->arcs, 0, (size_t)s->nslots * sizeof s->arcs[0]);
    profile_clear_counts(s);
    profile_task_clear();
#if PROFILE_STACKS
    profile_stack_clear();
#endif
}

/* Out of line (as profile_slow_path): one copy of the reset, not one in every caller. */
__attribute__((noinline)) void profile_clear_counts(struct profile_state *s)
{
    s->arcs_used = 0;
    s->probe_max = 0;
    s->ovf_used = 0;
    s->samples = 0;
    s->samples_out_of_range = 0;
    s->samples_overhead = 0;
    s->buckets_saturated = 0;
    s->arcs_dropped = 0;
    s->arcs_out_of_range = 0;
}

__attribute__((noinline)) int profile_slow_path(struct profile_state *s)
{
    /* gdb asks for a reset only outside the package's sections (it runs the target out of
     * them first), but a loop costs nothing and keeps the rule: the gate is left open only
     * once no reset is pending, or a later out-of-range event would perform that reset
     * and wipe data not yet extracted. */
    while (s->reset_pending) {
        s->reset_pending = 0;
        if (s->running) {
            profile_clear(s);
            profile_arm(s);
        }
    }
    return s->running;
}

/* Stop sampling and forget everything but what lasts (struct profile_lasting); returns the
 * memory to free (outside the lock). The generation moves on, so that a snapshot still held
 * (a TFTP transfer) lets the sets be. */
static void *profile_stop(struct profile_state *s)
{
    hal_profile_irq_state irq = profile_lock();
    void *memory = s->memory;
    int was_running = s->running;
    s->running = 0;         /* first: a reader halting inside the memset sees "off" */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    memset(s, 0, offsetof(struct profile_state, lasting));
    profile_disarm(s);
    s->lasting.generation++;
    memset(&profile_frozen, 0, sizeof profile_frozen);  /* an outstanding snapshot ends */
    profile_task_forget();     /* (the table stays: the tasks are still there) */
    profile_task_clear();
#if PROFILE_STACKS
    profile_stack_compact();    /* the paths go with the data, but the live frames' */
    profile_stack_clear();
#endif
    profile_unlock(irq);
    if (was_running)
        hal_disable_profile_timer();
    return memory;
}

int profile_off(void)
{
    /* It frees memory that a handler it interrupted may be using (a snapshot's reader or
     * merge-back, the C library's allocator): refused in interrupt context. */
    if (hal_profile_in_interrupt())
        return -EPERM;
    free(profile_stop(&profile_state));
    return 0;
}

/* The sizes profile_on needs, computed in 64 bits whatever the width of size_t, so that no
 * product or sum can wrap; and limited to 32 bits (the counters of gmon.out and of
 * struct profile_stats are 32-bit, and so is size_t on the targets). */
struct profile_layout {
    uint32_t bucket_shift;
    uint32_t nranges;
    uint32_t fast;              /* the range with the fast path: the largest */
    struct {
        uintptr_t low;
        uint64_t nbins;
        uint64_t span;          /* nbins << bucket_shift: what its histogram covers */
        uint64_t first;         /* its first bin: the fast range's bins first */
    } r[PROFILE_MAX_RANGES];    /* in address order */
    uint64_t nbins;             /* all of them */
    uint64_t nslots;            /* arc table slots: arcs_capacity + 1 */
    uint64_t arcs_capacity;
    uint64_t set_bytes;         /* one set: arcs, overflow entries, bins */
    uint64_t total_bytes;       /* the sets profile_on allocates */
};

/* ranges: nranges (1..PROFILE_MAX_RANGES) ranges, sorted by start, each start < end. */
static int profile_layout_compute(const struct profile_range *ranges, uint32_t nranges,
                                  int bucket_size, struct profile_layout *l)
{
    /* At least 2 bytes, gprof's unit: it reads addresses in halves (a 1-byte bucket gave it
     * nothing more), and every histogram record of one file must have the same scale, bytes
     * per bin over 2, which one-bucket records of one byte would not have (gmon.c). */
    l->bucket_shift = ceil_log2((uint32_t)bucket_size);       /* 0..31 */
    if (l->bucket_shift == 0)
        l->bucket_shift = 1;
    uint64_t bucket = (uint64_t)1 << l->bucket_shift;
    uint64_t total = 0;         /* the ranges' bytes (disjoint: no more than 2^64 - 1) */
    l->nranges = nranges;
    l->nbins = 0;
    l->fast = 0;
    for (uint32_t i = 0; i < nranges; i++) {
        uintptr_t low = (uintptr_t)ranges[i].start, high = (uintptr_t)ranges[i].end;
        uint64_t range = (uint64_t)(high - low);
        uint64_t nbins = range / bucket + (range % bucket != 0);
        if (nbins > UINT32_MAX)
            return -EINVAL;
        uint64_t span = nbins << l->bucket_shift;                   /* < 2^63 */
        if (span > (uint64_t)(UINTPTR_MAX - low))
            return -EINVAL;                                         /* high_pc would wrap */
        /* Sorted: overlapping the one before means starting inside its rounded span. */
        if (i > 0 && (uint64_t)(low - l->r[i - 1].low) < l->r[i - 1].span)
            return -EINVAL;
        l->r[i].low = low;
        l->r[i].nbins = nbins;
        l->r[i].span = span;
        l->nbins += nbins;                                          /* < 2^36 */
        total += range;
        if (nbins > l->r[l->fast].nbins)
            l->fast = i;
    }
    if (l->nbins > UINT32_MAX)
        return -EINVAL;
    /* The arc table keeps addresses mod 2^32, in the 4 GiB window of low_pc: several
     * ranges must all lie in one (a single one may reach out of it, as ever: calls there
     * count as from outside the range). Folded away on a 32-bit target. */
    uintptr_t last = l->r[nranges - 1].low + (uintptr_t)(l->r[nranges - 1].span - 1);
    if (nranges > 1 && ((uint64_t)l->r[0].low >> 32) != ((uint64_t)last >> 32))
        return -EINVAL;
    /* The fast range's bins come first (the fast path indexes bins from 0), then the
     * others' in address order. */
    uint64_t next = l->r[l->fast].nbins;
    for (uint32_t i = 0; i < nranges; i++) {
        l->r[i].first = i == l->fast ? 0 : next;
        next += i == l->fast ? 0 : l->r[i].nbins;
    }
    uint64_t arcs_bytes = 0;
    l->nslots = 0;
    l->arcs_capacity = 0;
#if PROFILE_CALLGRAPH
    /* The eCos formula: ARC_PERCENTAGE % of the code size (of all ranges), in arc records,
     * plus a reserve (no overflow: total / 100 * 100 <= total); one slot more, which stays
     * free. */
    l->arcs_capacity = CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE * (total / 100) /
                       sizeof(struct profile_arc) + ARC_RESERVE;
    if (l->arcs_capacity > PROFILE_ARC_CAPACITY_MAX)
        l->arcs_capacity = PROFILE_ARC_CAPACITY_MAX;
    l->nslots = l->arcs_capacity + 1;
    arcs_bytes = l->nslots * sizeof(struct profile_arc);
#else
    (void)total;
#endif
    /* Padded to 8 bytes, so that the spare set's arc records are aligned as the first's
     * (the hot paths' double-word accesses need it). */
    l->set_bytes = (arcs_bytes + PROFILE_OVF_CAPACITY * sizeof(struct profile_ovf) +
                    l->nbins * sizeof(profile_bin_t) + 7) / 8 * 8;              /* < 2^34 */
    l->total_bytes = l->set_bytes * (1 + PROFILE_SNAPSHOT);
    if (l->total_bytes > UINT32_MAX || l->total_bytes > SIZE_MAX ||
        profile_gmon_bytes_max(l->nbins, nranges, l->arcs_capacity) > UINT32_MAX)
        return -ENOMEM;
    return 0;
}

/* Start the timer and check the rate it gives (gmon.out states it in whole Hz); a rate
 * refused stops it again. Called in profile_on's section. */
static int profile_start_timer(struct profile_state *s, int interval_us)
{
    int actual = hal_enable_profile_timer(interval_us);
    if (actual <= 0)
        return actual < 0 ? actual : -EIO;
    /* An interval whose rate gmon.out cannot express within 1% (slower than 1 Hz, or e.g.
     * 300 ms: 3.33 Hz) would make every time gprof prints wrong by as much: refused. */
    uint32_t rate = (uint32_t)((1000000u + (unsigned)actual / 2) / (unsigned)actual);
    uint64_t one_second = (uint64_t)rate * (unsigned)actual;  /* in us, as gprof will see it */
    if (rate == 0 || one_second > 1010000u || one_second < 990000u) {
        hal_disable_profile_timer();
        return -EINVAL;
    }
    s->prof_rate = rate;
    return 0;
}

int profile_on_ranges(const struct profile_range *ranges, int nranges, int bucket_size,
                      int interval_us)
{
    struct profile_state *s = &profile_state;

    if (hal_profile_in_interrupt())
        return -EPERM;          /* see profile_off; nothing is changed */
    profile_off();
#if PROFILE_TFTP
    /* First, whatever the outcome: a client that asks while profiling is off gets the
     * daemon's "profiling is off" error rather than silence. Once only; if the network is
     * not up yet it says so on the console (a later profile_on() or profile_tftp_start()
     * tries again). */
    (void)profile_tftp_start();
#endif
    if (!ranges || nranges < 1 || (uint32_t)nranges > PROFILE_MAX_RANGES || bucket_size <= 0 ||
        interval_us <= 0)
        return -EINVAL;
    /* Sorted by start (insertion sort of a few), each one checked. */
    struct profile_range sorted[PROFILE_MAX_RANGES];
    for (int i = 0; i < nranges; i++) {
        struct profile_range r = ranges[i];
        if ((uintptr_t)r.start >= (uintptr_t)r.end)
            return -EINVAL;
        int j = i;
        for (; j > 0 && (uintptr_t)sorted[j - 1].start > (uintptr_t)r.start; j--)
            sorted[j] = sorted[j - 1];
        sorted[j] = r;
    }

    struct profile_layout l;
    profile_enomem_bytes = 0;
    int rc = profile_layout_compute(sorted, (uint32_t)nranges, bucket_size, &l);
    if (rc == -ENOMEM)      /* (more than a size_t: said as the most one can hold) */
        profile_enomem_bytes = l.total_bytes < SIZE_MAX ? (size_t)l.total_bytes : SIZE_MAX;
    if (rc)
        return rc;
    void *memory = malloc((size_t)l.total_bytes);
    if (!memory) {
        profile_enomem_bytes = (size_t)l.total_bytes;
        return -ENOMEM;
    }
    memset(memory, 0, (size_t)l.total_bytes);

    hal_profile_irq_state irq = profile_lock();
    s->memory = memory;
    s->memory_bytes = (size_t)l.total_bytes;
    s->set_bytes = (size_t)l.set_bytes;
    s->spare = PROFILE_SNAPSHOT ? (char *)memory + l.set_bytes : NULL;
    s->nbins = (uint32_t)l.nbins;
    s->nslots = (uint32_t)l.nslots;
    s->arcs_capacity = (uint32_t)l.arcs_capacity;
    s->ovf_capacity = PROFILE_OVF_CAPACITY;
    /* One block: one set (two with a spare), profile_set_layout. */
    profile_set_layout(s, memory);
    s->bucket_shift = l.bucket_shift;
    s->nranges = l.nranges;
    for (uint32_t i = 0; i < l.nranges; i++) {
        s->ranges[i].low = l.r[i].low;
        s->ranges[i].span = (uintptr_t)l.r[i].span;
        s->ranges[i].first = (uint32_t)l.r[i].first;
        s->ranges[i].nbins = (uint32_t)l.r[i].nbins;
    }
    s->low_pc = l.r[l.fast].low;
    s->high_pc = l.r[l.fast].low + (uintptr_t)l.r[l.fast].span;
    s->open_span = (uintptr_t)l.r[l.fast].span;
    s->profiler_low = (uintptr_t)__profile_text_start;
    s->profiler_span = (uintptr_t)__profile_text_end > (uintptr_t)__profile_text_start ?
                       (uintptr_t)__profile_text_end - (uintptr_t)__profile_text_start : 0;
    s->pc_mask = HAL_PROFILE_PC(UINTPTR_MAX);
    /* The timer starts inside the section, so that its first sample waits for the unlock
     * and nobody (gdb, a TFTP client) sees a running profile without its rate. */
    rc = profile_start_timer(s, interval_us);
    if (rc == 0) {
        s->running = 1;
        profile_arm(s);
    }
    profile_unlock(irq);
    if (rc) {
        free(profile_stop(s));
        return rc;
    }
    return 0;
}

int profile_on(void *start, void *end, int bucket_size, int interval_us)
{
    const struct profile_range range = { start, end };
    return profile_on_ranges(&range, 1, bucket_size, interval_us);
}

void profile_reset(void)
{
    /* As a reset gdb asks for: it also settles one that gdb left pending. */
    hal_profile_irq_state irq = profile_lock();
    profile_state.reset_pending = 1;
    profile_slow_path(&profile_state);
    profile_unlock(irq);
}

int profile_get_stats(struct profile_stats *st)
{
    const struct profile_state *s = &profile_state;
    hal_profile_irq_state irq = hal_profile_irq_save();
    int running = s->running;
    if (running) {
        st->samples = s->samples;
        st->samples_out_of_range = s->samples_out_of_range;
        st->buckets_saturated = s->buckets_saturated;
        st->arcs = s->arcs_used;
        st->arcs_capacity = s->arcs_capacity;
        st->arcs_dropped = s->arcs_dropped;
        st->arcs_out_of_range = s->arcs_out_of_range;
        st->bytes_allocated = (uint32_t)s->memory_bytes;
        st->samples_total = profile_samples_since_on();
        st->samples_overhead = s->samples_overhead;
    }
    hal_profile_irq_restore(irq);
    return running ? 0 : -ENODATA;
}
