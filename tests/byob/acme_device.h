/*
 * A vendor's device header in the CMSIS style, as an SDK would ship it, for the firmware in
 * this folder: "ACME" is an MPS2-like Cortex-M3 part (QEMU's mps2-an385 runs it). Written
 * for this test; nothing here is the profiling package's.
 */
#ifndef ACME_DEVICE_H
#define ACME_DEVICE_H

#include <stdint.h>

typedef enum {
    TIMER0_IRQn = 8,
    TIMER1_IRQn = 9,
} IRQn_Type;

/* The vendor's timer block (a CMSDK APB timer). */
typedef struct {
    volatile uint32_t CTRL;     /* bit 0 enable, bit 3 interrupt enable */
    volatile uint32_t VALUE;
    volatile uint32_t RELOAD;
    volatile uint32_t INTCLEAR; /* write 1: clear the interrupt */
} ACME_TIMER_TypeDef;
#define ACME_TIMER_CTRL_EN (1u << 0)
#define ACME_TIMER_CTRL_IRQEN (1u << 3)
#define ACME_TIMER0 ((ACME_TIMER_TypeDef *)0x40000000u)
#define ACME_TIMER1 ((ACME_TIMER_TypeDef *)0x40001000u)

#define SystemCoreClock 25000000u /* the timers count at the core clock */

/* The CMSIS core functions the firmware uses, as core_cm3.h gives them. */
#define NVIC_PRIO_BITS 3
static inline void NVIC_SetPriority(IRQn_Type irq, uint32_t prio)
{
    ((volatile uint8_t *)0xE000E400u)[irq] = (uint8_t)(prio << (8 - NVIC_PRIO_BITS));
}
static inline void NVIC_EnableIRQ(IRQn_Type irq)
{
    ((volatile uint32_t *)0xE000E100u)[irq / 32] = 1u << (irq % 32);
}
static inline void NVIC_DisableIRQ(IRQn_Type irq)
{
    ((volatile uint32_t *)0xE000E180u)[irq / 32] = 1u << (irq % 32);
    __asm__ volatile("dsb\n\tisb" : : : "memory");
}
static inline void NVIC_ClearPendingIRQ(IRQn_Type irq)
{
    ((volatile uint32_t *)0xE000E280u)[irq / 32] = 1u << (irq % 32);
}

#endif
