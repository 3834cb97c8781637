/*
 * The profile timer on a CMSDK APB timer (the board names it: BOARD_PROFILE_TIMER_BASE,
 * _IRQ, _HANDLER, at BOARD_PROFILE_TIMER_PRIO, the most urgent priority). Other timers and
 * SysTick are left to the application or RTOS.
 *
 * Interval: N us is exactly PCLK_MHZ * N ticks (cmsdk_timer.c). Requests above 2^31 ticks are
 * clamped to that; requests below PROFILE_TIMER_MIN_US are raised to it, because at shorter
 * intervals the sampling interrupt would eat a large part of a real 25 MHz CPU. The interval
 * used is returned; 0 or negative requests give -EINVAL.
 *
 * Dithered (<cyg/profile/dither.h>): each sample's moment is a deadline on the board clock
 * (the dual timer's free-running counter, at the same peripheral clock), one dithered period
 * after the last deadline, not after the interrupt: the handler's latency never adds up, and
 * the mean period is exactly the interval. Writing RELOAD or VALUE restarts the count from
 * the write, so the handler gives the timer the ticks left to the deadline.
 *
 * Priority: the most urgent, so that samples land inside every other interrupt handler too,
 * and so that RTOS critical sections that mask by BASEPRI are sampled as well (the handler
 * calls no RTOS service). Only PRIMASK sections, such as the package's own table updates,
 * hold a sample back; it is then taken as soon as they end, charged to the instruction
 * after them.
 */
#include <stdint.h>

#include <cyg/hal/board.h>
#include <cyg/hal/cortexm.h>
#include <cyg/profile/dither.h>
#include <cyg/profile/hal.h>
#include "cmsdk.h"

/* Shortest interval granted; the shortest dithered period. */
#define PROFILE_TIMER_MIN_US 10
#define TICKS_PER_US (BOARD_CMSDK_PCLK_HZ / 1000000u)
/* Longest: the deadline arithmetic is modulo 2^32 ticks. */
#define PROFILE_TIMER_MAX_US ((int)(0x7FFFFFFFu / TICKS_PER_US))

/* The board clock's counter: counts down, so its complement counts up. */
#define CLOCK_NOW() (~CMSDK_DUALTIMER1_VALUE(BOARD_CMSDK_DUALTIMER_BASE))

/*
 * The period sequence and the next sample's deadline on the board clock. Owned by the
 * profile timer: set by hal_enable_profile_timer() (interrupts masked, timer stopped), then
 * changed only by its interrupt handler.
 */
static struct profile_dither dither;
static uint32_t deadline;

int hal_enable_profile_timer(int interval_us)
{
    if (interval_us > PROFILE_TIMER_MAX_US)
        interval_us = PROFILE_TIMER_MAX_US;
    int used = cmsdk_timer_start(BOARD_PROFILE_TIMER_BASE, BOARD_PROFILE_TIMER_IRQ, interval_us,
                                 PROFILE_TIMER_MIN_US, BOARD_PROFILE_TIMER_PRIO);
    if (used > 0) {
        uint32_t period = (uint32_t)used * TICKS_PER_US;
        profile_dither_start(&dither, period, PROFILE_TIMER_MIN_US * TICKS_PER_US);
        /* (the first sample comes one plain period after now: its slot's offset is 0) */
        deadline = CLOCK_NOW() + period;
    }
    return used;
}

void hal_disable_profile_timer(void)
{
    /* No __profile_hit() starts after this returns (NVIC disable with a barrier). */
    cmsdk_timer_stop(BOARD_PROFILE_TIMER_BASE, BOARD_PROFILE_TIMER_IRQ);
}

/* The sampling interrupt: acknowledge, count down to the next deadline, then
 * __profile_hit(stacked PC). */
void cmsdk_profile_sample(uintptr_t pc)
{
    CMSDK_TIMER_INTCLEAR(BOARD_PROFILE_TIMER_BASE) = 1;
    deadline += profile_dither_next(&dither);
    int32_t left = (int32_t)(deadline - CLOCK_NOW());
    /* Late (held back past the deadline): on to the first slot still to come, judged by
     * the clock read again after each catch-up, whose own time may take the clock past the
     * slot it found. A count below 1 would wrap: the next sample 2^32 ticks away, minutes. */
    while (__builtin_expect(left < 2, 0)) {
        deadline += profile_dither_catch_up(&dither, (uint32_t)(2 - left));
        left = (int32_t)(deadline - CLOCK_NOW());
    }
    uint32_t count = (uint32_t)left - 1u;   /* (a period is RELOAD + 1 ticks) */
    CMSDK_TIMER_RELOAD(BOARD_PROFILE_TIMER_BASE) = count;
    CMSDK_TIMER_VALUE(BOARD_PROFILE_TIMER_BASE) = count;
    __profile_hit(pc);
}
CORTEXM_PROFILE_TIMER_HANDLER(BOARD_PROFILE_TIMER_HANDLER, cmsdk_profile_sample)
