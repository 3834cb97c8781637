/* profile_on / profile_off / profile_reset / profile_get_stats and the shared slow path. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "profile_priv.h"
#if PROFILE_TFTP
#include <cyg/profile/tftp.h>
#endif

/* The one profiling state. Owned here: profile_on/profile_off/profile_reset change its
 * layout and arrays with interrupts masked; hist.c (timer ISR) and arcs.c (mcount, any
 * context) update counters; gmon.c and gdb read it. */
struct profile_state profile_state;

#define ARC_RESERVE 50  /* as eCos: spare arcs for degenerate (tiny) programs */

static uint32_t ceil_log2(uint32_t v)
{
    uint32_t shift = 0;
    while (((uint32_t)1 << shift) < v)
        shift++;
    return shift;
}

void profile_set_layout(struct profile_state *s, void *base)
{
    size_t arcs_bytes = s->arcs_capacity ? ((size_t)s->arcs_capacity + 1) * sizeof(struct profile_arc) : 0;
    size_t heads_bytes = (size_t)s->nslots * sizeof(uint16_t);
    s->arcs = arcs_bytes ? (struct profile_arc *)base : NULL;
    s->heads = heads_bytes ? (uint16_t *)((char *)base + arcs_bytes) : NULL;
    s->bins = (uint16_t *)((char *)base + arcs_bytes + heads_bytes);
}

void profile_clear(struct profile_state *s)
{
    s->resetting = 1;
    s->samples_retired += s->samples;
    if (s->bins)
        memset(s->bins, 0, (size_t)s->nbins * sizeof s->bins[0]);
    if (s->heads)
        memset(s->heads, 0, (size_t)s->nslots * sizeof s->heads[0]);
    profile_clear_counts(s);
    s->resetting = 0;
}

void profile_clear_counts(struct profile_state *s)
{
    s->arcs_used = 0;
    s->samples = 0;
    s->samples_out_of_range = 0;
    s->buckets_saturated = 0;
    s->arcs_dropped = 0;
    s->arcs_out_of_range = 0;
}

int profile_slow_path(struct profile_state *s)
{
    /* gdb may halt the target anywhere in here and ask for another reset (pending = 1,
     * gate closed): the gate is only left open once no reset is pending, or a later
     * out-of-range event would perform that reset and wipe data not yet extracted. */
    while (s->reset_pending) {
        s->reset_pending = 0;
        if (s->running) {
            profile_clear(s);
            s->armed_span = s->high_pc - s->low_pc;
        }
    }
    return s->running;
}

/* Stop sampling and forget everything; returns the memory to free (outside the lock). */
static void *profile_stop(struct profile_state *s)
{
    hal_profile_irq_state irq = hal_profile_irq_save();
    void *memory = s->memory;
    int was_running = s->running;
    memset(s, 0, sizeof *s);
    memset(&profile_frozen, 0, sizeof profile_frozen);  /* an outstanding snapshot ends */
    hal_profile_irq_restore(irq);
    if (was_running)
        hal_disable_profile_timer();
    return memory;
}

void profile_off(void)
{
    free(profile_stop(&profile_state));
}

int profile_on(void *start, void *end, int bucket_size, int interval_us)
{
    struct profile_state *s = &profile_state;
    uintptr_t low = (uintptr_t)start, high = (uintptr_t)end;

    profile_off();
    if (low >= high || bucket_size <= 0 || interval_us <= 0)
        return -EINVAL;

    uintptr_t range = high - low;
    uint32_t bucket_shift = ceil_log2((uint32_t)bucket_size);
    uintptr_t nbins = (range >> bucket_shift) + ((range & (((uintptr_t)1 << bucket_shift) - 1)) != 0);
    /* Counts are 32-bit in gmon.out, and high_pc = low + nbins * bucket must not wrap. */
    if (nbins > UINT32_MAX || nbins > (UINTPTR_MAX >> bucket_shift) ||
        low + (nbins << bucket_shift) < low)
        return -EINVAL;

    size_t bins_bytes = (size_t)nbins * sizeof(uint16_t);
    size_t arcs_bytes = 0, heads_bytes = 0;
    uintptr_t nslots = 0, capacity = 0;
#if PROFILE_CALLGRAPH
    nslots = (range >> CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT) +
             ((range & ((1u << CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT) - 1)) != 0);
    if (nslots > UINT32_MAX)
        return -EINVAL;
    /* The eCos formula: ARC_PERCENTAGE % of the code size, in arc records, plus a reserve. */
    capacity = CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE * (range / 100) / sizeof(struct profile_arc)
               + ARC_RESERVE;
    if (capacity > PROFILE_ARC_INDEX_MAX)
        capacity = PROFILE_ARC_INDEX_MAX;
    arcs_bytes = (size_t)(capacity + 1) * sizeof(struct profile_arc);
    heads_bytes = (size_t)nslots * sizeof(uint16_t);
#endif
    size_t set_bytes = arcs_bytes + heads_bytes + bins_bytes;
    size_t total = set_bytes * (1 + PROFILE_SNAPSHOT);
    if (set_bytes < bins_bytes || total < set_bytes)
        return -EINVAL;

    /* One block: arcs first (pointer alignment), then the 16-bit arrays. */
    void *memory = malloc(total);
    if (!memory)
        return -ENOMEM;
    memset(memory, 0, total);

    hal_profile_irq_state irq = hal_profile_irq_save();
    s->memory = memory;
    s->memory_bytes = total;
    s->set_bytes = set_bytes;
    s->spare = PROFILE_SNAPSHOT ? (char *)memory + set_bytes : NULL;
    s->nbins = (uint32_t)nbins;
    s->nslots = (uint32_t)nslots;
    s->slot_shift = CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT;
    s->arcs_capacity = (uint32_t)capacity;
    profile_set_layout(s, memory);
    s->bucket_shift = bucket_shift;
    s->low_pc = low;
    s->high_pc = low + (nbins << bucket_shift);
    s->running = 1;
    s->armed_span = s->high_pc - s->low_pc;
    hal_profile_irq_restore(irq);

    int actual = hal_enable_profile_timer(interval_us);
    if (actual <= 0) {
        free(profile_stop(s));
        return actual < 0 ? actual : -EIO;
    }
    /* gmon.out states the rate in whole samples per second: an interval that it cannot
     * express within 1% (slower than 1 Hz, or e.g. 300 ms: 3.33 Hz) would make every
     * time gprof prints wrong by as much, so it is refused. */
    uint32_t rate = (uint32_t)((1000000u + (unsigned)actual / 2) / (unsigned)actual);
    uint64_t one_second = (uint64_t)rate * (unsigned)actual;  /* in us, as gprof will see it */
    if (rate == 0 || one_second > 1010000u || one_second < 990000u) {
        free(profile_stop(s));
        return -EINVAL;
    }
    s->prof_rate = rate;
#if PROFILE_TFTP
    /* Once only; if the network is not up yet it says so on the console (profiling is on
     * regardless, and a later profile_on() or profile_tftp_start() tries again). */
    (void)profile_tftp_start();
#endif
    return 0;
}

void profile_reset(void)
{
    hal_profile_irq_state irq = hal_profile_irq_save();
    profile_clear(&profile_state);
    hal_profile_irq_restore(irq);
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
        st->samples_total = s->samples_retired + s->samples + profile_frozen.samples;
    }
    hal_profile_irq_restore(irq);
    return running ? 0 : -ENODATA;
}
