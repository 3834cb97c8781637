/*
 * QEMU's RISC-V "virt" machine (QEMU 7.2), run in machine mode with -bios none: the
 * riscv32-virt board (rv32imac, ilp32) and its 64-bit variant riscv64-virt (rv64imac, lp64)
 * share this header, their sources and their linker script.
 *
 * What the board gives firmware is the board API of every board (<cyg/hal/board_api.h>),
 * implemented by the RISC-V HAL (hal/riscv: interrupts on the CLINT and the PLIC, the board
 * clock on mtime) and by this board (the console on the 16550 UART, the fast timer on the
 * Goldfish RTC's alarm); this header adds the board's constants.
 *
 * Resources the board keeps for itself:
 *   CLINT mtimecmp (hart 0)   the profile timer, shared with an application's or RTOS's
 *                             tick through <cyg/hal/riscv_mtimer.h> (the HAL owns it)
 *   CLINT mtime               the board clock (board_clock_*(), 10 MHz, runs from reset)
 *   UART0 (16550)             console (polled; its interrupt is left free)
 * For firmware: the machine software interrupt (msip, irq 0: BOARD_SOFT_IRQ), the Goldfish
 * RTC alarm (irq 11) as the "fast timer" (board_fast_timer_*()), every other PLIC source:
 * define a handler by its name (void MachineSoft_IRQHandler(void), void
 * UART0_IRQHandler(void), ...) and it replaces the weak default. An interrupt that fires
 * without a handler prints "*** unhandled interrupt N at pc 0x..." and exits with 144 + N;
 * an exception prints "*** unhandled exception N ..." and exits with 128 + N (N = mcause).
 */
#ifndef CYGONCE_HAL_BOARD_H
#define CYGONCE_HAL_BOARD_H

#include <stdint.h>
#include <cyg/hal/board_api.h>

/* ---- memory map (hw/riscv/virt.c); written without a U suffix, for assembly too ---- */
#define BOARD_CLINT_BASE 0x02000000 /* msip, mtimecmp, mtime (SiFive CLINT layout) */
#define BOARD_PLIC_BASE 0x0C000000
#define BOARD_UART_BASE 0x10000000  /* NS16550A, byte-wide registers, PLIC source 10 */
#define BOARD_RTC_BASE 0x00101000   /* Goldfish RTC, PLIC source 11 */

/* mtime counts at the timebase frequency QEMU gives the virt machine: 10 MHz. The board
 * clock counts it. */
#define BOARD_CLOCK_HZ 10000000u

/* ---- interrupts ------------------------------------------------------------------------ */

/*
 * irq 0 is the CLINT's machine software interrupt; 1 .. 95 are the PLIC's sources, as QEMU
 * wires them: virtio-mmio 1..8, UART0 10, RTC 11, PCIe INTA..INTD 32..35.
 */
enum board_irq {
    BOARD_IRQ_MSIP = 0,
    BOARD_IRQ_VIRTIO0 = 1,
    BOARD_IRQ_UART0 = 10,
    BOARD_IRQ_RTC = 11,
    BOARD_IRQ_PCIE0 = 32,
    BOARD_IRQ_COUNT = 96
};

/* The PLIC's interrupt target of hart 0 in machine mode (context 1 is its supervisor mode). */
#define BOARD_PLIC_CONTEXT 0
/* The PLIC's most urgent priority: QEMU's virt has priorities 1..7 (0 = never). */
#define BOARD_PLIC_PRIORITY_MAX 7

