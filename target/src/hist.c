/* Timer samples: the histogram half of the package. */
#include "profile_priv.h"

void __profile_hit(uintptr_t pc)
{
    struct profile_state *s = &profile_state;
    uintptr_t off = pc - s->low_pc;

    /* Called from the profile timer ISR, which no other sample preempts. A pending reset,
     * profile_off() and profile_reset() only change the arrays with interrupts masked. */
    if (off >= s->armed_span) {
        hal_profile_irq_state irq = hal_profile_irq_save();
        int running = profile_slow_path(s);
        hal_profile_irq_restore(irq);
        if (!running)
            return;
        if (off >= s->armed_span) {
            s->samples++;
            s->samples_out_of_range++;
            return;
        }
    }
    s->samples++;
    uint16_t *bin = &s->bins[off >> s->bucket_shift];
    uint32_t v = *bin;
    if (v < PROFILE_BIN_MAX) {
        *bin = (uint16_t)(v + 1);
        if (v + 1 == PROFILE_BIN_MAX)
            s->buckets_saturated++;
    }
}
