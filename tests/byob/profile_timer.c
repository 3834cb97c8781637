/*
 * The profile timer of a firmware with its own board code: the board's part of the HAL
 * contract, <cyg/profile/hal.h> (which declares the two functions, so that the compiler
 * checks them; doc/porting.md, "Bring your own board"), written against the vendor's
 * CMSIS-style header. TIMER0 is the profile timer; SysTick stays the RTOS's.
 */
#include <errno.h>
#include <stdint.h>

#include <cyg/profile/hal.h>
#include "acme_device.h"

/* 1. Start: a periodic interrupt every interval_us at the most urgent priority. Called by
 *    profile_on() with interrupts masked; returns the interval used, or a negative errno. */
int hal_enable_profile_timer(int interval_us)
{
    if (interval_us <= 0)
        return -EINVAL;
    if (interval_us < 10)
        interval_us = 10;
    if (interval_us > 1000000)
        interval_us = 1000000;
    uint32_t reload = (uint32_t)interval_us * (SystemCoreClock / 1000000u) - 1u;
    ACME_TIMER0->CTRL = 0;
    ACME_TIMER0->RELOAD = reload;
    ACME_TIMER0->VALUE = reload;
    ACME_TIMER0->INTCLEAR = 1;
    NVIC_ClearPendingIRQ(TIMER0_IRQn);
    NVIC_SetPriority(TIMER0_IRQn, 0);
    NVIC_EnableIRQ(TIMER0_IRQn);
    ACME_TIMER0->CTRL = ACME_TIMER_CTRL_EN | ACME_TIMER_CTRL_IRQEN;
    return interval_us;
}

/* 2. Stop: no sample starts after this returns. */
void hal_disable_profile_timer(void)
{
    ACME_TIMER0->CTRL = 0;
    ACME_TIMER0->INTCLEAR = 1;
    NVIC_DisableIRQ(TIMER0_IRQn);
    NVIC_ClearPendingIRQ(TIMER0_IRQn);
}

/* 3. The interrupt: acknowledge, then __profile_hit(interrupted PC). The PC is in the
 *    exception frame on the stack that was in use (EXC_RETURN bit 2: MSP or PSP) at offset
 *    24; a three-line naked shim hands it to C. */
void profile_timer_isr(const uint32_t *frame)
{
    ACME_TIMER0->INTCLEAR = 1;
    __profile_hit(frame[6]);
}

__attribute__((naked)) void TIMER0_IRQHandler(void)
{
    __asm__ volatile("tst   lr, #4\n\t"
                     "ite   eq\n\t"
                     "mrseq r0, msp\n\t"
                     "mrsne r0, psp\n\t"
                     "b     profile_timer_isr\n\t");
}
