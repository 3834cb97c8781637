/*
 * Arm CoreLink SDK (CMSDK) APB peripherals, as the MPS2 FPGA images (AN385, AN386, AN500,
 * AN505, ...) have them: the APB timer, the dual timer and the UART. Every board with them
 * uses these drivers with its own addresses and interrupt lines, which its <cyg/hal/board.h>
 * defines (hex constants without a U suffix: some are used in assembly):
 *   BOARD_CMSDK_PCLK_HZ                     the peripherals' clock
 *   BOARD_CMSDK_UART_BASE                   the console UART
 *   BOARD_CMSDK_DUALTIMER_BASE, BOARD_IRQ_DUALTIMER   the board clock
 *   BOARD_PROFILE_TIMER_BASE, BOARD_PROFILE_TIMER_IRQ, BOARD_PROFILE_TIMER_HANDLER
 *   BOARD_FAST_TIMER_BASE, BOARD_FAST_TIMER_IRQ, BOARD_FAST_TIMER_HANDLER
 */
#ifndef CYGONCE_CMSDK_H
#define CYGONCE_CMSDK_H

#include <stdint.h>

#define CMSDK_REG(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* APB timer. */
#define CMSDK_TIMER_CTRL(b) CMSDK_REG((b) + 0x00)
#define CMSDK_TIMER_VALUE(b) CMSDK_REG((b) + 0x04)
#define CMSDK_TIMER_RELOAD(b) CMSDK_REG((b) + 0x08)
#define CMSDK_TIMER_INTCLEAR(b) CMSDK_REG((b) + 0x0C) /* read: INTSTATUS */
#define CMSDK_TIMER_INTCLEAR_OFFSET 0x0C
#define CMSDK_TIMER_CTRL_EN (1u << 0)
#define CMSDK_TIMER_CTRL_IRQEN (1u << 3)

/* Dual timer (two SP804-style counters; the first is used). */
#define CMSDK_DUALTIMER1_LOAD(b) CMSDK_REG((b) + 0x00)
#define CMSDK_DUALTIMER1_VALUE(b) CMSDK_REG((b) + 0x04)
#define CMSDK_DUALTIMER1_CTRL(b) CMSDK_REG((b) + 0x08)
#define CMSDK_DUALTIMER1_INTCLR(b) CMSDK_REG((b) + 0x0C)
#define CMSDK_DUALTIMER1_RIS(b) CMSDK_REG((b) + 0x10)
#define CMSDK_DUALTIMER_CTRL_32BIT (1u << 1)
#define CMSDK_DUALTIMER_CTRL_INTEN (1u << 5)
#define CMSDK_DUALTIMER_CTRL_PERIODIC (1u << 6) /* clear: free-running */
#define CMSDK_DUALTIMER_CTRL_EN (1u << 7)

/* UART. */
#define CMSDK_UART_DATA(b) CMSDK_REG((b) + 0x00)
#define CMSDK_UART_STATE(b) CMSDK_REG((b) + 0x04)
#define CMSDK_UART_CTRL(b) CMSDK_REG((b) + 0x08)
#define CMSDK_UART_BAUDDIV(b) CMSDK_REG((b) + 0x10)
#define CMSDK_UART_STATE_TXFULL (1u << 0)
#define CMSDK_UART_STATE_RXFULL (1u << 1)
#define CMSDK_UART_CTRL_TXEN (1u << 0)
#define CMSDK_UART_CTRL_RXEN (1u << 1)

/* Longest APB timer interval: 2^32 ticks of the peripheral clock. */
#define CMSDK_TIMER_MAX_US(pclk_hz) ((int)(0x100000000ull / ((pclk_hz) / 1000000u)))

/* Board-internal hooks for board_init(). */
void cmsdk_console_init(void);
void cmsdk_clock_init(void);

/*
 * Periodic interrupt every interval_us (raised to min_us, clamped to the timer's 2^32 ticks)
 * from the APB timer at base, on interrupt line irq with the given priority.
 * @return the interval used, or -EINVAL for interval_us <= 0
 */
int cmsdk_timer_start(uint32_t base, int irq, int interval_us, int min_us, unsigned priority);
void cmsdk_timer_stop(uint32_t base, int irq);

#endif
