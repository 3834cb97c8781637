/*
 * The exception model of every ARMv7-A board: the vector table, reset, and the entries of
 * IRQ and of the exceptions firmware does not handle. See <cyg/hal/armv7a.h> for the model.
 *
 * All of it is ARM-state code in the .vectors section, which the linker script places
 * before _stext (hal/armv7a/armv7a.ld): like the hardware exception entry of Cortex-M, it
 * is outside the profiled range, so an interrupt handler's own mcount sees a caller outside
 * the range (counted in gmon.out's header) rather than an arc from the IRQ entry.
 *
 * Stacks (armv7a.ld): main runs in SYS mode on __stack_top; the IRQ entry keeps each
 * interrupt's frame on __irq_stack_top (IRQ mode; frames of nested interrupts stack up
 * there) and takes the profile timer's samples there; interrupt handlers run in SVC mode on
 * __svc_stack_top; FIQ, abort and undefined instruction handlers, which only report and
 * exit, on __exc_stack_top.
 */
#include <cyg/hal/armv7a.h>
#include <cyg/hal/board.h>

#define SCTLR_V (1 << 13)  /* vectors at 0xFFFF0000: cleared, VBAR is used */
#define SCTLR_TE (1 << 30) /* exceptions taken in Thumb state: cleared, this file is ARM */
#define CPACR_CP10_CP11_FULL (0xF << 20)
#define FPEXC_EN (1 << 30)

        .syntax unified
        .arm
        .section .vectors, "ax", %progbits

/*
 * The vector table (VBAR points here; 32-byte aligned). Loads of pc interwork: a handler
 * firmware writes in Thumb is entered in Thumb state.
 */
        .balign 32
        .global __vectors
__vectors:
        ldr     pc, .Lreset_addr
        ldr     pc, .Lundef_addr
        ldr     pc, .Lsvc_addr
        ldr     pc, .Lpabt_addr
        ldr     pc, .Ldabt_addr
        b       .                       /* (Hyp trap: never taken outside Hyp mode) */
        b       armv7a_irq_entry
        ldr     pc, .Lfiq_addr
.Lreset_addr:   .word   Reset_Handler
.Lundef_addr:   .word   Undef_Handler
.Lsvc_addr:     .word   SVC_Handler
.Lpabt_addr:    .word   PrefetchAbort_Handler
.Ldabt_addr:    .word   DataAbort_Handler
.Lfiq_addr:     .word   FIQ_Handler

/*
 * IRQ. Taken in IRQ mode with IRQs masked; lr_irq = the interrupted instruction + 4 (in
 * ARM and Thumb state alike), SPSR_irq = the interrupted CPSR.
 *
 * The frame goes onto the IRQ mode's stack: AAPCS's caller-saved registers and the
 * interrupted PC (lr_irq - 4). The GIC's IAR acknowledges the interrupt and raises the GIC's
 * running priority to its level, so that only more urgent interrupts are signalled until
 * its EOI.
 *
 * The profile timer (BOARD_PROFILE_TIMER_IRQ, GIC level 0, the most urgent) is sampled
 * right here, in IRQ mode with IRQs masked: the board's BOARD_PROFILE_TIMER_SAMPLE(the
 * interrupted PC, from the banked lr) acknowledges the timer, gives it its next period and
 * calls __profile_hit; then EOI, return. No VFP state is saved:
 * the package is built -mgeneral-regs-only.
 *
 * Every other interrupt: the IAR value and SPSR_irq join the frame (a nested interrupt
 * overwrites lr_irq and SPSR_irq; the frames of nested interrupts stack up on the IRQ
 * stack, which is why it is kept while the handler runs), then the handler from
 * armv7a_irq_handlers (the board's BOARD_IRQ_VECTORS) runs in SVC mode, on the SVC stack
 * (8-byte aligned whatever the interrupted SVC-mode code left; its lr_svc saved), with the
 * IAR value in r0, the caller-saved VFP state saved, and IRQs enabled: it may be preempted
 * by the profile timer and by any more urgent interrupt. Back in IRQ mode with IRQs masked,
 * EOI and return.
 *
 * The EOIs come after a DSB, so that the device's acknowledge has taken effect and a
 * level-sensitive line does not pend the interrupt again. The return (LDM with ^) restores
 * the interrupted CPSR from SPSR_irq.
 *
 * A profile timer interrupt that comes while this entry has IRQs masked is taken at the
 * next instruction that runs with them enabled: the interrupted code, or, on the way in
 * and out, armv7a_irq_dispatch, which enables IRQs, calls the handler and masks them
 * again. That one is in .text, inside the profiled range, so that these samples show in
 * gprof as its time (the cost of interrupts), not as samples outside the range.
 *
 * Around the handler, hal_armv7a_irq_depth counts the handlers the entry is inside (the
 * stack-profiling mode's level: <cyg/hal/profile_arch.h>).
 *
 * An RTOS's context switch on the way out (<cyg/hal/armv7a.h>): once the outermost handler
 * has returned (depth 0, after its EOI), if hal_armv7a_switch_request points at a nonzero
 * word, the word is cleared and, instead of the return, hal_armv7a_switch is entered with
 * the interrupted code's every register, in IRQ mode with IRQs masked, lr_irq its return
 * address and SPSR_irq its CPSR, as an SVC handler is entered (ldm without ^ keeps the
 * mode). The profile timer's interrupt never switches: its path returns at once.
 *
 * IRQ stack frame (from sp_irq up): [IAR, SPSR_irq,] r0, r1, r2, r3, r12, interrupted pc.
 * armv7a_default_irq_handler (startup.c) reads the interrupted pc from it.
 */
        .global armv7a_irq_entry
        .type   armv7a_irq_entry, %function
