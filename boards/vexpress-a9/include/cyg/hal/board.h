/*
 * Arm Versatile Express with the CoreTile Express A9x4 daughterboard (Cortex-A9 MPCore),
 * as QEMU's vexpress-a9 machine models it (QEMU 7.2; one CPU, 128 MiB of RAM at 0x60000000).
 *
 * What the board gives firmware beyond the profiling HAL contract is the board API of every
 * board (<cyg/hal/board_api.h>): interrupt control on the GIC (hal/armv7a/src/gic.c), a
 * monotonic clock on the Cortex-A9 global timer, the console on UART0 (the C library's
 * stdin/stdout/stderr), the fast timer; this header adds the board's constants. It is
 * usable from assembly (the architecture HAL's IRQ entry reads it).
 *
 * Resources the board keeps for itself:
 *   SP804 TIMER01 (0x10011000, ID 34)   the profile timer, its first counter (the second
 *                                       shares the interrupt line and stays off); sampled by
 *                                       the IRQ entry itself (hal/armv7a/src/vectors.S)
 *   A9 global timer (0x1E000200)        the monotonic clock (64 bits: no interrupt)
 *   UART0 (PL011, 0x10009000)           console (polled; its interrupts are left free)
 * For firmware: SP804 TIMER23 (0x10012000, ID 35) as the "fast timer" (board_fast_timer_*()),
 * the A9 private timer and watchdog, every other interrupt: define a handler by its name
 * (void TIMER23_IRQHandler(void), void SWINT_IRQHandler(void), ...) and it replaces the weak
 * default in the handler table. An interrupt that fires without a handler prints
 * "*** unhandled exception N at pc 0x..." (N = 16 + its ID) and exits with status 128 + N;
 * FIQ, aborts, undefined instructions and SVC likewise, N = their vector number (1-7).
 */
#ifndef CYGONCE_HAL_BOARD_H
#define CYGONCE_HAL_BOARD_H

/* (Constants are written without a U suffix: the assembly of hal/armv7a reads them.) */

/* The A9 MPCore private memory region (PERIPHBASE, the CBAR register). */
#define BOARD_A9_PERIPH_BASE 0x1E000000
#define BOARD_GICC_BASE (BOARD_A9_PERIPH_BASE + 0x100)
#define BOARD_A9_GTIMER_BASE (BOARD_A9_PERIPH_BASE + 0x200)
#define BOARD_GICD_BASE (BOARD_A9_PERIPH_BASE + 0x1000)

/* The global timer counts PERIPHCLK: QEMU models 10 ns a tick at prescaler 0. The board
 * clock counts it. */
#define BOARD_A9_GTIMER_HZ 100000000
#define BOARD_CLOCK_HZ BOARD_A9_GTIMER_HZ

/* Motherboard peripherals ("legacy" memory map of the V2M-P1 motherboard, as for the A9). */
#define BOARD_UART0_BASE 0x10009000     /* PL011: the console */
#define BOARD_SP804_CLOCK_HZ 1000000    /* both SP804s count a 1 MHz reference */
#define BOARD_TIMER01_BASE 0x10011000   /* SP804: the profile timer */
#define BOARD_TIMER23_BASE 0x10012000   /* SP804: the fast timer */
#define BOARD_LAN9118_BASE 0x4E000000

/* ---- interrupts ------------------------------------------------------------------------ */

/*
 * GIC interrupt IDs: 0-15 software generated, 27/29/30 the A9's global timer, private timer
 * and watchdog, 32 + n the motherboard's (n < 43) and daughterboard's (n >= 48) interrupt
 * n, as QEMU wires them.
 */
#define BOARD_IRQ_COUNT 96
#define BOARD_IRQ_SWINT 33   /* the motherboard's software interrupt (not driven in QEMU) */
#define BOARD_IRQ_TIMER01 34 /* SP804 at 0x10011000: the profile timer */
#define BOARD_IRQ_TIMER23 35 /* SP804 at 0x10012000: the fast timer */
#define BOARD_IRQ_UART0 37
#define BOARD_IRQ_ETHERNET 47 /* LAN9118 */

/* The handler table's entries (hal/armv7a/src/startup.c), in ID order: the names firmware
 * defines to take an interrupt. IRQn_Handler: an ID nothing drives in QEMU. */
