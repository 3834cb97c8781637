/* Registers of the vexpress-a9 board's own devices, and the board's internal interfaces. */
#ifndef VEXPRESS_A9_H
#define VEXPRESS_A9_H

#include <stdint.h>
#include <cyg/hal/armv7a.h>
#include <cyg/hal/board.h>

/* SP804 dual timer: two counters, at base and base + 0x20, one interrupt line (ORed). */
#define SP804_LOAD(base) ARMV7A_REG((base) + 0x00)
#define SP804_VALUE(base) ARMV7A_REG((base) + 0x04)
#define SP804_CTRL(base) ARMV7A_REG((base) + 0x08)
#define SP804_INTCLR(base) ARMV7A_REG((base) + 0x0C)
#define SP804_CTRL_32BIT (1u << 1)
#define SP804_CTRL_IE (1u << 5)
#define SP804_CTRL_PERIODIC (1u << 6)
#define SP804_CTRL_EN (1u << 7)
#define SP804_SECOND(base) ((base) + 0x20)

/* PL011 UART. */
#define PL011_DR(base) ARMV7A_REG((base) + 0x00)
#define PL011_FR(base) ARMV7A_REG((base) + 0x18)
#define PL011_IBRD(base) ARMV7A_REG((base) + 0x24)
#define PL011_FBRD(base) ARMV7A_REG((base) + 0x28)
#define PL011_LCR_H(base) ARMV7A_REG((base) + 0x2C)
#define PL011_CR(base) ARMV7A_REG((base) + 0x30)
#define PL011_IMSC(base) ARMV7A_REG((base) + 0x38)
#define PL011_FR_RXFE (1u << 4)
#define PL011_FR_TXFF (1u << 5)
#define PL011_LCR_H_FEN (1u << 4)
#define PL011_LCR_H_WLEN8 (3u << 5)
#define PL011_CR_UARTEN (1u << 0)
#define PL011_CR_TXE (1u << 8)
#define PL011_CR_RXE (1u << 9)

/* Cortex-A9 global timer: a 64-bit up-counter, read as two halves. */
#define A9_GTIMER_COUNT_LO ARMV7A_REG(BOARD_A9_GTIMER_BASE + 0x00)
#define A9_GTIMER_COUNT_HI ARMV7A_REG(BOARD_A9_GTIMER_BASE + 0x04)
#define A9_GTIMER_CTRL ARMV7A_REG(BOARD_A9_GTIMER_BASE + 0x08)
#define A9_GTIMER_CTRL_EN (1u << 0)

/* board.c's parts of board_init(). */
void vexpress_console_init(void);
void vexpress_clock_init(void);

/*
 * Run the first counter of the SP804 at base as a periodic interrupt every interval_us
 * (at least min_us) on GIC interrupt irq at GIC priority level (armv7a_gic_enable());
 * returns the interval used, or -EINVAL for interval_us <= 0. sp804_stop() stops it; no
 * entry to its handler starts after that returns. The second counter is kept off.
 */
int sp804_start(uint32_t base, int irq, int interval_us, int min_us, unsigned level);
void sp804_stop(uint32_t base, int irq);

#endif
