/*
 * The nRF51 peripherals the micro:bit board code drives (nRF51 Series Reference Manual v3.0:
 * TIMER, UART), and the board's driver functions. Register offsets are written without a U
 * suffix so that assembly templates can use them too.
 */
#ifndef BOARDS_MICROBIT_NRF51_H
#define BOARDS_MICROBIT_NRF51_H

#include <stdint.h>

#define NRF51_REG(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* Tasks are triggered by writing 1; events read 1 when set and are cleared by writing 0. */
#define NRF51_TASK_TRIGGER 1u
#define NRF51_EVENT_CLEAR 0u

/* ---- TIMER (TIMER0: up to 32 bits; TIMER1, TIMER2: up to 16 bits) ---------------------- */
#define NRF51_TIMER_TASKS_START(b) NRF51_REG((b) + 0x000)
#define NRF51_TIMER_TASKS_STOP(b) NRF51_REG((b) + 0x004)
#define NRF51_TIMER_TASKS_CLEAR(b) NRF51_REG((b) + 0x00C)
#define NRF51_TIMER_TASKS_CAPTURE(b, n) NRF51_REG((b) + 0x040 + 4 * (n))
#define NRF51_TIMER_EVENTS_COMPARE_OFFSET(n) (0x140 + 4 * (n))
#define NRF51_TIMER_EVENTS_COMPARE(b, n) NRF51_REG((b) + NRF51_TIMER_EVENTS_COMPARE_OFFSET(n))
#define NRF51_TIMER_SHORTS(b) NRF51_REG((b) + 0x200)
#define NRF51_TIMER_SHORTS_COMPARE_CLEAR(n) (1u << (n))
#define NRF51_TIMER_INTENSET(b) NRF51_REG((b) + 0x304)
#define NRF51_TIMER_INTENCLR(b) NRF51_REG((b) + 0x308)
#define NRF51_TIMER_INT_COMPARE(n) (1u << (16 + (n)))
#define NRF51_TIMER_MODE(b) NRF51_REG((b) + 0x504)
#define NRF51_TIMER_MODE_TIMER 0u
#define NRF51_TIMER_BITMODE(b) NRF51_REG((b) + 0x508)
#define NRF51_TIMER_BITMODE_16 0u
#define NRF51_TIMER_BITMODE_32 3u
#define NRF51_TIMER_PRESCALER(b) NRF51_REG((b) + 0x510)
#define NRF51_TIMER_PRESCALER_MAX 9u /* f = 16 MHz / 2^PRESCALER */
#define NRF51_TIMER_CC(b, n) NRF51_REG((b) + 0x540 + 4 * (n))

/* ---- UART ----------------------------------------------------------------------------- */
#define NRF51_UART_TASKS_STARTRX(b) NRF51_REG((b) + 0x000)
#define NRF51_UART_TASKS_STARTTX(b) NRF51_REG((b) + 0x008)
#define NRF51_UART_EVENTS_RXDRDY(b) NRF51_REG((b) + 0x108)
#define NRF51_UART_EVENTS_TXDRDY(b) NRF51_REG((b) + 0x11C)
#define NRF51_UART_ENABLE(b) NRF51_REG((b) + 0x500)
#define NRF51_UART_ENABLE_ENABLED 4u
#define NRF51_UART_PSELTXD(b) NRF51_REG((b) + 0x50C)
#define NRF51_UART_PSELRXD(b) NRF51_REG((b) + 0x514)
#define NRF51_UART_RXD(b) NRF51_REG((b) + 0x518)
#define NRF51_UART_TXD(b) NRF51_REG((b) + 0x51C)
#define NRF51_UART_BAUDRATE(b) NRF51_REG((b) + 0x524)
#define NRF51_UART_BAUDRATE_115200 0x01D7E000u

/* ---- the board's drivers --------------------------------------------------------------- */
/* nrf51_timer.c: a TIMER as a periodic interrupt source (the profile and the fast timer). */
int nrf51_timer_start(uint32_t base, int irq, int interval_us, int min_us, unsigned priority,
                      uint32_t ticks_max);
void nrf51_timer_stop(uint32_t base, int irq);
/* clock.c, uart.c: started by board_init(). */
void nrf51_clock_init(void);
void nrf51_console_init(void);

#endif
