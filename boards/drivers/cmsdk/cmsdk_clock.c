/*
 * The board API's monotonic clock on a CMSDK dual timer: its first counter runs free at the
 * peripheral clock from board_init(), counting down from 0xFFFFFFFF and wrapping every 2^32
 * ticks (about 172 s at 25 MHz). Its wrap interrupt counts the wraps into the upper 32 bits.
 */
#include <cyg/hal/board.h>
#include "cmsdk.h"

#define DT BOARD_CMSDK_DUALTIMER_BASE

/*
 * Wraps of the 32-bit counter since reset: the upper half of board_clock_ticks().
 * Written only by the dual timer's interrupt handler (once per 2^32 ticks); read by
 * board_clock_ticks() in any context.
 */
static volatile uint32_t clock_wraps;

void cmsdk_clock_init(void)
{
    CMSDK_DUALTIMER1_CTRL(DT) = 0;
    CMSDK_DUALTIMER1_LOAD(DT) = 0xFFFFFFFFu;
    CMSDK_DUALTIMER1_INTCLR(DT) = 1;
    /* Free-running (not periodic), 32-bit, no prescaler, interrupt at each wrap. */
    CMSDK_DUALTIMER1_CTRL(DT) = CMSDK_DUALTIMER_CTRL_EN | CMSDK_DUALTIMER_CTRL_32BIT |
                                CMSDK_DUALTIMER_CTRL_INTEN;
    /* Least urgent: it only has to run within 172 s, and must not disturb anything. */
    board_irq_enable(BOARD_IRQ_DUALTIMER, BOARD_IRQ_PRIO_MAX);
}

void BOARD_DUALTIMER_HANDLER(void)
{
    CMSDK_DUALTIMER1_INTCLR(DT) = 1;
    clock_wraps++;
}

uint64_t board_clock_ticks(void)
{
    uint32_t wraps, value, wrap_pending;
    do {
        wraps = clock_wraps;
        value = CMSDK_DUALTIMER1_VALUE(DT);
        wrap_pending = CMSDK_DUALTIMER1_RIS(DT) & 1u;
    } while (wraps != clock_wraps);
    /*
     * A wrap whose interrupt has not been taken yet (interrupts masked, or a more urgent
     * handler running): if the counter was read after that wrap it is near the top again,
     * and the wrap must be counted here. Read before the wrap, it is near 0 and must not.
     */
    if (wrap_pending && value > 0x80000000u)
        wraps++;
    return ((uint64_t)wraps << 32) | (0xFFFFFFFFu - value);
}

uint64_t board_clock_us(void)
{
    return board_clock_ticks() / (BOARD_CLOCK_HZ / 1000000u);
}

uint32_t board_clock_ms(void)
{
    return (uint32_t)(board_clock_ticks() / (BOARD_CLOCK_HZ / 1000u));
}
_Static_assert(BOARD_CLOCK_HZ == BOARD_CMSDK_PCLK_HZ, "the board clock counts peripheral clock ticks");
