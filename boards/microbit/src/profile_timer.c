/*
 * The profile timer of the micro:bit: nRF51 TIMER1 (IRQ 9), 16-bit, at BOARD_PROFILE_TIMER_PRIO
 * (0, the most urgent), so that samples land inside every other interrupt handler too. TIMER0
 * is the board clock, TIMER2 the fast timer; SysTick is left to the application or RTOS.
 *
 * Interval: exact from PROFILE_TIMER_MIN_US to 65535 us, then in steps of 2..32 us up to
 * 2097120 us (nrf51_timer.c); the interval used is returned; 0 or negative requests give
 * -EINVAL. Shorter requests are raised to PROFILE_TIMER_MIN_US, because at shorter intervals
 * the sampling interrupt would eat a large part of a real 16 MHz Cortex-M0.
 */
#include <stdint.h>

#include <cyg/hal/board.h>
#include <cyg/hal/cortexm.h>
#include <cyg/profile/hal.h>
#include "nrf51.h"

/* Shortest interval granted: 256 CPU cycles at 16 MHz (a sample costs about 80: 35
 * instructions and the exception entry and return). */
#define PROFILE_TIMER_MIN_US 16

int hal_enable_profile_timer(int interval_us)
{
    return nrf51_timer_start(BOARD_PROFILE_TIMER_BASE, BOARD_PROFILE_TIMER_IRQ, interval_us,
                             PROFILE_TIMER_MIN_US, BOARD_PROFILE_TIMER_PRIO);
}

void hal_disable_profile_timer(void)
{
    /* No __profile_hit() starts after this returns (NVIC disable with a barrier). */
    nrf51_timer_stop(BOARD_PROFILE_TIMER_BASE, BOARD_PROFILE_TIMER_IRQ);
}

/* The sampling interrupt: acknowledge (EVENTS_COMPARE[0] = 0), then __profile_hit(stacked
 * PC), in Thumb-1 (hal/armv6m's HAL_CORTEXM_EXC_FRAME_TO_R0 and HAL_CORTEXM_TAIL_CALL). */
#define PROFILE_TIMER_EVENT (BOARD_PROFILE_TIMER_BASE + NRF51_TIMER_EVENTS_COMPARE_OFFSET(0))
CORTEXM_PROFILE_TIMER_HANDLER(BOARD_PROFILE_TIMER_HANDLER, PROFILE_TIMER_EVENT, 0)
