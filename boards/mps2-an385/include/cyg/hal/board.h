/*
 * Arm MPS2 with the AN385 FPGA image (Cortex-M3), as QEMU's mps2-an385 models it.
 *
 * What the board gives firmware beyond the profiling HAL contract:
 *   - IRQ numbers and a small NVIC interface (enable with a priority, disable, pend from
 *     software), so tests can take interrupts of chosen priorities;
 *   - a free-running monotonic clock on the CMSDK dual timer (e.g. lwIP's sys_now());
 *   - the console on UART0 (newlib's stdin/stdout/stderr; see syscalls.c).
 *
 * Resources the board keeps for itself:
 *   APB TIMER0 (IRQ 8)    the profile timer (hal_enable_profile_timer()); its handler is
 *                         TIMER0_IRQHandler in profile_timer.c
 *   dual timer (IRQ 10)   the monotonic clock; DUALTIMER_IRQHandler in clock.c
 *   UART0                 console (polled; its interrupts are left free)
 * For firmware: APB TIMER1 (IRQ 9) as the "fast timer" (board_fast_timer_*()), SysTick,
 * every other IRQ and exception: define a handler by its name (void TIMER1_IRQHandler(void),
 * void PORT0_0_IRQHandler(void), void SysTick_Handler(void), ...) and it replaces the weak
 * default in the vector table. An exception or IRQ that fires without a handler prints
 * "*** unhandled exception N at pc 0x..." and exits with status 128 + N (HardFault: 131,
 * IRQ n: 144 + n).
 */
#ifndef CYGONCE_HAL_BOARD_H
#define CYGONCE_HAL_BOARD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Clock of the APB peripherals (timers, UARTs): QEMU's SYSCLK_FRQ for MPS2, 25 MHz. */
#define BOARD_APB_CLOCK_HZ 25000000u

/* ---- interrupts ------------------------------------------------------------------------ */

/* External interrupt numbers (NVIC lines) of AN385, as QEMU wires them. */
enum board_irq {
    BOARD_IRQ_UARTRX0 = 0,
    BOARD_IRQ_UARTTX0 = 1,
    BOARD_IRQ_UARTRX1 = 2,
    BOARD_IRQ_UARTTX1 = 3,
    BOARD_IRQ_UARTRX2 = 4,
    BOARD_IRQ_UARTTX2 = 5,
    BOARD_IRQ_PORT0_ALL = 6,
    BOARD_IRQ_PORT1_ALL = 7,
    BOARD_IRQ_TIMER0 = 8,     /* the profile timer */
    BOARD_IRQ_TIMER1 = 9,
    BOARD_IRQ_DUALTIMER = 10, /* the board clock */
    BOARD_IRQ_SPI = 11,
    BOARD_IRQ_UARTOVF = 12,   /* overflow of UART0-2, ORed */
    BOARD_IRQ_ETHERNET = 13,  /* LAN9118 at 0x40200000 */
    BOARD_IRQ_I2S = 14,
    BOARD_IRQ_TSC = 15,
    BOARD_IRQ_PORT2_ALL = 16,
    BOARD_IRQ_PORT3_ALL = 17,
    BOARD_IRQ_UARTRX3 = 18,
    BOARD_IRQ_UARTTX3 = 19,
    BOARD_IRQ_UARTRX4 = 20,
    BOARD_IRQ_UARTTX4 = 21,
    BOARD_IRQ_ADCSPI = 22,
    BOARD_IRQ_SHIELDSPI = 23,
    BOARD_IRQ_PORT0_0 = 24, /* 24..31: PORT0 pins 0..7; no device drives them in QEMU, */
    BOARD_IRQ_PORT0_7 = 31, /* so they are the ones to pend from software in tests.     */
    BOARD_IRQ_COUNT = 32
};

/*
 * Priorities are 0 (most urgent) .. 7: the three bits the AN385 Cortex-M3 implements
 * (QEMU models more; only these three are used so that the numbers mean the same on the
 * FPGA). The profile timer runs at 0 so that it samples inside every other handler; give
 * firmware interrupts 1..7, or they hide from the profile (a priority-0 handler cannot be
 * preempted by the sampling interrupt, and its time is charged to wherever it returns).
 */
#define BOARD_IRQ_PRIO_BITS 3
#define BOARD_IRQ_PRIO_MAX ((1u << BOARD_IRQ_PRIO_BITS) - 1) /* least urgent */

/* Priority of the profile timer (TIMER0). */
#define BOARD_PROFILE_TIMER_PRIO 0

/* Set the priority of irq (clamped to 0..BOARD_IRQ_PRIO_MAX) and enable it in the NVIC. */
void board_irq_enable(int irq, unsigned priority);
/* Disable irq in the NVIC (a pending request stays pending). */
void board_irq_disable(int irq);
/*
 * Make irq pending from software. If it is enabled and more urgent than the current
 * execution priority, its handler has run by the time this returns.
 */
void board_irq_pend(int irq);
/* Forget a pending request for irq. */
void board_irq_unpend(int irq);

/*
 * An interrupt for tests to pend from software: PORT0 pin 0, which nothing drives in QEMU.
 * Define void BOARD_SOFT_IRQ_HANDLER(void) to take it.
 */
#define BOARD_SOFT_IRQ BOARD_IRQ_PORT0_0
#define BOARD_SOFT_IRQ_HANDLER PORT0_0_IRQHandler

/*
 * The fast timer: APB TIMER1 (IRQ 9) interrupting every interval_us (1 .. 171798691,
 * clamped; exact, 25 ticks per us) at the given priority (0..7). Define
 * void BOARD_FAST_TIMER_HANDLER(void) and call board_fast_timer_ack() in it.
 * board_fast_timer_start() returns the interval used, or -EINVAL for interval_us <= 0.
 */
#define BOARD_FAST_TIMER_IRQ BOARD_IRQ_TIMER1
#define BOARD_FAST_TIMER_HANDLER TIMER1_IRQHandler
int board_fast_timer_start(int interval_us, unsigned priority);
void board_fast_timer_stop(void);
void board_fast_timer_ack(void);

/* ---- monotonic clock ------------------------------------------------------------------- */

/*
 * Ticks of BOARD_APB_CLOCK_HZ since reset: the dual timer's first counter runs free from
 * reset (started before main), and its wrap interrupt (every 2^32 ticks, about 172 s)
 * extends it to 64 bits. Monotonic, safe from any context (also with interrupts masked).
 * Under QEMU -icount sleep=off, a CPU held by gdb counts as idle: virtual time may jump to
 * the next timer deadline (up to 172 s for this clock alone), so the clock can leap forward
 * across a debugger stop. Counts of anything stay exact; timers just fire on resume.
 */
uint64_t board_clock_ticks(void);
/* Microseconds since reset. */
uint64_t board_clock_us(void);
/* Milliseconds since reset, wrapping at 2^32 (what lwIP's sys_now() wants). */
uint32_t board_clock_ms(void);

/* ---- console --------------------------------------------------------------------------- */

/* Write one byte to UART0, waiting while its transmit buffer is full. */
void board_console_putc(char c);
/* Read one byte from UART0, waiting for it. */
int board_console_getc(void);

#ifdef __cplusplus
}
#endif
#endif
