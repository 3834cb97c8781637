/*
 * The profile timer of mps2-an385: CMSDK APB TIMER0 (IRQ 8), clocked at the APB clock of
 * 25 MHz. SysTick is left to the application or RTOS; TIMER1 to the firmware.
 *
 * Interval: N us is exactly 25 * N ticks (RELOAD = 25 * N - 1, see apb_timer.c). Requests
 * above 171798691 us (2^32 ticks, about 172 s) are clamped to that; requests below
 * PROFILE_TIMER_MIN_US are raised to it, because at shorter intervals the sampling
 * interrupt would eat a large part of a real 25 MHz CPU. The interval used is returned;
 * 0 or negative requests give -EINVAL.
 *
 * Priority: BOARD_PROFILE_TIMER_PRIO (0, the most urgent), so that samples land inside
 * every other interrupt handler too, and so that RTOS critical sections that mask by
 * BASEPRI are sampled as well (the handler calls no RTOS service). Only PRIMASK sections,
 * such as the package's own arc-table update, hold a sample back; it is then taken as
 * soon as they end, charged to the instruction after them.
 */
#include <stdint.h>

#include <cyg/hal/board.h>
#include <cyg/profile/hal.h>
#include "an385_regs.h"

/* Shortest interval granted: 250 ticks at 25 MHz. */
#define PROFILE_TIMER_MIN_US 10

int hal_enable_profile_timer(int interval_us)
{
    return an385_apb_timer_start(CMSDK_TIMER0_BASE, BOARD_IRQ_TIMER0, interval_us,
                                 PROFILE_TIMER_MIN_US, BOARD_PROFILE_TIMER_PRIO);
}

void hal_disable_profile_timer(void)
{
    /* No __profile_hit() starts after this returns (NVIC disable with a barrier). */
    an385_apb_timer_stop(CMSDK_TIMER0_BASE, BOARD_IRQ_TIMER0);
}

/*
 * The sampling interrupt (9 instructions, then __profile_hit). Written out in assembly so
 * that it never depends on compiler flags (-pg, frame pointers) and stays minimal:
 * acknowledge the timer, find the exception frame on the stack that was in use (EXC_RETURN
 * bit 2: 0 = MSP, 1 = PSP, e.g. an RTOS thread), take the stacked PC (frame + 24), and
 * tail-call __profile_hit(pc) with lr still holding EXC_RETURN, so that its return is the
 * exception return. Hardware stacking keeps sp 8-aligned (CCR.STKALIGN, set at reset).
 * The stacked PC is a plain halfword address (no Thumb bit), as __profile_hit wants.
 */
void __attribute__((naked)) TIMER0_IRQHandler(void)
{
    __asm__ volatile("mov.w r1, #0x40000000\n\t" /* CMSDK_TIMER0_BASE */
                     "movs  r2, #1\n\t"
                     "str   r2, [r1, #0x0c]\n\t" /* INTCLEAR */
                     "tst   lr, #4\n\t"
                     "ite   eq\n\t"
                     "mrseq r0, msp\n\t"
                     "mrsne r0, psp\n\t"
                     "ldr   r0, [r0, #24]\n\t" /* stacked PC */
                     "b     __profile_hit\n\t");
}
_Static_assert(CMSDK_TIMER0_BASE == 0x40000000u, "TIMER0_IRQHandler hard-codes the TIMER0 address");
