/*
 * Arm MPS2 with the AN505 FPGA image: a Cortex-M33 (ARMv8-M Mainline, TrustZone,
 * single-precision FPU) in Arm's IoT Kit subsystem, as QEMU's mps2-an505 models it.
 *
 * What the board gives firmware beyond the profiling HAL contract is the board API of every
 * board (<cyg/hal/board_api.h>): interrupt control on the NVIC, a monotonic clock on the
 * CMSDK dual timer, the console on UART0 (the C library's stdin/stdout/stderr), the fast
 * timer; this header adds the board's constants.
 *
 * Security: the core resets in the secure state, with its secure vector table at
 * 0x10000000, and the firmware stays there. The IoT Kit maps every memory and peripheral
 * twice, at a non-secure address and at a secure alias (address bit 28 set: 0x1..., 0x3...,
 * 0x5...); the firmware uses the secure ones throughout. The SAU is left disabled, so every
 * address is secure to the core; the memory and peripheral protection controllers (MPC,
 * PPC) leave everything secure at reset, which secure code reaches. Interrupts target the
 * secure state (NVIC_ITNS is 0 at reset), so exceptions never cross a security boundary:
 * every exception frame is the basic or the extended (FP) one, with the stacked PC at
 * frame + 24, on the secure stack that EXC_RETURN bit 2 names. (A firmware that hands
 * interrupts to a non-secure world needs another profile timer handler.)
 *
 * Firmware is built hard-float (board.mk): the FPU is enabled at reset, before any FP
 * instruction (hal/cortexm/src/startup.c), and lazy FP context stacking stays on as reset
 * leaves it, so handlers that use the FPU save the interrupted FP state only then.
 *
 * Resources the board keeps for itself (drivers in boards/drivers/cmsdk):
 *   CMSDK TIMER0 (IRQ 3)      the profile timer (hal_enable_profile_timer()); its handler
 *                             is TIMER0_IRQHandler
 *   dual timer (IRQ 5)        the monotonic clock; DUALTIMER_IRQHandler
 *   UART0                     console (polled; its interrupts are left free)
 * For firmware: CMSDK TIMER1 (IRQ 4) as the "fast timer" (board_fast_timer_*()), SysTick,
 * every other IRQ and exception: define a handler by its name (void TIMER1_IRQHandler(void),
 * void GPIO0_0_IRQHandler(void), void SysTick_Handler(void), ...) and it replaces the weak
 * default in the vector table. An exception or IRQ that fires without a handler prints
 * "*** unhandled exception N at pc 0x..." and exits with status 128 + N (HardFault: 131,
 * SecureFault: 135).
 */
#ifndef CYGONCE_HAL_BOARD_H
#define CYGONCE_HAL_BOARD_H

#include <stdint.h>
#include <cyg/hal/board_api.h>

/* Clock of the peripherals (timers, UARTs): QEMU's SYSCLK for AN505, 20 MHz. The board
 * clock counts it. */
#define BOARD_CMSDK_PCLK_HZ 20000000u
#define BOARD_CLOCK_HZ BOARD_CMSDK_PCLK_HZ

/* ---- interrupts ------------------------------------------------------------------------ */

/*
 * External interrupt numbers (NVIC lines) of AN505, as QEMU wires them: 0-31 the IoT Kit's
 * own, 32 and up the FPGA's peripherals. (Those not listed here are in BOARD_IRQ_VECTORS.)
 */
enum board_irq {
    BOARD_IRQ_S32K_TIMER = 2,
    BOARD_IRQ_TIMER0 = 3,    /* the profile timer */
    BOARD_IRQ_TIMER1 = 4,
    BOARD_IRQ_DUALTIMER = 5, /* the board clock */
    BOARD_IRQ_MPC = 9,       /* secure: blocked accesses to the SSRAMs */
    BOARD_IRQ_PPC = 10,      /* secure: blocked accesses to peripherals */
    BOARD_IRQ_UARTRX0 = 32,
    BOARD_IRQ_UARTTX0 = 33,
    BOARD_IRQ_ETHERNET = 48, /* LAN9118 at 0x52000000 (0x42000000 non-secure) */
    BOARD_IRQ_GPIO0_0 = 72,  /* 72..123: GPIO pins; no device drives them in QEMU, */
    BOARD_IRQ_GPIO3_3 = 123, /* so they are the ones to pend from software in tests. */
    BOARD_IRQ_COUNT = 124
};

