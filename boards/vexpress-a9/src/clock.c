/*
 * The board API's monotonic clock on the Cortex-A9 global timer: a 64-bit counter of
 * PERIPHCLK (BOARD_A9_GTIMER_HZ), started by board_init() and never stopped. 64 bits do not
 * wrap (5800 years at 100 MHz), so there is no interrupt and no state here: the hardware
 * holds it all, and reading it is safe from any context.
 */
#include "vexpress_a9.h"

void vexpress_clock_init(void)
{
    A9_GTIMER_CTRL = 0; /* prescaler 0: one tick per PERIPHCLK cycle */
    A9_GTIMER_COUNT_LO = 0;
    A9_GTIMER_COUNT_HI = 0;
    A9_GTIMER_CTRL = A9_GTIMER_CTRL_EN;
}

uint64_t board_clock_ticks(void)
{
    /* The halves are read separately: read the upper half again until it has not moved. */
    uint32_t hi, lo;
    do {
        hi = A9_GTIMER_COUNT_HI;
        lo = A9_GTIMER_COUNT_LO;
    } while (A9_GTIMER_COUNT_HI != hi);
    return ((uint64_t)hi << 32) | lo;
}

uint64_t board_clock_us(void)
{
    return board_clock_ticks() / (BOARD_CLOCK_HZ / 1000000u);
}

uint32_t board_clock_ms(void)
{
    return (uint32_t)(board_clock_ticks() / (BOARD_CLOCK_HZ / 1000u));
}
_Static_assert(BOARD_CLOCK_HZ % 1000000 == 0, "the board clock has whole ticks per microsecond");