armv7a_irq_entry:
        sub     lr, lr, #4              /* the interrupted instruction */
        push    {r0-r3, r12, lr}        /* (6 words: sp_irq stays 8-aligned) */
        ldr     r1, =BOARD_GICC_BASE
        ldr     r0, [r1, #GICC_IAR]     /* r0: the IAR value (ID; source CPU for SGIs) */
        cmp     r0, #BOARD_PROFILE_TIMER_IRQ /* (a peripheral's IAR value is its ID) */
        bne     .Lirq_handler
        /* The sample. */
        mov     r0, lr                  /* the interrupted PC */
        bl      BOARD_PROFILE_TIMER_SAMPLE
        dsb
        ldr     r1, =BOARD_GICC_BASE
        mov     r0, #BOARD_PROFILE_TIMER_IRQ
        str     r0, [r1, #GICC_EOIR]
        ldm     sp!, {r0-r3, r12, pc}^  /* return: pc, and cpsr from SPSR_irq */
.Lirq_handler:
        ubfx    r1, r0, #0, #GICC_IAR_ID_BITS
        cmp     r1, #BOARD_IRQ_COUNT
        bhs     .Lirq_return            /* 1023: spurious (gone before the IAR read), no EOI */
        mrs     r2, spsr
        push    {r0, r2}                /* IAR, SPSR_irq (8 words: still 8-aligned) */
        ldr     r3, =hal_armv7a_irq_depth   /* one handler deeper (r3, r12: saved above) */
        ldr     r12, [r3]
        add     r12, r12, #1
        str     r12, [r3]
        ldr     r2, =armv7a_irq_handlers
        ldr     r2, [r2, r1, lsl #2]
        cps     #ARMV7A_MODE_SVC
        and     r1, sp, #4              /* AAPCS: 8-byte aligned at the call */
        sub     sp, sp, r1
        push    {r1, lr}                /* the realignment, the interrupted code's lr_svc */
#if defined(__ARM_FP)
        vmrs    r1, fpscr
        push    {r1, r3}                /* (two words: sp stays 8-aligned) */
        vpush   {d0-d7}
#if defined(__ARM_NEON)
        vpush   {d16-d31}
#endif
#endif
        bl      armv7a_irq_dispatch     /* handler(IAR value), IRQs enabled; back masked */
        cpsid   i                       /* (masked already: see armv7a_irq_dispatch) */
        ldr     r3, =hal_armv7a_irq_depth   /* (r3, r12: the handler's to clobber) */
        ldr     r12, [r3]
        sub     r12, r12, #1
        str     r12, [r3]
#if defined(__ARM_FP)
#if defined(__ARM_NEON)
        vpop    {d16-d31}
#endif
        vpop    {d0-d7}
        pop     {r1, r3}
        vmsr    fpscr, r1
#endif
        pop     {r1, lr}
        add     sp, sp, r1
        cps     #ARMV7A_MODE_IRQ
        pop     {r0, r2}
        msr     spsr_cxsf, r2
        dsb
        ldr     r1, =BOARD_GICC_BASE
        str     r0, [r1, #GICC_EOIR]
        ldr     r3, =hal_armv7a_irq_depth   /* the outermost handler: an RTOS's switch? */
        ldr     r3, [r3]
        cmp     r3, #0
        bne     .Lirq_return
        ldr     r3, =hal_armv7a_switch_request
        ldr     r3, [r3]
        cmp     r3, #0
        ldrne   r2, [r3]
        cmpne   r2, #0
        bne     .Lirq_switch
.Lirq_return:
        ldm     sp!, {r0-r3, r12, pc}^  /* return: pc, and cpsr from SPSR_irq */
.Lirq_switch:
        mov     r2, #0                  /* the request taken */
        str     r2, [r3]
        ldr     r3, =hal_armv7a_switch
        ldr     r3, [r3]
        ldr     lr, [sp, #20]           /* lr_irq: where the switch returns to */
        str     r3, [sp, #20]
        ldm     sp!, {r0-r3, r12, pc}   /* the switch, every register the task's */
        .size   armv7a_irq_entry, . - armv7a_irq_entry
        .ltorg

/* IRQs on (more urgent interrupts may preempt from here), the handler in r2 (ARM or
 * Thumb), IRQs off again, back to the entry. In .text, inside the profiled range, both
 * ways: a profile timer interrupt pending when IRQs come on is taken here, and so is one
 * that comes as the handler returns, which the masking instruction finds with IRQs still
 * on (were it in .vectors, that sample would fall outside the range). */
        .section .text.armv7a_irq_dispatch, "ax", %progbits
        .type   armv7a_irq_dispatch, %function
armv7a_irq_dispatch:
        push    {r4, lr}                /* (two words: sp stays 8-aligned) */
        cpsie   i
        blx     r2
        cpsid   i
        pop     {r4, pc}
        .size   armv7a_irq_dispatch, . - armv7a_irq_dispatch

        .section .vectors, "ax", %progbits

/*
 * The exceptions firmware does not handle: weak, so that firmware (an RTOS's SVC, an FIQ
 * source) can define a handler of the same name, entered as the vector is (raw, in the
 * exception's mode). The defaults report "*** unhandled exception N at pc 0x..." and exit
 * with 128 + N, N being the vector number (1 undefined instruction, 2 SVC, 3 prefetch
 * abort, 4 data abort, 7 FIQ); pc is the instruction that caused it (for FIQ: the
 * interrupted one).
 */
        .macro  default_handler name, number, lr_arm, lr_thumb
        .weak   \name
        .type   \name, %function
\name:
        mov     r0, #\number
        mrs     r2, spsr
        tst     r2, #ARMV7A_CPSR_T
        subeq   r1, lr, #\lr_arm
        subne   r1, lr, #\lr_thumb
        b       armv7a_report_exception
        .size   \name, . - \name
        .endm

        default_handler Undef_Handler, 1, 4, 2
        default_handler SVC_Handler, 2, 4, 2
        default_handler PrefetchAbort_Handler, 3, 4, 4
        default_handler DataAbort_Handler, 4, 8, 8
        default_handler FIQ_Handler, 7, 4, 4

/* r0 = exception number, r1 = pc: armv7a_unhandled_exception(number, pc) on this mode's
 * stack (aligned), with interrupts masked; it does not return. */
armv7a_report_exception:
        cpsid   if
        bic     sp, sp, #7
        ldr     r2, =armv7a_unhandled_exception
        bx      r2
        .ltorg

/*
 * Reset: entered in ARM state, in SVC mode (QEMU's -kernel: Secure SVC, interrupts and
 * aborts masked, MMU and caches off). Vectors at VBAR, a stack for every mode, the VFP
 * enabled in hard-float (or softfp) firmware, then the C runtime start (startup.c) in SYS
 * mode.
 */
        .global Reset_Handler
        .type   Reset_Handler, %function
Reset_Handler:
        cpsid   aif
        ldr     r0, =__vectors
        mcr     p15, 0, r0, c12, c0, 0  /* VBAR */
        mrc     p15, 0, r0, c1, c0, 0   /* SCTLR */
        bic     r0, r0, #SCTLR_V
        bic     r0, r0, #SCTLR_TE
        mcr     p15, 0, r0, c1, c0, 0
        isb
        cps     #ARMV7A_MODE_FIQ
        ldr     sp, =__exc_stack_top
        cps     #ARMV7A_MODE_IRQ
        ldr     sp, =__irq_stack_top
        cps     #ARMV7A_MODE_ABT
        ldr     sp, =__exc_stack_top
        cps     #ARMV7A_MODE_UND
        ldr     sp, =__exc_stack_top
        cps     #ARMV7A_MODE_SVC
        ldr     sp, =__svc_stack_top
        cps     #ARMV7A_MODE_SYS
        ldr     sp, =__stack_top
#if defined(__ARM_FP)
        mrc     p15, 0, r0, c1, c0, 2   /* CPACR: full access to cp10/cp11 (VFP, NEON) */
        orr     r0, r0, #CPACR_CP10_CP11_FULL
        mcr     p15, 0, r0, c1, c0, 2
        isb
        mov     r0, #FPEXC_EN
        vmsr    fpexc, r0
#endif
        ldr     r0, =armv7a_start
        bx      r0
        .size   Reset_Handler, . - Reset_Handler
        .ltorg
