/*
 * CMSDK APB timers as periodic interrupt sources: the board's profile timer
 * (cmsdk_profile_timer.c) and the board API's fast timer (here). No state of its own: the
 * hardware holds it.
 *
 * Interval maths: a timer counts RELOAD, RELOAD-1, ..., 0 and interrupts as it reloads, so
 * one period is RELOAD + 1 ticks of the peripheral clock. N us is exactly PCLK_MHZ * N ticks,
 * so RELOAD = PCLK_MHZ * N - 1; the 32-bit counter times at most 2^32 ticks.
 */
#include <errno.h>
#include <stdint.h>

#include <cyg/hal/board.h>
#include "cmsdk.h"

#define TICKS_PER_US (BOARD_CMSDK_PCLK_HZ / 1000000u)
_Static_assert(BOARD_CMSDK_PCLK_HZ % 1000000u == 0, "the APB timers assume whole ticks per microsecond");

int cmsdk_timer_start(uint32_t base, int irq, int interval_us, int min_us, unsigned priority)
{
    if (interval_us <= 0)
        return -EINVAL;
    if (interval_us < min_us)
        interval_us = min_us;
    if (interval_us > CMSDK_TIMER_MAX_US(BOARD_CMSDK_PCLK_HZ))
        interval_us = CMSDK_TIMER_MAX_US(BOARD_CMSDK_PCLK_HZ);
    uint32_t reload = (uint32_t)interval_us * TICKS_PER_US - 1u;

    CMSDK_TIMER_CTRL(base) = 0;
    CMSDK_TIMER_RELOAD(base) = reload;
    CMSDK_TIMER_VALUE(base) = reload;
    CMSDK_TIMER_INTCLEAR(base) = 1;
    board_irq_unpend(irq); /* nothing stale from an earlier run */
    board_irq_enable(irq, priority);
    CMSDK_TIMER_CTRL(base) = CMSDK_TIMER_CTRL_EN | CMSDK_TIMER_CTRL_IRQEN;
    return interval_us;
}

void cmsdk_timer_stop(uint32_t base, int irq)
{
    CMSDK_TIMER_CTRL(base) = 0;
    CMSDK_TIMER_INTCLEAR(base) = 1;
    board_irq_disable(irq); /* with its barrier: the handler is not entered after this */
    board_irq_unpend(irq);
}

int board_fast_timer_start(int interval_us, unsigned priority)
{
    return cmsdk_timer_start(BOARD_FAST_TIMER_BASE, BOARD_FAST_TIMER_IRQ, interval_us, 1, priority);
}

void board_fast_timer_stop(void)
{
    cmsdk_timer_stop(BOARD_FAST_TIMER_BASE, BOARD_FAST_TIMER_IRQ);
}

void board_fast_timer_ack(void)
{
    CMSDK_TIMER_INTCLEAR(BOARD_FAST_TIMER_BASE) = 1;
}