/* The vector table's IRQ entries, in NVIC order (hal/cortexm/src/startup.c): the handler
 * names firmware defines to take an interrupt. RESERVEDn lines have nothing behind them. */
#define BOARD_IRQ_VECTORS(X)                                                                  \
    X(NONSEC_WATCHDOG_RESET_IRQHandler) X(NONSEC_WATCHDOG_IRQHandler) X(S32K_TIMER_IRQHandler) \
    X(TIMER0_IRQHandler) X(TIMER1_IRQHandler) X(DUALTIMER_IRQHandler)                         \
    X(RESERVED6_IRQHandler) X(RESERVED7_IRQHandler) X(RESERVED8_IRQHandler)                   \
    X(MPC_IRQHandler) X(PPC_IRQHandler) X(MSC_IRQHandler) X(BRIDGE_ERROR_IRQHandler)          \
    X(RESERVED13_IRQHandler) X(RESERVED14_IRQHandler) X(RESERVED15_IRQHandler)                \
    X(RESERVED16_IRQHandler) X(RESERVED17_IRQHandler) X(RESERVED18_IRQHandler)                \
    X(RESERVED19_IRQHandler) X(RESERVED20_IRQHandler) X(RESERVED21_IRQHandler)                \
    X(RESERVED22_IRQHandler) X(RESERVED23_IRQHandler) X(RESERVED24_IRQHandler)                \
    X(RESERVED25_IRQHandler) X(RESERVED26_IRQHandler) X(RESERVED27_IRQHandler)                \
    X(RESERVED28_IRQHandler) X(RESERVED29_IRQHandler) X(RESERVED30_IRQHandler)                \
    X(RESERVED31_IRQHandler)                                                                  \
    X(UARTRX0_IRQHandler) X(UARTTX0_IRQHandler) X(UARTRX1_IRQHandler) X(UARTTX1_IRQHandler)   \
    X(UARTRX2_IRQHandler) X(UARTTX2_IRQHandler) X(UARTRX3_IRQHandler) X(UARTTX3_IRQHandler)   \
    X(UARTRX4_IRQHandler) X(UARTTX4_IRQHandler)                                               \
    X(UART0_IRQHandler) X(UART1_IRQHandler) X(UART2_IRQHandler) X(UART3_IRQHandler)           \
    X(UART4_IRQHandler) X(UARTOVF_IRQHandler) X(ETHERNET_IRQHandler) X(I2S_IRQHandler)        \
    X(TSC_IRQHandler) X(SPI0_IRQHandler) X(SPI1_IRQHandler) X(SPI2_IRQHandler)                \
    X(SPI3_IRQHandler) X(SPI4_IRQHandler)                                                     \
    X(DMA0_ERROR_IRQHandler) X(DMA0_TC_IRQHandler) X(DMA0_IRQHandler)                         \
    X(DMA1_ERROR_IRQHandler) X(DMA1_TC_IRQHandler) X(DMA1_IRQHandler)                         \
    X(DMA2_ERROR_IRQHandler) X(DMA2_TC_IRQHandler) X(DMA2_IRQHandler)                         \
    X(DMA3_ERROR_IRQHandler) X(DMA3_TC_IRQHandler) X(DMA3_IRQHandler)                         \
    X(GPIO0_IRQHandler) X(GPIO1_IRQHandler) X(GPIO2_IRQHandler) X(GPIO3_IRQHandler)           \
    X(GPIO0_0_IRQHandler) X(GPIO0_1_IRQHandler) X(GPIO0_2_IRQHandler) X(GPIO0_3_IRQHandler)   \
    X(GPIO0_4_IRQHandler) X(GPIO0_5_IRQHandler) X(GPIO0_6_IRQHandler) X(GPIO0_7_IRQHandler)   \
    X(GPIO0_8_IRQHandler) X(GPIO0_9_IRQHandler) X(GPIO0_10_IRQHandler) X(GPIO0_11_IRQHandler) \
    X(GPIO0_12_IRQHandler) X(GPIO0_13_IRQHandler) X(GPIO0_14_IRQHandler) X(GPIO0_15_IRQHandler) \
    X(GPIO1_0_IRQHandler) X(GPIO1_1_IRQHandler) X(GPIO1_2_IRQHandler) X(GPIO1_3_IRQHandler)   \
    X(GPIO1_4_IRQHandler) X(GPIO1_5_IRQHandler) X(GPIO1_6_IRQHandler) X(GPIO1_7_IRQHandler)   \
    X(GPIO1_8_IRQHandler) X(GPIO1_9_IRQHandler) X(GPIO1_10_IRQHandler) X(GPIO1_11_IRQHandler) \
    X(GPIO1_12_IRQHandler) X(GPIO1_13_IRQHandler) X(GPIO1_14_IRQHandler) X(GPIO1_15_IRQHandler) \
    X(GPIO2_0_IRQHandler) X(GPIO2_1_IRQHandler) X(GPIO2_2_IRQHandler) X(GPIO2_3_IRQHandler)   \
    X(GPIO2_4_IRQHandler) X(GPIO2_5_IRQHandler) X(GPIO2_6_IRQHandler) X(GPIO2_7_IRQHandler)   \
    X(GPIO2_8_IRQHandler) X(GPIO2_9_IRQHandler) X(GPIO2_10_IRQHandler) X(GPIO2_11_IRQHandler) \
    X(GPIO2_12_IRQHandler) X(GPIO2_13_IRQHandler) X(GPIO2_14_IRQHandler) X(GPIO2_15_IRQHandler) \
    X(GPIO3_0_IRQHandler) X(GPIO3_1_IRQHandler) X(GPIO3_2_IRQHandler) X(GPIO3_3_IRQHandler)

