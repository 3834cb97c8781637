/*
 * Arm MPS2 with the AN385 FPGA image (Cortex-M3), as QEMU's mps2-an385 models it.
 *
 * What the board gives firmware beyond the profiling HAL contract is the board API of every
 * board (<cyg/hal/board_api.h>): interrupt control on the NVIC, a monotonic clock on the
 * CMSDK dual timer, the console on UART0 (the C library's stdin/stdout/stderr), the fast
 * timer; this header adds the board's constants.
 *
 * Resources the board keeps for itself (drivers in boards/drivers/cmsdk):
 *   APB TIMER0 (IRQ 8)    the profile timer (hal_enable_profile_timer()); its handler is
 *                         TIMER0_IRQHandler
 *   dual timer (IRQ 10)   the monotonic clock; DUALTIMER_IRQHandler
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
#include <cyg/hal/board_api.h>

/* The AN385 system: CMSDK peripherals, interrupt lines, vector entries, priorities. */
#include <mps2_fpga.h>

/* The LAN9118 Ethernet controller (boards/drivers/lan9118), on IRQ 13. */
#define BOARD_LAN9118_BASE 0x40200000

#endif
