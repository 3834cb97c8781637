/*
 * Interrupts masked for longer than a sampling period, now and then, as a critical section
 * or a flash write masks them: sampling goes on after each (tests/qemu/test_masked.py).
 *
 * Each phase profiles at one interval for MASKED_SPAN_US of board time, in cycles: masked
 * for 1 to 6 periods and a fraction (the timer's catch-up by additions and by division),
 * then unmasked for 2 to 6 periods. A cycle whose unmasked part got fewer samples than its
 * whole periods less two is silent: the profile timer was not running (after a masked
 * section the first sample may come up to two periods on: its slot, then its offset in
 * it). The phase reports its cycles, samples, the samples expected (one held back by each
 * masked section, then one a period unmasked) and its silent cycles.
 */
#include <stdint.h>
#include <stdio.h>
#include <cyg/hal/board_api.h>
#include <cyg/hal/profile_arch.h>
#include <cyg/profile/profile.h>

#define MASKED_SPAN_US 400000u

void phase_done(int phase);
void firmware_failed(const char *what);
extern char _stext[], _etext[];

volatile uint32_t masked_spin;

static uint32_t seed = 12345;

static uint32_t below(uint32_t n)
{
    seed = seed * 1664525u + 1013904223u;
    return (uint32_t)(((uint64_t)(seed >> 8) * n) >> 24);
}

static void spin_us(uint32_t us)
{
    uint64_t start = board_clock_us();
    while (board_clock_us() - start < us)
        masked_spin++;
}

static uint32_t samples(void)
{
    struct profile_stats st;
    if (profile_get_stats(&st) != 0)
        firmware_failed("profile_get_stats");
    return st.samples;
}

static void phase(int n, int interval_us)
{
    if (profile_on(_stext, _etext, 16, interval_us) != 0)
        firmware_failed("profile_on");
    uint32_t period = (uint32_t)interval_us, cycles = 0, silent = 0;
    uint64_t expected = 0, start = board_clock_us();
    uint32_t before = samples();
    while (board_clock_us() - start < MASKED_SPAN_US) {
        uint32_t masked = period * (1 + below(6)) + below(period);
        uint32_t open = period * (2 + below(5));
        hal_profile_irq_state irq = hal_profile_irq_save();
        spin_us(masked);
        hal_profile_irq_restore(irq);
        uint64_t opened = board_clock_us();
        uint32_t at_unmask = samples();
        spin_us(open);
        uint32_t got = samples() - at_unmask;
        uint32_t periods = (uint32_t)((board_clock_us() - opened) / period);
        if (got + 2 < periods)
            silent++;
        expected += 1 + periods;
        cycles++;
    }
    uint32_t total = samples() - before;
    profile_off();
    printf("masked: phase %d, interval %d us: cycles %lu, samples %lu, expected %lu, "
           "silent cycles %lu\n", n, interval_us, (unsigned long)cycles, (unsigned long)total,
           (unsigned long)expected, (unsigned long)silent);
    phase_done(n);
}

int main(void)
{
    phase(1, 100);
    phase(2, 16);   /* the shortest interval every board takes (the micro:bit's) */
    printf("masked: done\n");
    return 0;
}
