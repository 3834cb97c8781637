/*
 * The profile timer of every RISC-V board with a CLINT: the machine timer (mtimecmp, hart
 * 0), shared with an application's or RTOS's tick through <cyg/hal/riscv_mtimer.h>. Its
 * interrupt is the most urgent (BOARD_PROFILE_TIMER_PRIO, 0): it samples inside every other
 * handler but those of priority 0 (irq.c). Only the package's own masked sections (and
 * other code that clears mstatus.MIE) hold a sample back; it is then taken as soon as they
 * end, charged to the instruction after them.
 *
 * Interval: N us is exactly N * BOARD_CLOCK_HZ / 1000000 ticks of mtime (10 per us on
 * QEMU's virt), up to 2^31 - 1 ticks (214 s at 10 MHz: a dithered period reaches twice the
 * interval), to which longer requests are
 * clamped. Requests below PROFILE_TIMER_MIN_US are raised to it: shorter intervals would
 * have the sampling interrupt eat a large part of a real CPU. The interval used is
 * returned; 0 or negative requests give -EINVAL.
 */
#include <errno.h>
#include <stdint.h>

#include <cyg/hal/board.h>
#include <cyg/hal/riscv_mtimer.h>
#include <cyg/profile/hal.h>

/* Shortest interval granted; the longest is what a 32-bit count of ticks holds. */
#define PROFILE_TIMER_MIN_US 10
#define TICKS_PER_US (BOARD_CLOCK_HZ / 1000000u)
#define PROFILE_TIMER_MAX_US ((int)(0x7FFFFFFFu / TICKS_PER_US))
_Static_assert(BOARD_CLOCK_HZ % 1000000u == 0 && UINT32_MAX / TICKS_PER_US <= INT32_MAX,
               "whole ticks per microsecond, and the longest interval an int of microseconds");

int hal_enable_profile_timer(int interval_us)
{
    if (interval_us <= 0)
        return -EINVAL;
    if (interval_us < PROFILE_TIMER_MIN_US)
        interval_us = PROFILE_TIMER_MIN_US;
    if (interval_us > PROFILE_TIMER_MAX_US)
        interval_us = PROFILE_TIMER_MAX_US;
    hal_riscv_mtimer_profile((uint32_t)interval_us * TICKS_PER_US);
    return interval_us;
}

void hal_disable_profile_timer(void)
{
    /* Masked inside: no __profile_hit() starts after this returns. */
    hal_riscv_mtimer_profile(0);
}
