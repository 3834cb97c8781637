/*
 * BBC micro:bit (v1): Nordic nRF51822, Cortex-M0 at 16 MHz, 256 KiB flash, 16 KiB RAM, as
 * QEMU's microbit machine models it.
 *
 * What the board gives firmware beyond the profiling HAL contract is the board API of every
 * board (<cyg/hal/board_api.h>): interrupt control on the NVIC, a monotonic clock, the
 * console on UART0 (the C library's stdin/stdout/stderr), the fast timer; this header adds
 * the board's constants.
 *
 * Resources the board keeps for itself:
 *   TIMER1 (IRQ 9)     the profile timer (hal_enable_profile_timer()); its handler is
 *                      TIMER1_IRQHandler
 *   TIMER0 (IRQ 8)     the monotonic clock (32-bit, 16 MHz); TIMER0_IRQHandler
 *   UART0              console (polled; its interrupt is left free), TXD on P0.24, RXD on
 *                      P0.25 (the micro:bit's USB serial bridge)
 * For firmware: TIMER2 (IRQ 10) as the "fast timer" (board_fast_timer_*()), SysTick (QEMU
 * has one; the nRF51's Cortex-M0 does not), every other IRQ and exception: define a handler
 * by its name (void TIMER2_IRQHandler(void), void SWI0_IRQHandler(void), ...) and it
 * replaces the weak default in the vector table. An exception or IRQ that fires without a
 * handler prints "*** unhandled exception N at pc 0x..." and exits with status 128 + N
 * (HardFault: 131, IRQ n: 144 + n).
 *
 * With Nordic's SoftDevice (BLE stack), which reserves TIMER0, RTC0 and SWI1/2/4/5, the
 * clock must move to RTC1 (QEMU 7.2 does not model the RTCs): see README.md.
 */
#ifndef CYGONCE_HAL_BOARD_H
#define CYGONCE_HAL_BOARD_H

#include <stdint.h>
#include <cyg/hal/board_api.h>

/* The nRF51 TIMERs count a 16 MHz clock (HFCLK) divided by 2^PRESCALER; the board clock
 * counts it undivided. */
#define BOARD_NRF51_TIMER_CLOCK_HZ 16000000u
#define BOARD_CLOCK_HZ BOARD_NRF51_TIMER_CLOCK_HZ

/* ---- interrupts ------------------------------------------------------------------------ */

/* External interrupt numbers (NVIC lines) of the nRF51 (the peripheral's address bits
 * 12-16; QEMU wires the UART, the TIMERs and the RNG). */
enum board_irq {
    BOARD_IRQ_POWER_CLOCK = 0,
    BOARD_IRQ_RADIO = 1,
    BOARD_IRQ_UART0 = 2,
    BOARD_IRQ_SPI0_TWI0 = 3,
    BOARD_IRQ_SPI1_TWI1 = 4,
    BOARD_IRQ_GPIOTE = 6,
    BOARD_IRQ_ADC = 7,
    BOARD_IRQ_TIMER0 = 8,  /* the board clock */
    BOARD_IRQ_TIMER1 = 9,  /* the profile timer */
    BOARD_IRQ_TIMER2 = 10, /* the fast timer */
    BOARD_IRQ_RTC0 = 11,
    BOARD_IRQ_TEMP = 12,
    BOARD_IRQ_RNG = 13,
    BOARD_IRQ_ECB = 14,
    BOARD_IRQ_CCM_AAR = 15,
    BOARD_IRQ_WDT = 16,
    BOARD_IRQ_RTC1 = 17,
    BOARD_IRQ_QDEC = 18,
    BOARD_IRQ_LPCOMP = 19,
    BOARD_IRQ_SWI0 = 20, /* 20..25: software interrupts, which no peripheral drives */
    BOARD_IRQ_SWI5 = 25,
    BOARD_IRQ_COUNT = 32
};

/* The vector table's IRQ entries, in NVIC order (hal/cortexm/src/startup.c): the handler
 * names firmware defines to take an interrupt (Nordic's names; the unused lines get names
 * of their own so that each has an entry). */
