/*
 * The board's monotonic clock: the first counter of the CMSDK dual timer runs free at the
 * APB clock (25 MHz) from reset, counting down from 0xFFFFFFFF and wrapping every 2^32
 * ticks (about 172 s). Its wrap interrupt counts the wraps into the upper 32 bits.
 */
#include <cyg/hal/board.h>
#include "an385_regs.h"

/*
 * Wraps of the 32-bit counter since reset: the upper half of board_clock_ticks().
 * Written only by DUALTIMER_IRQHandler (once per 172 s); read by board_clock_ticks() in
 * any context.
 */
static volatile uint32_t clock_wraps;

void an385_clock_init(void)
{
    CMSDK_DUALTIMER1_CTRL = 0;
    CMSDK_DUALTIMER1_LOAD = 0xFFFFFFFFu;
    CMSDK_DUALTIMER1_INTCLR = 1;
    /* Free-running (not periodic), 32-bit, no prescaler, interrupt at each wrap. */
    CMSDK_DUALTIMER1_CTRL = CMSDK_DUALTIMER_CTRL_EN | CMSDK_DUALTIMER_CTRL_32BIT |
                            CMSDK_DUALTIMER_CTRL_INTEN;
    /* Least urgent: it only has to run within 172 s, and must not disturb anything. */
    board_irq_enable(BOARD_IRQ_DUALTIMER, BOARD_IRQ_PRIO_MAX);
}

void DUALTIMER_IRQHandler(void)
{
    CMSDK_DUALTIMER1_INTCLR = 1;
    clock_wraps++;
}

uint64_t board_clock_ticks(void)
{
    uint32_t wraps, value, wrap_pending;
    do {
        wraps = clock_wraps;
        value = CMSDK_DUALTIMER1_VALUE;
        wrap_pending = CMSDK_DUALTIMER1_RIS & 1u;
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
    return board_clock_ticks() / (BOARD_APB_CLOCK_HZ / 1000000u);
}

uint32_t board_clock_ms(void)
{
    return (uint32_t)(board_clock_ticks() / (BOARD_APB_CLOCK_HZ / 1000u));
}
