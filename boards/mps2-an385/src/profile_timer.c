/*
 * The profile timer of mps2-an385: CMSDK APB TIMER0 (IRQ 8), clocked at the APB clock of
 * 25 MHz. SysTick is left to the application or RTOS.
 *
 * Interval maths: the timer counts RELOAD, RELOAD-1, ..., 0 and interrupts as it reloads,
 * so one period is RELOAD + 1 ticks of 40 ns. An interval of N us is exactly 25 * N ticks,
 * RELOAD = 25 * N - 1. The 32-bit counter allows up to 2^32 ticks, floor(2^32 / 25) =
 * 171798691 us (about 172 s); requests above are clamped to that. Requests below
 * PROFILE_TIMER_MIN_US are raised to it, because at shorter intervals the sampling
 * interrupt would eat a large part of the CPU.
 *
 * Priority: BOARD_PROFILE_TIMER_PRIO (0, the most urgent), so that samples land inside
 * every other interrupt handler too, and so that RTOS critical sections that mask by
 * BASEPRI are sampled as well (the handler calls no RTOS service). Only PRIMASK sections,
 * such as the package's own arc-table update, hold a sample back; it is then taken as
 * soon as they end.
 */
#include <errno.h>
#include <stdint.h>

#include <cyg/hal/board.h>
#include <cyg/profile/hal.h>
#include "an385_regs.h"

#define PROFILE_TIMER_TICKS_PER_US (BOARD_APB_CLOCK_HZ / 1000000u)
_Static_assert(BOARD_APB_CLOCK_HZ % 1000000u == 0, "the profile timer assumes whole ticks per microsecond");

/* Shortest interval granted: 250 ticks at 25 MHz. */
#define PROFILE_TIMER_MIN_US 10
/* Longest interval the 32-bit counter can time: 2^32 ticks. */
#define PROFILE_TIMER_MAX_US ((int)(0x100000000ull / PROFILE_TIMER_TICKS_PER_US))

int hal_enable_profile_timer(int interval_us)
{
    if (interval_us <= 0)
        return -EINVAL;
    if (interval_us < PROFILE_TIMER_MIN_US)
        interval_us = PROFILE_TIMER_MIN_US;
    if (interval_us > PROFILE_TIMER_MAX_US)
        interval_us = PROFILE_TIMER_MAX_US;
    uint32_t reload = (uint32_t)interval_us * PROFILE_TIMER_TICKS_PER_US - 1u;

    CMSDK_TIMER_CTRL(CMSDK_TIMER0_BASE) = 0;
    CMSDK_TIMER_RELOAD(CMSDK_TIMER0_BASE) = reload;
    CMSDK_TIMER_VALUE(CMSDK_TIMER0_BASE) = reload;
    CMSDK_TIMER_INTCLEAR(CMSDK_TIMER0_BASE) = 1;
    board_irq_unpend(BOARD_IRQ_TIMER0); /* no stale sample from an earlier run */
    board_irq_enable(BOARD_IRQ_TIMER0, BOARD_PROFILE_TIMER_PRIO);
    CMSDK_TIMER_CTRL(CMSDK_TIMER0_BASE) = CMSDK_TIMER_CTRL_EN | CMSDK_TIMER_CTRL_IRQEN;
    return interval_us;
}

void hal_disable_profile_timer(void)
{
    CMSDK_TIMER_CTRL(CMSDK_TIMER0_BASE) = 0;
    CMSDK_TIMER_INTCLEAR(CMSDK_TIMER0_BASE) = 1;
    board_irq_disable(BOARD_IRQ_TIMER0);
    board_irq_unpend(BOARD_IRQ_TIMER0);
    /* No __profile_hit() runs after this returns: the NVIC barrier in board_irq_disable. */
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
