/*
 * The profile timer of vexpress-a9: the first counter of the SP804 at 0x10011000 (GIC
 * interrupt 34), at 1 MHz. Its interrupt has GIC level 0, the most urgent, which no other
 * interrupt gets (board priorities start at level 1: hal/armv7a/src/gic.c), so samples land
 * inside every firmware interrupt handler. The sample itself is taken by the architecture's
 * IRQ entry (hal/armv7a/src/vectors.S): it recognises BOARD_PROFILE_TIMER_IRQ and calls
 * BOARD_PROFILE_TIMER_SAMPLE, sp804_profile_sample below, with the interrupted PC, from the
 * IRQ mode's banked lr. Only code that masks IRQs (CPSR.I: the IRQ entry's own instructions,
 * the package's table updates) holds a sample back; it is then taken as soon as they end.
 *
 * Interval: N us is N ticks, exactly (sp804.c); requests below PROFILE_TIMER_MIN_US are
 * raised to it, and requests above 2^31 - 1 us lowered to it (a dithered period reaches
 * twice the interval). The interval used is returned; 0 or negative requests give -EINVAL.
 * The shortest interval, 16 us, is longer than the shortest period, 10 us (at shorter
 * periods the sampling interrupt would eat a large part of the CPU), because the dither's
 * steps lie between the two, in whole ticks of 1 us: at a 10 us interval the step had one
 * value, the offsets came round in a fixed order, and a share was 1.7 points off an
 * instruction trace; at 16 us it has six.
 *
 * Dithered (<cyg/profile/dither.h>): the counter reloads itself from TimerBGLoad at the end
 * of each period, without the handler, and a write there changes only the periods after the
 * one running. So each handler writes the period after next; the periods follow one another
 * exactly as the sequence gives them, the handler's latency never adds up, and their mean is
 * exactly the interval.
 */
#include <stdint.h>

#include <cyg/profile/dither.h>
#include <cyg/profile/hal.h>
#include "vexpress_a9.h"

/* Shortest interval granted; the shortest dithered period. */
#define PROFILE_TIMER_MIN_US 16
#define PROFILE_PERIOD_MIN_US 10
#define PROFILE_TIMER_MAX_US 0x3FFFFFFF
#define SP804_BGLOAD(base) ARMV7A_REG((base) + 0x18)

/*
 * The period sequence. Owned by the profile timer: set by hal_enable_profile_timer()
 * (interrupts masked), then changed only by its interrupt handler.
 */
static struct profile_dither dither;

int hal_enable_profile_timer(int interval_us)
{
    /* Called with interrupts masked: nothing here waits for one. */
    if (interval_us > PROFILE_TIMER_MAX_US)
        interval_us = PROFILE_TIMER_MAX_US;
    int used = sp804_start(BOARD_TIMER01_BASE, BOARD_PROFILE_TIMER_IRQ, interval_us,
                           PROFILE_TIMER_MIN_US, 0);
    if (used > 0) {
        profile_dither_start(&dither, (uint32_t)used, PROFILE_PERIOD_MIN_US);
        /* the period after the first, which the counter starts at its end */
        SP804_BGLOAD(BOARD_TIMER01_BASE) = profile_dither_next(&dither);
    }
    return used;
}

void hal_disable_profile_timer(void)
{
    /* No __profile_hit() starts after this returns (GIC disable with its read back). */
    sp804_stop(BOARD_TIMER01_BASE, BOARD_PROFILE_TIMER_IRQ);
}

/* The sample, from the IRQ entry with IRQs masked: acknowledge, the period after the one
 * now running, then __profile_hit(the interrupted PC). */
void sp804_profile_sample(uintptr_t pc)
{
    SP804_INTCLR(BOARD_TIMER01_BASE) = 1;
    SP804_BGLOAD(BOARD_TIMER01_BASE) = profile_dither_next(&dither);
    __profile_hit(pc);
}
