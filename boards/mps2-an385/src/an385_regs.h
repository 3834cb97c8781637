/*
 * Registers of the AN385 peripherals and Cortex-M3 system blocks that the board code
 * touches. Private to boards/mps2-an385/src.
 */
#ifndef CYGONCE_AN385_REGS_H
#define CYGONCE_AN385_REGS_H

#include <stdint.h>

#define AN385_REG(addr) (*(volatile uint32_t *)(addr))

/* CMSDK APB timer (TIMER0 at 0x40000000, TIMER1 at 0x40001000). */
#define CMSDK_TIMER0_BASE 0x40000000u
#define CMSDK_TIMER1_BASE 0x40001000u
#define CMSDK_TIMER_CTRL(b) AN385_REG((b) + 0x00)
#define CMSDK_TIMER_VALUE(b) AN385_REG((b) + 0x04)
#define CMSDK_TIMER_RELOAD(b) AN385_REG((b) + 0x08)
#define CMSDK_TIMER_INTCLEAR(b) AN385_REG((b) + 0x0C) /* read: INTSTATUS */
#define CMSDK_TIMER_CTRL_EN (1u << 0)
#define CMSDK_TIMER_CTRL_IRQEN (1u << 3)

/* CMSDK APB dual timer (two SP804-style counters; we use the first). */
#define CMSDK_DUALTIMER_BASE 0x40002000u
#define CMSDK_DUALTIMER1_LOAD AN385_REG(CMSDK_DUALTIMER_BASE + 0x00)
#define CMSDK_DUALTIMER1_VALUE AN385_REG(CMSDK_DUALTIMER_BASE + 0x04)
#define CMSDK_DUALTIMER1_CTRL AN385_REG(CMSDK_DUALTIMER_BASE + 0x08)
#define CMSDK_DUALTIMER1_INTCLR AN385_REG(CMSDK_DUALTIMER_BASE + 0x0C)
#define CMSDK_DUALTIMER1_RIS AN385_REG(CMSDK_DUALTIMER_BASE + 0x10)
#define CMSDK_DUALTIMER_CTRL_32BIT (1u << 1)
#define CMSDK_DUALTIMER_CTRL_INTEN (1u << 5)
#define CMSDK_DUALTIMER_CTRL_PERIODIC (1u << 6) /* clear: free-running */
#define CMSDK_DUALTIMER_CTRL_EN (1u << 7)

/* CMSDK APB UART0. */
#define CMSDK_UART0_BASE 0x40004000u
#define CMSDK_UART_DATA(b) AN385_REG((b) + 0x00)
#define CMSDK_UART_STATE(b) AN385_REG((b) + 0x04)
#define CMSDK_UART_CTRL(b) AN385_REG((b) + 0x08)
#define CMSDK_UART_BAUDDIV(b) AN385_REG((b) + 0x10)
#define CMSDK_UART_STATE_TXFULL (1u << 0)
#define CMSDK_UART_STATE_RXFULL (1u << 1)
#define CMSDK_UART_CTRL_TXEN (1u << 0)
#define CMSDK_UART_CTRL_RXEN (1u << 1)

/* Cortex-M3 System Control Block and NVIC. */
#define SCB_CCR AN385_REG(0xE000ED14u)
#define SCB_CCR_STKALIGN (1u << 9)
#define SCB_VTOR AN385_REG(0xE000ED08u)
#define NVIC_ISER(n) AN385_REG(0xE000E100u + 4u * (n))
#define NVIC_ICER(n) AN385_REG(0xE000E180u + 4u * (n))
#define NVIC_ISPR(n) AN385_REG(0xE000E200u + 4u * (n))
#define NVIC_ICPR(n) AN385_REG(0xE000E280u + 4u * (n))
#define NVIC_IPR_BYTE(irq) (*(volatile uint8_t *)(0xE000E400u + (unsigned)(irq)))

static inline void an385_barrier(void)
{
    /* Make an NVIC or peripheral write take effect before the next instruction. */
    __asm__ volatile("dsb\n\tisb" : : : "memory");
}

/* Board-internal hooks called by the startup code before main. */
void an385_console_init(void);
void an385_clock_init(void);

/*
 * Periodic interrupt every interval_us (raised to min_us, clamped to AN385_APB_TIMER_MAX_US)
 * from the APB timer at base, on NVIC line irq with the given priority (apb_timer.c).
 * Returns the interval used, or -EINVAL for interval_us <= 0.
 */
#define AN385_APB_TIMER_MAX_US 171798691
int an385_apb_timer_start(uint32_t base, int irq, int interval_us, int min_us, unsigned priority);
void an385_apb_timer_stop(uint32_t base, int irq);

#endif