/* Peripherals (boards/drivers/cmsdk, boards/drivers/lan9118), at their secure aliases;
 * written without a U suffix, for assembly templates too. */
#define BOARD_CMSDK_UART_BASE 0x50200000 /* UART0 (0x40200000 non-secure) */
#define BOARD_CMSDK_DUALTIMER_BASE 0x50002000
#define BOARD_DUALTIMER_HANDLER DUALTIMER_IRQHandler
#define BOARD_PROFILE_TIMER_BASE 0x50000000 /* CMSDK TIMER0 */
#define BOARD_PROFILE_TIMER_IRQ BOARD_IRQ_TIMER0
#define BOARD_PROFILE_TIMER_HANDLER TIMER0_IRQHandler
#define BOARD_FAST_TIMER_BASE 0x50001000 /* CMSDK TIMER1 */
#define BOARD_LAN9118_BASE 0x52000000
#define BOARD_LAN9118_IRQ BOARD_IRQ_ETHERNET

/*
 * Priorities are 0 (most urgent) .. 7: three bits, the fewest ARMv8-M Mainline allows, so
 * that the numbers mean the same on any Cortex-M33 (QEMU implements all eight). With
 * AIRCR.PRIS left 0 the secure priorities are not remapped. The profile timer runs at 0 so
 * that it samples inside every other handler; give firmware interrupts 1..7, or they hide
 * from the profile (a priority-0 handler cannot be preempted by the sampling interrupt, and
 * its time is charged to wherever it returns).
 */
#define BOARD_IRQ_PRIO_BITS 3
#define BOARD_IRQ_PRIO_MAX ((1u << BOARD_IRQ_PRIO_BITS) - 1) /* least urgent */

/* Priority of the profile timer (TIMER0). */
#define BOARD_PROFILE_TIMER_PRIO 0

/*
 * An interrupt for tests to pend from software: GPIO0 pin 0, which nothing drives in QEMU.
 * Define void BOARD_SOFT_IRQ_HANDLER(void) to take it.
 */
#define BOARD_SOFT_IRQ BOARD_IRQ_GPIO0_0
#define BOARD_SOFT_IRQ_HANDLER GPIO0_0_IRQHandler

/*
 * The fast timer: CMSDK TIMER1 (IRQ 4) interrupting every interval_us (1 .. 214748364,
 * clamped; exact, 20 ticks per us) at the given priority (0..7). Define
 * void BOARD_FAST_TIMER_HANDLER(void) and call board_fast_timer_ack() in it.
 * board_fast_timer_start() returns the interval used, or -EINVAL for interval_us <= 0.
 */
#define BOARD_FAST_TIMER_IRQ BOARD_IRQ_TIMER1
#define BOARD_FAST_TIMER_HANDLER TIMER1_IRQHandler
#endif
