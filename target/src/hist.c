/* Timer samples: the histogram half of the package. */
#include "profile_priv.h"

/* One sample in the bin at off (< armed_span). Interrupts masked. The bin sticks at
 * 0xFFFF; the common case (below 0xFFFE) is the one straight path. */
static inline void hist_count(struct profile_state *s, uintptr_t off)
{
    uint16_t *bin = &s->bins[off >> s->bucket_shift];
    uint32_t v = *bin;
    s->samples++;
    if (__builtin_expect(v < PROFILE_BIN_MAX - 1, 1)) {
        *bin = (uint16_t)(v + 1);
        return;
    }
    if (v == PROFILE_BIN_MAX - 1) {
        *bin = PROFILE_BIN_MAX;
        s->buckets_saturated++;
    }
}

/* A sample in the package's own code (mcount, the stub, a snapshot's steps, ...): counted,
 * never put in a bin, so that the histogram shows the user's code alone. Interrupts
 * masked. */
static inline void overhead_count(struct profile_state *s)
{
    s->samples++;
    s->samples_overhead++;
}

/* Everything but a sample in range with the gate open: a pending reset, profiling off, a
 * PC outside the range. Entered with interrupts masked; restores them. Classifies as the
 * fast path does: profiler overhead first (wherever the package's code is), then the
 * range. */
static __attribute__((noinline)) void hit_miss(struct profile_state *s, uintptr_t pc,
                                               hal_profile_irq_state irq)
{
    profile_set_busy(1);  /* entered masked: a profile_lock section from here */
    if (profile_slow_path(s)) {
        uintptr_t off = pc - s->low_pc;
        if (profile_is_overhead(s, pc)) {
            overhead_count(s);
        } else if (off < s->armed_span) {
            hist_count(s, off);
        } else {
            s->samples++;
            s->samples_out_of_range++;
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
        /* Two compares decide: in the range (and the gate open), then not the package. */
        if (__builtin_expect(!profile_is_overhead(s, pc), 1))
            hist_count(s, off);
        else
            overhead_count(s);
        hal_profile_irq_restore(irq);
        return;
    }
    hit_miss(s, pc, irq);
}