#define BOARD_IRQ_VECTORS(X)                                                                  \
    X(POWER_CLOCK_IRQHandler) X(RADIO_IRQHandler) X(UART0_IRQHandler)                         \
    X(SPI0_TWI0_IRQHandler) X(SPI1_TWI1_IRQHandler) X(Reserved5_IRQHandler)                   \
    X(GPIOTE_IRQHandler) X(ADC_IRQHandler) X(TIMER0_IRQHandler) X(TIMER1_IRQHandler)          \
    X(TIMER2_IRQHandler) X(RTC0_IRQHandler) X(TEMP_IRQHandler) X(RNG_IRQHandler)              \
    X(ECB_IRQHandler) X(CCM_AAR_IRQHandler) X(WDT_IRQHandler) X(RTC1_IRQHandler)              \
    X(QDEC_IRQHandler) X(LPCOMP_IRQHandler) X(SWI0_IRQHandler) X(SWI1_IRQHandler)             \
    X(SWI2_IRQHandler) X(SWI3_IRQHandler) X(SWI4_IRQHandler) X(SWI5_IRQHandler)               \
    X(Reserved26_IRQHandler) X(Reserved27_IRQHandler) X(Reserved28_IRQHandler)                \
    X(Reserved29_IRQHandler) X(Reserved30_IRQHandler) X(Reserved31_IRQHandler)

/* Peripherals; written without a U suffix, for assembly templates too. */
#define BOARD_NRF51_UART_BASE 0x40002000
#define BOARD_NRF51_UART_PSELTXD 24 /* P0.24: the micro:bit's USB serial bridge */
#define BOARD_NRF51_UART_PSELRXD 25
#define BOARD_CLOCK_TIMER_BASE 0x40008000 /* TIMER0 (32-bit capable on the nRF51) */
#define BOARD_CLOCK_TIMER_IRQ BOARD_IRQ_TIMER0
#define BOARD_CLOCK_TIMER_HANDLER TIMER0_IRQHandler
#define BOARD_PROFILE_TIMER_BASE 0x40009000 /* TIMER1 (16-bit) */
#define BOARD_PROFILE_TIMER_IRQ BOARD_IRQ_TIMER1
#define BOARD_PROFILE_TIMER_HANDLER TIMER1_IRQHandler
#define BOARD_FAST_TIMER_BASE 0x4000A000 /* TIMER2 (16-bit) */

/*
 * Priorities are 0 (most urgent) .. 3: the two bits every ARMv6-M core implements. The
 * profile timer runs at 0 so that it samples inside every other handler; give firmware
 * interrupts 1..3, or they hide from the profile (a priority-0 handler cannot be preempted
 * by the sampling interrupt, and its time is charged to wherever it returns).
 */
#define BOARD_IRQ_PRIO_BITS 2
#define BOARD_IRQ_PRIO_MAX ((1u << BOARD_IRQ_PRIO_BITS) - 1) /* least urgent */

/* Priority of the profile timer (TIMER1). */
#define BOARD_PROFILE_TIMER_PRIO 0

/*
 * An interrupt for tests to pend from software: SWI0, a software interrupt line that no
 * peripheral drives (and that the SoftDevice leaves to the application).
 * Define void BOARD_SOFT_IRQ_HANDLER(void) to take it.
 */
#define BOARD_SOFT_IRQ BOARD_IRQ_SWI0
#define BOARD_SOFT_IRQ_HANDLER SWI0_IRQHandler

/*
 * The fast timer: TIMER2 (IRQ 10) interrupting every interval_us at the given priority
 * (0..3). Exact from 1 us to 65535 us (1/16 us ticks up to 4095 us, then a prescaler); in
 * steps of 2, 4, ... 32 us up to 2097120 us (clamped). Define
 * void BOARD_FAST_TIMER_HANDLER(void) and call board_fast_timer_ack() in it.
 * board_fast_timer_start() returns the interval used, or -EINVAL for interval_us <= 0.
 */
#define BOARD_FAST_TIMER_IRQ BOARD_IRQ_TIMER2
#define BOARD_FAST_TIMER_HANDLER TIMER2_IRQHandler
#endif
