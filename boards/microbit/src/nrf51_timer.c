/*
 * nRF51 TIMERs as periodic interrupt sources: the board's profile timer (profile_timer.c)
 * and the board API's fast timer (here). No state of its own: the hardware holds it.
 *
 * Interval maths: the timer counts ticks of 16 MHz / 2^PRESCALER from 0 and, at CC[0],
 * raises COMPARE[0] (the interrupt) and clears itself (the COMPARE0_CLEAR short), so one
 * period is CC[0] ticks. TIMER1 and TIMER2 count at most 16 bits on the nRF51, so the
 * prescaler is the smallest that fits the interval in 65535 ticks: N us is exactly
 * 16 * N / 2^PRESCALER ticks for PRESCALER <= 4 (N <= 65535 us); above that the interval is
 * rounded to the nearest tick of 2^(PRESCALER - 4) us, and clamped at 65535 ticks of 32 us.
 * A caller may ask for periods of at most ticks_max ticks (the profile timer's dithered
 * periods reach twice the interval): the prescaler is then the smallest that fits that.
 */
#include <errno.h>
#include <stdint.h>

#include <cyg/hal/board.h>
#include "nrf51.h"

#define TIMER_TICKS_MAX 0xFFFFu /* 16-bit mode */
#define TICKS_PER_US (BOARD_NRF51_TIMER_CLOCK_HZ / 1000000u)
_Static_assert(BOARD_NRF51_TIMER_CLOCK_HZ == 16000000u, "the interval maths assume 16 ticks per us");

int nrf51_timer_start(uint32_t base, int irq, int interval_us, int min_us, unsigned priority,
                      uint32_t ticks_max)
{
    if (interval_us <= 0)
        return -EINVAL;
    if (interval_us < min_us)
        interval_us = min_us;
    uint32_t max_us = (ticks_max << NRF51_TIMER_PRESCALER_MAX) / TICKS_PER_US;
    if ((uint32_t)interval_us > max_us)
        interval_us = (int)max_us;
    uint32_t ticks16 = (uint32_t)interval_us * TICKS_PER_US; /* at 16 MHz: < 2^25 */
    unsigned prescaler = 0;
    while ((ticks16 >> prescaler) > ticks_max)
        prescaler++;
    uint32_t ticks = (ticks16 + ((1u << prescaler) >> 1)) >> prescaler;  /* nearest */
    if (ticks > ticks_max)
        ticks = ticks_max;

    NRF51_TIMER_TASKS_STOP(base) = NRF51_TASK_TRIGGER;
    NRF51_TIMER_INTENCLR(base) = 0xFFFFFFFFu;
    NRF51_TIMER_TASKS_CLEAR(base) = NRF51_TASK_TRIGGER;
    NRF51_TIMER_MODE(base) = NRF51_TIMER_MODE_TIMER;
    NRF51_TIMER_BITMODE(base) = NRF51_TIMER_BITMODE_16;
    NRF51_TIMER_PRESCALER(base) = prescaler;
    NRF51_TIMER_CC(base, 0) = ticks;
    NRF51_TIMER_SHORTS(base) = NRF51_TIMER_SHORTS_COMPARE_CLEAR(0);
    NRF51_TIMER_EVENTS_COMPARE(base, 0) = NRF51_EVENT_CLEAR;
    NRF51_TIMER_INTENSET(base) = NRF51_TIMER_INT_COMPARE(0);
    board_irq_unpend(irq); /* nothing stale from an earlier run */
    board_irq_enable(irq, priority);
    NRF51_TIMER_TASKS_START(base) = NRF51_TASK_TRIGGER;
    /* The interval the hardware times, in whole us (exact up to PRESCALER 4). */
    return (int)((ticks << prescaler) / TICKS_PER_US);
}

void nrf51_timer_stop(uint32_t base, int irq)
{
    NRF51_TIMER_TASKS_STOP(base) = NRF51_TASK_TRIGGER;
    NRF51_TIMER_INTENCLR(base) = 0xFFFFFFFFu;
    NRF51_TIMER_EVENTS_COMPARE(base, 0) = NRF51_EVENT_CLEAR;
    board_irq_disable(irq); /* with its barrier: the handler is not entered after this */
    board_irq_unpend(irq);
}

int board_fast_timer_start(int interval_us, unsigned priority)
{
    return nrf51_timer_start(BOARD_FAST_TIMER_BASE, BOARD_FAST_TIMER_IRQ, interval_us, 1, priority,
                             TIMER_TICKS_MAX);
}

void board_fast_timer_stop(void)
{
    nrf51_timer_stop(BOARD_FAST_TIMER_BASE, BOARD_FAST_TIMER_IRQ);
}

void board_fast_timer_ack(void)
{
    NRF51_TIMER_EVENTS_COMPARE(BOARD_FAST_TIMER_BASE, 0) = NRF51_EVENT_CLEAR;
}
