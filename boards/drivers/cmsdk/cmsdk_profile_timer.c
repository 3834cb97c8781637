/*
 * The profile timer on a CMSDK APB timer (the board names it: BOARD_PROFILE_TIMER_BASE,
 * _IRQ, _HANDLER, at BOARD_PROFILE_TIMER_PRIO, the most urgent priority). Other timers and
 * SysTick are left to the application or RTOS.
 *
 * Interval: N us is exactly PCLK_MHZ * N ticks (cmsdk_timer.c). Requests above 2^32 ticks are
 * clamped to that; requests below PROFILE_TIMER_MIN_US are raised to it, because at shorter
 * intervals the sampling interrupt would eat a large part of a real 25 MHz CPU. The interval
 * used is returned; 0 or negative requests give -EINVAL.
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
#include <cyg/profile/hal.h>
#include "cmsdk.h"

/* Shortest interval granted. */
#define PROFILE_TIMER_MIN_US 10

int hal_enable_profile_timer(int interval_us)
{
    return cmsdk_timer_start(BOARD_PROFILE_TIMER_BASE, BOARD_PROFILE_TIMER_IRQ, interval_us,
                             PROFILE_TIMER_MIN_US, BOARD_PROFILE_TIMER_PRIO);
}

void hal_disable_profile_timer(void)
{
    /* No __profile_hit() starts after this returns (NVIC disable with a barrier). */
    cmsdk_timer_stop(BOARD_PROFILE_TIMER_BASE, BOARD_PROFILE_TIMER_IRQ);
}

/* The sampling interrupt: acknowledge (INTCLEAR = 1), then __profile_hit(stacked PC). */
#define PROFILE_TIMER_INTCLEAR (BOARD_PROFILE_TIMER_BASE + CMSDK_TIMER_INTCLEAR_OFFSET)
CORTEXM_PROFILE_TIMER_HANDLER(BOARD_PROFILE_TIMER_HANDLER, PROFILE_TIMER_INTCLEAR, 1)
