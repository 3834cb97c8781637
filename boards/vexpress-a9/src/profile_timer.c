/*
 * The profile timer of vexpress-a9: the first counter of the SP804 at 0x10011000 (GIC
 * interrupt 34), at 1 MHz. Its interrupt has GIC level 0, the most urgent, which no other
 * interrupt gets (board priorities start at level 1: hal/armv7a/src/gic.c), so samples land
 * inside every firmware interrupt handler. The sample itself is taken by the architecture's
 * IRQ entry (hal/armv7a/src/vectors.S): it recognises BOARD_PROFILE_TIMER_IRQ, acknowledges
 * the timer with BOARD_PROFILE_TIMER_ACK_REG/_VALUE and passes the interrupted PC, from the
 * IRQ mode's banked lr, to __profile_hit(). Only code that masks IRQs (CPSR.I: the IRQ
 * entry's own instructions, the package's table updates) holds a sample back; it is then
 * taken as soon as they end, charged to the instruction after them.
 *
 * Interval: N us is N ticks, exactly (sp804.c); requests below PROFILE_TIMER_MIN_US are
 * raised to it, because at shorter intervals the sampling interrupt would eat a large part
 * of the CPU. The interval used is returned; 0 or negative requests give -EINVAL.
 */
#include <cyg/profile/hal.h>
#include "vexpress_a9.h"

/* Shortest interval granted. */
#define PROFILE_TIMER_MIN_US 10

_Static_assert(BOARD_PROFILE_TIMER_ACK_REG == BOARD_TIMER01_BASE + 0x0C,
               "the IRQ entry acknowledges the profile timer's first counter");

int hal_enable_profile_timer(int interval_us)
{
    /* Called with interrupts masked: nothing here waits for one. */
    return sp804_start(BOARD_TIMER01_BASE, BOARD_PROFILE_TIMER_IRQ, interval_us,
                       PROFILE_TIMER_MIN_US, 0);
}

void hal_disable_profile_timer(void)
{
    /* No __profile_hit() starts after this returns (GIC disable with its read back). */
    sp804_stop(BOARD_TIMER01_BASE, BOARD_PROFILE_TIMER_IRQ);
}
