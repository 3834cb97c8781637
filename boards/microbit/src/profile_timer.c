/*
 * The profile timer of the micro:bit: nRF51 TIMER1 (IRQ 9), 16-bit, at BOARD_PROFILE_TIMER_PRIO
 * (0, the most urgent), so that samples land inside every other interrupt handler too. TIMER0
 * is the board clock, TIMER2 the fast timer; SysTick is left to the application or RTOS.
 *
 * Interval: exact from PROFILE_TIMER_MIN_US to 32767 us, then in steps of 2..32 us up to
 * 1048544 us (nrf51_timer.c, with periods of at most PERIOD_TICKS_MAX ticks); the interval
 * used is returned; 0 or negative requests give -EINVAL. Shorter requests are raised to
 * PROFILE_TIMER_MIN_US, because at shorter intervals the sampling interrupt would eat a large
 * part of a real 16 MHz Cortex-M0.
 *
 * Dithered (<cyg/profile/dither.h>): the timer runs free (no clear at the compare) and each
 * sample moves CC[0] on by the next dithered period, a deadline on the timer's own count,
 * so the handler's latency never adds up and the mean period is exactly the interval. The
 * periods reach twice the interval, hence PERIOD_TICKS_MAX: CC[0] moves less than a wrap.
 */
#include <stdint.h>

#include <cyg/hal/board.h>
#include <cyg/hal/cortexm.h>
#include <cyg/profile/dither.h>
#include <cyg/profile/hal.h>
#include "nrf51.h"

/* Shortest interval granted: 256 CPU cycles at 16 MHz (a sample costs about 80: 35
 * instructions and the exception entry and return); the shortest dithered period. */
#define PROFILE_TIMER_MIN_US 16
#define PERIOD_TICKS_MAX 0x7FFFu
/* The least a deadline may lie ahead of the count captured before CC[0] is written: the few
 * instructions to that store take a few ticks at 16 MHz, but QEMU's TIMER model, whose
 * count moves on in steps, missed a compare 8 ticks ahead (tests/qemu/test_masked.py):
 * 2 us. */
#define MARGIN_TICKS 32u
#define BASE BOARD_PROFILE_TIMER_BASE

/*
 * The period sequence and the next sample's deadline on the timer's 16-bit count. Owned by
 * the profile timer: set by hal_enable_profile_timer() (interrupts masked), then changed only
 * by its interrupt handler.
 */
static struct profile_dither dither;
static uint32_t deadline;

int hal_enable_profile_timer(int interval_us)
{
    int used = nrf51_timer_start(BASE, BOARD_PROFILE_TIMER_IRQ, interval_us, PROFILE_TIMER_MIN_US,
                                 BOARD_PROFILE_TIMER_PRIO, PERIOD_TICKS_MAX);
    if (used > 0) {
        NRF51_TIMER_SHORTS(BASE) = 0;   /* runs free: each deadline is CC[0] moved on */
        uint32_t period = NRF51_TIMER_CC(BASE, 0);
        uint32_t shift = NRF51_TIMER_PRESCALER(BASE);
        uint32_t min = ((uint32_t)PROFILE_TIMER_MIN_US * 16u) >> shift;
        profile_dither_start(&dither, period, min ? min : 1u);
        deadline = period;
    }
    return used;
}

void hal_disable_profile_timer(void)
{
    /* No __profile_hit() starts after this returns (NVIC disable with a barrier). */
    nrf51_timer_stop(BASE, BOARD_PROFILE_TIMER_IRQ);
}

/* The sampling interrupt: acknowledge COMPARE[0], move CC[0] to the next deadline, then
 * __profile_hit(stacked PC). The count now (captured into CC[1]) tells a deadline already
 * past (the interrupt held back longer than a period), which would otherwise come only after
 * the count wraps. */
void nrf51_profile_sample(uintptr_t pc)
{
    NRF51_TIMER_EVENTS_COMPARE(BASE, 0) = NRF51_EVENT_CLEAR;
    uint32_t next = profile_dither_next(&dither);
    NRF51_TIMER_TASKS_CAPTURE(BASE, 1) = NRF51_TASK_TRIGGER;
    uint32_t now = NRF51_TIMER_CC(BASE, 1);
    deadline = (deadline + next) & 0xFFFFu;
    uint32_t left = (deadline - now) & 0xFFFFu;
    /* Late: on to the first slot still to come, judged by the count captured again after
     * each catch-up, whose own time may take the count past the slot it found (the compare
     * would then come only after the wrap: 4 ms at 16 MHz, no sample meanwhile). A slot
     * MARGIN_TICKS ahead leaves room for the store below. */
    while (__builtin_expect(left > next || left < MARGIN_TICKS, 0)) {
        uint32_t late = (now - deadline + MARGIN_TICKS) & 0xFFFFu;
        next = profile_dither_catch_up(&dither, late);
        deadline = (deadline + next) & 0xFFFFu;
        NRF51_TIMER_TASKS_CAPTURE(BASE, 1) = NRF51_TASK_TRIGGER;
        now = NRF51_TIMER_CC(BASE, 1);
        left = (deadline - now) & 0xFFFFu;
    }
    NRF51_TIMER_CC(BASE, 0) = deadline;
    __profile_hit(pc);
}
CORTEXM_PROFILE_TIMER_HANDLER(BOARD_PROFILE_TIMER_HANDLER, nrf51_profile_sample)
