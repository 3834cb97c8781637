/*
 * Timer samples: the histogram half of the package.
 *
 * Each bucket has an 8-bit bin (16-bit with CYGNUM_PROFILE_HIST_BIN_BYTES 2;
 * PROFILE_BIN_MAX, 0xFF or 0xFFFF, is a stuck one). A bucket that is sampled more than a
 * bin holds goes on counting in an overflow entry (struct profile_ovf, profile_priv.h):
 * the sample that would bring its bin to PROFILE_BIN_MAX moves PROFILE_BIN_MAX into the
 * entry and leaves the bin at 0, so the fast path (a bin below PROFILE_BIN_MAX - 1) stays
 * one compare and one store, and the slow half runs once in PROFILE_BIN_MAX samples of a
 * hot bucket.
 * A bin at PROFILE_BIN_MAX is stuck: no entry was free, or the bucket reached 2^32-1.
 * Most buckets of a profile stay below 255 samples: 1 byte each, and 8 bytes an entry for
 * the hot few, take less memory than 16-bit bins; long runs whose samples spread over
 * more buckets than there are entries take 16-bit bins.
 */
#include "profile_priv.h"

/* The first entry of s whose bin is b or above (ovf_used if none): entries are sorted. */
uint32_t profile_ovf_lower_bound(const struct profile_state *s, uint32_t b)
{
    uint32_t lo = 0, hi = s->ovf_used;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->ovf[mid].bin < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint32_t profile_bin_count(const struct profile_state *s, uint32_t b)
{
    uint32_t i = profile_ovf_lower_bound(s, b);
    uint32_t high = i < s->ovf_used && s->ovf[i].bin == b ? s->ovf[i].high : 0;
    return high + s->bins[b];   /* (no wrap: high <= 2^32-1 - PROFILE_BIN_MAX) */
}

void profile_bin_store(struct profile_state *s, uint32_t b, uint64_t count, int stuck)
{
    uint32_t was = s->bins[b];
    uint32_t i = profile_ovf_lower_bound(s, b);
    int has = i < s->ovf_used && s->ovf[i].bin == b;
    if (count >= UINT32_MAX) {
        count = UINT32_MAX;     /* what is above is refused */
        stuck = 1;
    }
    uint32_t t = (uint32_t)count;
    if (t < PROFILE_BIN_MAX)
        stuck = 0;              /* (a stuck bin holds PROFILE_BIN_MAX of the count at least) */
    /* The bin takes t mod PROFILE_BIN_MAX (at most PROFILE_BIN_MAX - 1: it counts on) or,
     * stuck, PROFILE_BIN_MAX. */
    uint32_t low = stuck ? PROFILE_BIN_MAX : t % PROFILE_BIN_MAX;
    uint32_t high = t - low;    /* <= 2^32-1 - PROFILE_BIN_MAX */
    if (high && !has) {
#if CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS
        if (s->ovf_used < PROFILE_OVF_CAPACITY) {
            /* A new entry in its place in bin order (the ones after move up). */
            for (uint32_t j = s->ovf_used; j > i; j--)
                s->ovf[j] = s->ovf[j - 1];
            s->ovf[i].bin = b;
            s->ovf_used++;
            has = 1;
        }
#endif
        if (!has) {
            low = PROFILE_BIN_MAX;  /* no entry free: the bin sticks, the rest is refused */
            high = 0;
        }
    }
    if (has && !high) {
        /* (Not on a count going up: an entry's bucket has PROFILE_BIN_MAX or more.) */
        for (uint32_t j = i; j + 1 < s->ovf_used; j++)
            s->ovf[j] = s->ovf[j + 1];
        s->ovf_used--;
        has = 0;
    }
    if (has)
        s->ovf[i].high = high;
    s->bins[b] = (profile_bin_t)low;
    if (low == PROFILE_BIN_MAX && was != PROFILE_BIN_MAX)
        s->buckets_saturated++;
}

/* A sample in bucket b, which the fast path leaves to the slow one: its bin at
 * PROFILE_BIN_MAX - 1 moves into the overflow entry, a stuck bin refuses it. Interrupts masked, a
 * profile_lock section. */
static void hist_count_slow(struct profile_state *s, uint32_t b, uintptr_t pc)
{
    uint32_t v = s->bins[b];
    s->samples++;
    PROFILE_STACK_SAMPLE(pc);
    if (v < PROFILE_BIN_MAX - 1)
        s->bins[b] = (profile_bin_t)(v + 1);
    else if (v == PROFILE_BIN_MAX - 1)
        profile_bin_store(s, b, (uint64_t)profile_bin_count(s, b) + 1, 0);
    /* else stuck: refused (in samples, in no bin) */
}

/* A sample in the package's own code (mcount, the stub, a snapshot's steps, ...): counted,
 * never put in a bin, so that the histogram shows the user's code alone. Interrupts
 * masked. */
static inline void overhead_count(struct profile_state *s)
{
    s->samples++;
    s->samples_overhead++;
}

/* Everything but a sample in the fast path's range with the gate open and its bin below
 * PROFILE_BIN_MAX - 1: a pending reset, profiling off, a PC in another range
 * (profile_on_ranges) or in none, a bin that fills up or is stuck. Entered with
 * interrupts masked; restores them. Classifies as the fast path does: profiler overhead
 * first (wherever the package's code is), then the ranges. */
static __attribute__((noinline)) void hit_miss(struct profile_state *s, uintptr_t pc,
                                               hal_profile_irq_state irq)
{
    profile_set_busy(1);  /* entered masked: a profile_lock section from here */
    if (profile_slow_path(s)) {
        uint32_t b;
        if (profile_is_overhead(s, pc)) {
            overhead_count(s);
        } else if ((b = profile_range_bin(s, pc)) != UINT32_MAX) {
            hist_count_slow(s, b, pc);
        } else {
            s->samples++;
            s->samples_out_of_range++;
            PROFILE_STACK_SAMPLE(pc);
        }
    }
    profile_unlock(irq);
}

void __profile_hit(uintptr_t pc)
{
    struct profile_state *s = &profile_state;
    /* Masked, although no other sample preempts this one: an mcount in a handler of higher
     * priority may perform a reset (its slow path), which must not fall between the read
     * and the write of a bin. The two stores are one change: gdb runs the target out of
     * this function before it reads (gdb/gprof.gdb). */
    hal_profile_irq_state irq = hal_profile_irq_save();
    uintptr_t off = pc - s->low_pc;

    if (__builtin_expect(off < s->armed_span, 1)) {
        /* Two compares decide: in the range (and the gate open), then not the package;
         * a third that the bin has room. */
        if (__builtin_expect(!profile_is_overhead(s, pc), 1)) {
            profile_bin_t *bin = &s->bins[off >> s->bucket_shift];
            uint32_t v = *bin;
            if (__builtin_expect(v < PROFILE_BIN_MAX - 1, 1)) {
                *bin = (profile_bin_t)(v + 1);
                s->samples++;
                PROFILE_STACK_SAMPLE(pc);
                hal_profile_irq_restore(irq);
                return;
            }
        } else {
            overhead_count(s);
            hal_profile_irq_restore(irq);
            return;
        }
    }
    hit_miss(s, pc, irq);
}
