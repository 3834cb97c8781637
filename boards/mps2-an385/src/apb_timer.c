/*
 * The two CMSDK APB timers as periodic interrupt sources: TIMER0 is the profile timer
 * (profile_timer.c), TIMER1 the "fast timer" that firmware and tests may use
 * (board_fast_timer_*() in <cyg/hal/board.h>). No state of its own: the hardware holds it.
 *
 * Interval maths: a timer counts RELOAD, RELOAD-1, ..., 0 and interrupts as it reloads,
 * so one period is RELOAD + 1 ticks of the 25 MHz APB clock (40 ns). N us is exactly
 * 25 * N ticks, so RELOAD = 25 * N - 1. The 32-bit counter times at most 2^32 ticks:
 * AN385_APB_TIMER_MAX_US = floor(2^32 / 25) = 171798691 us (about 172 s).
 */
#include <errno.h>
#include <stdint.h>

#include <cyg/hal/board.h>
#include "an385_regs.h"

#define APB_TIMER_TICKS_PER_US (BOARD_APB_CLOCK_HZ / 1000000u)
_Static_assert(BOARD_APB_CLOCK_HZ % 1000000u == 0, "the APB timers assume whole ticks per microsecond");
_Static_assert(AN385_APB_TIMER_MAX_US == (int)(0x100000000ull / APB_TIMER_TICKS_PER_US),
               "AN385_APB_TIMER_MAX_US must be 2^32 ticks");

int an385_apb_timer_start(uint32_t base, int irq, int interval_us, int min_us, unsigned priority)
{
    if (interval_us <= 0)
        return -EINVAL;
    if (interval_us < min_us)
        interval_us = min_us;
    if (interval_us > AN385_APB_TIMER_MAX_US)
        interval_us = AN385_APB_TIMER_MAX_US;
    uint32_t reload = (uint32_t)interval_us * APB_TIMER_TICKS_PER_US - 1u;

    CMSDK_TIMER_CTRL(base) = 0;
    CMSDK_TIMER_RELOAD(base) = reload;
    CMSDK_TIMER_VALUE(base) = reload;
    CMSDK_TIMER_INTCLEAR(base) = 1;
    board_irq_unpend(irq); /* nothing stale from an earlier run */
    board_irq_enable(irq, priority);
    CMSDK_TIMER_CTRL(base) = CMSDK_TIMER_CTRL_EN | CMSDK_TIMER_CTRL_IRQEN;
    return interval_us;
}

void an385_apb_timer_stop(uint32_t base, int irq)
{
    CMSDK_TIMER_CTRL(base) = 0;
    CMSDK_TIMER_INTCLEAR(base) = 1;
    board_irq_disable(irq); /* with its barrier: the handler is not entered after this */
    board_irq_unpend(irq);
}

int board_fast_timer_start(int interval_us, unsigned priority)
{
    return an385_apb_timer_start(CMSDK_TIMER1_BASE, BOARD_IRQ_TIMER1, interval_us, 1, priority);
}

void board_fast_timer_stop(void)
{
    an385_apb_timer_stop(CMSDK_TIMER1_BASE, BOARD_IRQ_TIMER1);
}

void board_fast_timer_ack(void)
{
    CMSDK_TIMER_INTCLEAR(CMSDK_TIMER1_BASE) = 1;
}