#define BOARD_IRQ_VECTORS(X)                                                                 \
    X(SGI0_IRQHandler) X(SGI1_IRQHandler) X(SGI2_IRQHandler) X(SGI3_IRQHandler)              \
    X(SGI4_IRQHandler) X(SGI5_IRQHandler) X(SGI6_IRQHandler) X(SGI7_IRQHandler)              \
    X(SGI8_IRQHandler) X(SGI9_IRQHandler) X(SGI10_IRQHandler) X(SGI11_IRQHandler)            \
    X(SGI12_IRQHandler) X(SGI13_IRQHandler) X(SGI14_IRQHandler) X(SGI15_IRQHandler)          \
    X(IRQ16_Handler) X(IRQ17_Handler) X(IRQ18_Handler) X(IRQ19_Handler)                      \
    X(IRQ20_Handler) X(IRQ21_Handler) X(IRQ22_Handler) X(IRQ23_Handler)                      \
    X(IRQ24_Handler) X(IRQ25_Handler) X(IRQ26_Handler) X(GTIMER_IRQHandler)                  \
    X(IRQ28_Handler) X(PTIMER_IRQHandler) X(PWDT_IRQHandler) X(IRQ31_Handler)                \
    X(IRQ32_Handler) X(SWINT_IRQHandler) X(TIMER01_IRQHandler) X(TIMER23_IRQHandler)         \
    X(RTC_IRQHandler) X(UART0_IRQHandler) X(UART1_IRQHandler) X(UART2_IRQHandler)            \
    X(UART3_IRQHandler) X(MMCI0_IRQHandler) X(MMCI1_IRQHandler) X(AACI_IRQHandler)           \
    X(KMI0_IRQHandler) X(KMI1_IRQHandler) X(CLCD_IRQHandler) X(ETHERNET_IRQHandler)          \
    X(IRQ48_Handler) X(IRQ49_Handler) X(IRQ50_Handler) X(IRQ51_Handler)                      \
    X(IRQ52_Handler) X(IRQ53_Handler) X(IRQ54_Handler) X(IRQ55_Handler)                      \
    X(IRQ56_Handler) X(IRQ57_Handler) X(IRQ58_Handler) X(IRQ59_Handler)                      \
    X(IRQ60_Handler) X(IRQ61_Handler) X(IRQ62_Handler) X(IRQ63_Handler)                      \
    X(IRQ64_Handler) X(IRQ65_Handler) X(IRQ66_Handler) X(IRQ67_Handler)                      \
    X(IRQ68_Handler) X(IRQ69_Handler) X(IRQ70_Handler) X(IRQ71_Handler)                      \
    X(VIRTIO0_IRQHandler) X(VIRTIO1_IRQHandler) X(VIRTIO2_IRQHandler) X(VIRTIO3_IRQHandler)  \
    X(DB_CLCD_IRQHandler) X(IRQ77_Handler) X(IRQ78_Handler) X(IRQ79_Handler)                 \
    X(DB_TIMER_IRQHandler) X(IRQ81_Handler) X(IRQ82_Handler) X(IRQ83_Handler)                \
    X(IRQ84_Handler) X(IRQ85_Handler) X(IRQ86_Handler) X(IRQ87_Handler)                      \
    X(IRQ88_Handler) X(IRQ89_Handler) X(IRQ90_Handler) X(IRQ91_Handler)                      \
    X(IRQ92_Handler) X(IRQ93_Handler) X(IRQ94_Handler) X(IRQ95_Handler)                      

/*
 * Priorities are 0 (most urgent) .. 29: the GIC of the Cortex-A9 implements 5 priority
 * bits, 32 levels; the most urgent is the profile timer's alone (hal/armv7a/src/gic.c), so
 * that it samples inside every firmware handler, also one at priority 0; the least urgent
 * is the priority mask's, which never signals. An interrupt preempts the handler of any
 * less urgent one.
 */
#define BOARD_GIC_PRIO_BITS 5
#define BOARD_IRQ_PRIO_MAX 29 /* least urgent */

/* The profile timer: the most urgent, one GIC level above priority 0 (see above). */
#define BOARD_PROFILE_TIMER_PRIO 0
#define BOARD_PROFILE_TIMER_IRQ BOARD_IRQ_TIMER01
/* What the IRQ entry calls with the interrupted PC (profile_timer.c). */
#define BOARD_PROFILE_TIMER_SAMPLE sp804_profile_sample

/*
 * An interrupt for tests to pend from software: the motherboard's SWINT line, which nothing
 * drives in QEMU. Define void BOARD_SOFT_IRQ_HANDLER(void) to take it.
 */
#define BOARD_SOFT_IRQ BOARD_IRQ_SWINT
#define BOARD_SOFT_IRQ_HANDLER SWINT_IRQHandler

/*
 * The fast timer: SP804 TIMER23's first counter (ID 35) interrupting every interval_us
 * (1 .. INT_MAX: 1 MHz, exact) at the given priority (0..29). Define
 * void BOARD_FAST_TIMER_HANDLER(void) and call board_fast_timer_ack() in it.
 * board_fast_timer_start() returns the interval used, or -EINVAL for interval_us <= 0.
 */
#define BOARD_FAST_TIMER_IRQ BOARD_IRQ_TIMER23
#define BOARD_FAST_TIMER_HANDLER TIMER23_IRQHandler

#define BOARD_LAN9118_IRQ BOARD_IRQ_ETHERNET

#ifndef __ASSEMBLER__
#include <stdint.h>
#include <cyg/hal/board_api.h>
#endif

#endif
