/*
 * The board API's monotonic clock on nRF51 TIMER0: 32 bits at 16 MHz (no prescaler), started
 * by board_init() and never stopped, wrapping every 2^32 ticks (about 268 s). The counter is
 * read by capturing it into CC[1]; wraps are counted in software, by noticing that a reading
 * is below the previous one. That needs a reading at least once per wrap: COMPARE[0] and
 * COMPARE[2], half a wrap apart, interrupt at the least urgent priority and take one.
 *
 * (Why not an interrupt at the wrap itself, counted as on the mps2 boards: QEMU 7.2's
 * TIMER model raises a compare event again whenever it is updated while the counter equals
 * CC exactly, so an interrupt at CC = 0 could count one wrap twice; extra readings here are
 * harmless.)
 */
#include <cyg/hal/board.h>
#include <cyg/hal/profile_arch.h>
#include "nrf51.h"

#define T BOARD_CLOCK_TIMER_BASE
#define CAPTURE_CC 1 /* CC[1] receives the counter */

/*
 * The last reading (clock_last) and the wraps seen before it (clock_wraps): together the
 * last value board_clock_ticks() returned. Written only by board_clock_ticks(), with
 * interrupts masked, in whatever context calls it (also the TIMER0 handler).
 */
static uint32_t clock_last, clock_wraps;

void nrf51_clock_init(void)
{
    NRF51_TIMER_TASKS_STOP(T) = NRF51_TASK_TRIGGER;
    NRF51_TIMER_TASKS_CLEAR(T) = NRF51_TASK_TRIGGER;
    NRF51_TIMER_MODE(T) = NRF51_TIMER_MODE_TIMER;
    NRF51_TIMER_BITMODE(T) = NRF51_TIMER_BITMODE_32;
    NRF51_TIMER_PRESCALER(T) = 0;
    NRF51_TIMER_SHORTS(T) = 0;
    /* A quarter and three quarters of a wrap: away from 0, where the counter starts. */
    NRF51_TIMER_CC(T, 0) = 0x40000000u;
    NRF51_TIMER_CC(T, 2) = 0xC0000000u;
    NRF51_TIMER_INTENSET(T) = NRF51_TIMER_INT_COMPARE(0) | NRF51_TIMER_INT_COMPARE(2);
    /* Least urgent: it only has to run within 134 s, and must not disturb anything. */
    board_irq_enable(BOARD_CLOCK_TIMER_IRQ, BOARD_IRQ_PRIO_MAX);
    NRF51_TIMER_TASKS_START(T) = NRF51_TASK_TRIGGER;
}

void BOARD_CLOCK_TIMER_HANDLER(void)
{
    NRF51_TIMER_EVENTS_COMPARE(T, 0) = NRF51_EVENT_CLEAR;
    NRF51_TIMER_EVENTS_COMPARE(T, 2) = NRF51_EVENT_CLEAR;
    (void)board_clock_ticks();
}

uint64_t board_clock_ticks(void)
{
    /* Masked: the capture and the read belong together, and so do the two statics. */
    hal_profile_irq_state irq = hal_profile_irq_save();
    NRF51_TIMER_TASKS_CAPTURE(T, CAPTURE_CC) = NRF51_TASK_TRIGGER;
    uint32_t now = NRF51_TIMER_CC(T, CAPTURE_CC);
    if (now < clock_last)
        clock_wraps++;
    clock_last = now;
    uint64_t ticks = ((uint64_t)clock_wraps << 32) | now;
    hal_profile_irq_restore(irq);
    return ticks;
}

uint64_t board_clock_us(void)
{
    return board_clock_ticks() / (BOARD_CLOCK_HZ / 1000000u);
}

uint32_t board_clock_ms(void)
{
    return (uint32_t)(board_clock_ticks() / (BOARD_CLOCK_HZ / 1000u));
}
