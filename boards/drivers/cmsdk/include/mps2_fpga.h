/*
 * The system of the MPS2 FPGA images AN385, AN386 and AN500 (Cortex-M3, M4, M7), as QEMU
 * wires all three the same way: the CMSDK peripherals' addresses, the interrupt lines, the
 * vector table's IRQ entries, and the board API's constants for them. Included by those
 * boards' <cyg/hal/board.h>, which add what differs (the LAN9118's address).
 */
#ifndef CYGONCE_MPS2_FPGA_H
#define CYGONCE_MPS2_FPGA_H

/* Clock of the APB peripherals (timers, UARTs): QEMU's SYSCLK_FRQ for MPS2, 25 MHz. The
 * board clock counts it. */
#define BOARD_CMSDK_PCLK_HZ 25000000u
#define BOARD_CLOCK_HZ BOARD_CMSDK_PCLK_HZ

/* ---- interrupts ------------------------------------------------------------------------ */

/* External interrupt numbers (NVIC lines) of AN385 (and AN386, AN500), as QEMU wires them. */
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
    BOARD_IRQ_ETHERNET = 13,  /* LAN9118 (the board gives BOARD_LAN9118_BASE) */
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

/* The vector table's IRQ entries, in NVIC order (hal/cortexm/src/startup.c): the handler
 * names firmware defines to take an interrupt. */
#define BOARD_IRQ_VECTORS(X)                                                                  \
    X(UARTRX0_IRQHandler) X(UARTTX0_IRQHandler) X(UARTRX1_IRQHandler) X(UARTTX1_IRQHandler)   \
    X(UARTRX2_IRQHandler) X(UARTTX2_IRQHandler) X(PORT0_ALL_IRQHandler) X(PORT1_ALL_IRQHandler) \
    X(TIMER0_IRQHandler) X(TIMER1_IRQHandler) X(DUALTIMER_IRQHandler) X(SPI_IRQHandler)       \
    X(UARTOVF_IRQHandler) X(ETHERNET_IRQHandler) X(I2S_IRQHandler) X(TSC_IRQHandler)          \
    X(PORT2_ALL_IRQHandler) X(PORT3_ALL_IRQHandler) X(UARTRX3_IRQHandler) X(UARTTX3_IRQHandler) \
    X(UARTRX4_IRQHandler) X(UARTTX4_IRQHandler) X(ADCSPI_IRQHandler) X(SHIELDSPI_IRQHandler)  \
    X(PORT0_0_IRQHandler) X(PORT0_1_IRQHandler) X(PORT0_2_IRQHandler) X(PORT0_3_IRQHandler)   \
    X(PORT0_4_IRQHandler) X(PORT0_5_IRQHandler) X(PORT0_6_IRQHandler) X(PORT0_7_IRQHandler)

/* Peripherals (boards/drivers/cmsdk, boards/drivers/lan9118); written without a U suffix,
 * for assembly templates too. */
#define BOARD_CMSDK_UART_BASE 0x40004000
#define BOARD_CMSDK_DUALTIMER_BASE 0x40002000
#define BOARD_DUALTIMER_HANDLER DUALTIMER_IRQHandler
#define BOARD_PROFILE_TIMER_BASE 0x40000000 /* APB TIMER0 */
#define BOARD_PROFILE_TIMER_IRQ BOARD_IRQ_TIMER0
#define BOARD_PROFILE_TIMER_HANDLER TIMER0_IRQHandler
#define BOARD_FAST_TIMER_BASE 0x40001000 /* APB TIMER1 */
#define BOARD_LAN9118_IRQ BOARD_IRQ_ETHERNET

/*
 * Priorities are 0 (most urgent) .. 7: three bits, what the AN385 Cortex-M3 implements and
 * the fewest ARMv7-M allows (QEMU models more; only these three are used so that the
 * numbers mean the same on the FPGA and on any Cortex-M4 or M7). The profile timer runs at 0 so that it samples inside every other handler; give
 * firmware interrupts 1..7, or they hide from the profile (a priority-0 handler cannot be
 * preempted by the sampling interrupt, and its time is charged to wherever it returns).
 */
#define BOARD_IRQ_PRIO_BITS 3
#define BOARD_IRQ_PRIO_MAX ((1u << BOARD_IRQ_PRIO_BITS) - 1) /* least urgent */

/* Priority of the profile timer (TIMER0). */
#define BOARD_PROFILE_TIMER_PRIO 0

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
#endif
