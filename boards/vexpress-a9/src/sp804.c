/*
 * SP804 dual timers as periodic interrupt sources: the board's profile timer
 * (profile_timer.c) and the board API's fast timer (here). No state of its own: the
 * hardware holds it.
 *
 * Interval maths: the counter counts down from TimerLoad at 1 MHz and interrupts as it
 * reloads; QEMU's SP804 has a period of TimerLoad ticks (measured: 1000 periods of
 * TimerLoad = 100 take 100.000 ms of the global timer), so N us is TimerLoad = N. The
 * 32-bit counter times any int number of microseconds.
 */
#include <errno.h>

#include "vexpress_a9.h"

#define TICKS_PER_US (BOARD_SP804_CLOCK_HZ / 1000000u)
_Static_assert(BOARD_SP804_CLOCK_HZ == 1000000, "N us is N ticks: the maths below assume 1 MHz");

int sp804_start(uint32_t base, int irq, int interval_us, int min_us, unsigned level)
{
    if (interval_us <= 0)
        return -EINVAL;
    if (interval_us < min_us)
        interval_us = min_us;

    SP804_CTRL(base) = 0;
    SP804_CTRL(SP804_SECOND(base)) = 0; /* (it shares the interrupt line) */
    SP804_LOAD(base) = (uint32_t)interval_us * TICKS_PER_US;
    SP804_INTCLR(base) = 1;
    board_irq_unpend(irq); /* nothing stale from an earlier run */
    armv7a_gic_enable(irq, level);
    SP804_CTRL(base) = SP804_CTRL_EN | SP804_CTRL_PERIODIC | SP804_CTRL_IE | SP804_CTRL_32BIT;
    return interval_us;
}

void sp804_stop(uint32_t base, int irq)
{
    SP804_CTRL(base) = 0;
    SP804_INTCLR(base) = 1;
    board_irq_disable(irq); /* with its read back: the handler is not entered after this */
    board_irq_unpend(irq);
}

int board_fast_timer_start(int interval_us, unsigned priority)
{
    if (priority > BOARD_IRQ_PRIO_MAX)
        priority = BOARD_IRQ_PRIO_MAX;
    /* (board priority p is GIC level p + 1: gic.c) */
    return sp804_start(BOARD_TIMER23_BASE, BOARD_FAST_TIMER_IRQ, interval_us, 1, priority + 1u);
}

void board_fast_timer_stop(void)
{
    sp804_stop(BOARD_TIMER23_BASE, BOARD_FAST_TIMER_IRQ);
}

void board_fast_timer_ack(void)
{
    SP804_INTCLR(BOARD_TIMER23_BASE) = 1;
}