/* The handler names of irq 0 .. BOARD_IRQ_COUNT-1, in order (hal/riscv/src/irq.c). */
#define BOARD_IRQ_VECTORS(X)                                                                \
    X(MachineSoft_IRQHandler) X(VIRTIO0_IRQHandler) X(VIRTIO1_IRQHandler)                   \
    X(VIRTIO2_IRQHandler) X(VIRTIO3_IRQHandler) X(VIRTIO4_IRQHandler) X(VIRTIO5_IRQHandler) \
    X(VIRTIO6_IRQHandler) X(VIRTIO7_IRQHandler) X(PLIC9_IRQHandler) X(UART0_IRQHandler)     \
    X(RTC_IRQHandler) X(PLIC12_IRQHandler) X(PLIC13_IRQHandler) X(PLIC14_IRQHandler)        \
    X(PLIC15_IRQHandler) X(PLIC16_IRQHandler) X(PLIC17_IRQHandler) X(PLIC18_IRQHandler)     \
    X(PLIC19_IRQHandler) X(PLIC20_IRQHandler) X(PLIC21_IRQHandler) X(PLIC22_IRQHandler)     \
    X(PLIC23_IRQHandler) X(PLIC24_IRQHandler) X(PLIC25_IRQHandler) X(PLIC26_IRQHandler)     \
    X(PLIC27_IRQHandler) X(PLIC28_IRQHandler) X(PLIC29_IRQHandler) X(PLIC30_IRQHandler)     \
    X(PLIC31_IRQHandler) X(PCIE0_IRQHandler) X(PCIE1_IRQHandler) X(PCIE2_IRQHandler)        \
    X(PCIE3_IRQHandler) X(PLIC36_IRQHandler) X(PLIC37_IRQHandler) X(PLIC38_IRQHandler)      \
    X(PLIC39_IRQHandler) X(PLIC40_IRQHandler) X(PLIC41_IRQHandler) X(PLIC42_IRQHandler)     \
    X(PLIC43_IRQHandler) X(PLIC44_IRQHandler) X(PLIC45_IRQHandler) X(PLIC46_IRQHandler)     \
    X(PLIC47_IRQHandler) X(PLIC48_IRQHandler) X(PLIC49_IRQHandler) X(PLIC50_IRQHandler)     \
    X(PLIC51_IRQHandler) X(PLIC52_IRQHandler) X(PLIC53_IRQHandler) X(PLIC54_IRQHandler)     \
    X(PLIC55_IRQHandler) X(PLIC56_IRQHandler) X(PLIC57_IRQHandler) X(PLIC58_IRQHandler)     \
    X(PLIC59_IRQHandler) X(PLIC60_IRQHandler) X(PLIC61_IRQHandler) X(PLIC62_IRQHandler)     \
    X(PLIC63_IRQHandler) X(PLIC64_IRQHandler) X(PLIC65_IRQHandler) X(PLIC66_IRQHandler)     \
    X(PLIC67_IRQHandler) X(PLIC68_IRQHandler) X(PLIC69_IRQHandler) X(PLIC70_IRQHandler)     \
    X(PLIC71_IRQHandler) X(PLIC72_IRQHandler) X(PLIC73_IRQHandler) X(PLIC74_IRQHandler)     \
    X(PLIC75_IRQHandler) X(PLIC76_IRQHandler) X(PLIC77_IRQHandler) X(PLIC78_IRQHandler)     \
    X(PLIC79_IRQHandler) X(PLIC80_IRQHandler) X(PLIC81_IRQHandler) X(PLIC82_IRQHandler)     \
    X(PLIC83_IRQHandler) X(PLIC84_IRQHandler) X(PLIC85_IRQHandler) X(PLIC86_IRQHandler)     \
    X(PLIC87_IRQHandler) X(PLIC88_IRQHandler) X(PLIC89_IRQHandler) X(PLIC90_IRQHandler)     \
    X(PLIC91_IRQHandler) X(PLIC92_IRQHandler) X(PLIC93_IRQHandler) X(PLIC94_IRQHandler)     \
    X(PLIC95_IRQHandler)

/*
 * Priorities are 0 (most urgent) .. 6: one per PLIC priority (7 .. 1), nested in software by
 * the HAL (hal/riscv/src/irq.c), the software interrupt included. The profile timer (the
 * machine timer interrupt) is at 0 so that it samples inside every other handler; give
 * firmware interrupts 1..6, or they hide from the profile (a priority-0 handler cannot be
 * preempted by the sampling interrupt, and its time is charged to wherever it returns).
 */
#define BOARD_IRQ_PRIO_MAX 6u /* least urgent */
#define BOARD_PROFILE_TIMER_PRIO 0

/*
 * An interrupt for tests to pend from software: the machine software interrupt (CLINT
 * msip). board_irq_pend() and board_irq_unpend() work on it alone: the PLIC's pending bits
 * follow the devices. Define void BOARD_SOFT_IRQ_HANDLER(void) to take it.
 */
#define BOARD_SOFT_IRQ BOARD_IRQ_MSIP
#define BOARD_SOFT_IRQ_HANDLER MachineSoft_IRQHandler

/*
 * The fast timer: the Goldfish RTC's alarm (irq 11), re-armed by board_fast_timer_ack()
 * one interval after the last deadline, so the period is exact: interval_us from 1 up (in
 * whole nanoseconds of QEMU's virtual clock: run-qemu passes -rtc clock=vm). Define void
 * BOARD_FAST_TIMER_HANDLER(void) and call board_fast_timer_ack() in it.
 * board_fast_timer_start() returns the interval used, or -EINVAL for interval_us <= 0.
 */
#define BOARD_FAST_TIMER_IRQ BOARD_IRQ_RTC
#define BOARD_FAST_TIMER_HANDLER RTC_IRQHandler
#endif
