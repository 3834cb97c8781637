/*
 * What every board gives firmware and the tests, whatever its architecture: the console,
 * a monotonic clock, interrupt control, a periodic "fast timer" and a software-pendable
 * interrupt. Each board implements these in boards/<board>/ and includes this header from
 * its <cyg/hal/board.h>, which also defines the constants below. This header includes the
 * board's <cyg/hal/board.h> in turn (at its end, after its declarations, which board.h may
 * use): either header alone gives the whole API, constants included.
 *
 * Constants a board's <cyg/hal/board.h> defines:
 *   BOARD_CLOCK_HZ             ticks per second of board_clock_ticks()
 *   BOARD_IRQ_COUNT            interrupt lines board_irq_*() accept: 0 .. BOARD_IRQ_COUNT-1
 *   BOARD_IRQ_PRIO_MAX         least urgent priority; 0 is the most urgent
 *   BOARD_PROFILE_TIMER_PRIO   priority of the profile timer (the most urgent the board has,
 *                              so that samples land inside other interrupt handlers)
 *   BOARD_SOFT_IRQ, BOARD_SOFT_IRQ_HANDLER
 *                              a line nothing drives, to pend from software, and the name of
 *                              its handler (define void BOARD_SOFT_IRQ_HANDLER(void))
 *   BOARD_FAST_TIMER_IRQ, BOARD_FAST_TIMER_HANDLER
 *                              the fast timer's line and handler name
 */
#ifndef CYGONCE_HAL_BOARD_API_H
#define CYGONCE_HAL_BOARD_API_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bring up what the C library and the clock need (console, clock). Called by the
 *  architecture's startup code before constructors and main(), interrupts masked. */
void board_init(void);

/* ---- console --------------------------------------------------------------------------- */

/** Write one byte to the console, waiting while its transmitter is full. */
void board_console_putc(char c);
/** Read one byte from the console, waiting for it. */
int board_console_getc(void);
/** Nonzero if board_console_getc() would not wait. */
int board_console_rx_ready(void);

/* ---- monotonic clock ------------------------------------------------------------------- */

/**
 * Ticks of BOARD_CLOCK_HZ since reset, 64 bits, monotonic; safe from any context (also with
 * interrupts masked). Under QEMU -icount sleep=off a CPU held by gdb counts as idle, so the
 * clock can leap forward across a debugger stop.
 */
uint64_t board_clock_ticks(void);
/** Microseconds since reset. */
uint64_t board_clock_us(void);
/** Milliseconds since reset, wrapping at 2^32 (what lwIP's sys_now() wants). */
uint32_t board_clock_ms(void);

/* ---- interrupts ------------------------------------------------------------------------ */

/** Set the priority of irq (clamped to 0..BOARD_IRQ_PRIO_MAX) and enable it. */
void board_irq_enable(int irq, unsigned priority);
/** Disable irq; no entry to its handler starts after this returns (a pending request
 *  stays pending). */
void board_irq_disable(int irq);
/** Make irq pending from software. If it is enabled and more urgent than the current
 *  execution priority, its handler has run by the time this returns. */
void board_irq_pend(int irq);
/** Forget a pending request for irq. */
void board_irq_unpend(int irq);

/* ---- the fast timer (free for firmware and tests) -------------------------------------- */

/**
 * Interrupt every interval_us (clamped to the hardware's range) at the given priority.
 * Define void BOARD_FAST_TIMER_HANDLER(void) and call board_fast_timer_ack() in it.
 * @return the interval used in microseconds, or -EINVAL for interval_us <= 0
 */
int board_fast_timer_start(int interval_us, unsigned priority);
void board_fast_timer_stop(void);
void board_fast_timer_ack(void);

#ifdef __cplusplus
}
#endif

/* The constants (BOARD_CLOCK_HZ, ...): without them the API above cannot be used. When
 * board.h came first and included this header, its guard makes this a no-op. */
#include <cyg/hal/board.h>
#endif
