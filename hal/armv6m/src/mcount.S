/*
 * __gnu_mcount_nc: the call-graph hook that GCC's -pg emits on ARM, in Thumb-1 for ARMv6-M
 * (Cortex-M0, M0+, M1) and ARMv8-M Baseline (Cortex-M23).
 *
 * Every instrumented function ends its prologue with
 *         push    {lr}
 *         bl      __gnu_mcount_nc
 * (e.g. push {r4, lr}; push {lr}; bl __gnu_mcount_nc), so on entry here:
 *   lr      return address into the instrumented function (Thumb bit set): the callee
 *   [sp]    the word pushed just before the call: the instrumented function's own return
 *           address into its caller, the call site
 *   sp      4 mod 8 (the prologue left it 8-aligned; the push took one word)
 *   r0-r3   the instrumented function's arguments, still live
 * and on return the pushed word must be gone and lr must hold it again, because the
 * instrumented function's prologue goes on as though nothing had happened. This is the
 * contract of the ARMv7-M stub (hal/armv7m/src/mcount.S).
 *
 * Thumb-1 cannot do what that stub does (bic with an immediate, pop into ip or lr), so
 * the pushed word is reused: r0-r3 are pushed on top of it, the callee return address is
 * written over it, and one more word (the call site, kept for lr) makes sp 8-aligned for
 * the call into C, as AAPCS requires. On the way back, that word goes to lr through r0,
 * and one pop restores r0-r3 and returns to the callee through the slot that held the
 * pushed word, consuming it. pop {pc} interworks like bx (the address has its Thumb bit).
 *
 * Preserved: r0-r12, sp, lr (= the pushed word) as the contract wants; r4-r11 because the
 * C handler preserves them (AAPCS) and nothing here touches them; ip (r12), which the v7-M
 * stub may clobber, because nothing here touches it either (GCC passes the static chain of
 * nested functions in ip). The flags are not preserved (movs/bics set them): they are dead
 * at a call, and the C handler changes them anyway.
 *
 * The path is 14 instructions including the compiler's push/bl, plus the C handler
 * (9 on ARMv7-M: the two extra pushes/pops and the moves through r0 are Thumb-1's price).
 *
 * Both addresses are passed plain (bit 0 cleared): the call site may be an EXC_RETURN
 * value when the instrumented function is an interrupt handler (ARMv8-M's Non-secure
 * EXC_RETURN has bit 0 clear, so bit 0 is cleared rather than 1 subtracted); the package
 * counts such a call site as outside the profiled range.
 *
 * GCC defect (12.2, ARMv6-M and ARMv8-M Baseline, -O1 and above): a function that saves
 * all of r8-r11 may copy one of them through lr in its prologue (mov lr, fp;
 * push {r5-r7, lr}) before the -pg sequence, which then pushes fp's value, not the return
 * address: the call would be counted from outside the range instead of from its call site.
 * -pg code for this architecture is therefore compiled with r8-r11 fixed (HAL_PG_CFLAGS in
 * hal.mk; Thumb-1 code uses them only as spill registers), and then GCC never does it.
 *
 * Interrupts stay enabled: the C handler (the portable core) masks them around its table
 * update with hal_profile_irq_save(), and everything here is on the current stack, so an
 * interrupt handler built with -pg can nest at any instruction (between the str and the
 * push below the pushed word's slot holds the callee return address and the call site is
 * in r0: both are saved by exception entry like any other register state).
 */
#include <pkgconf/hal_armv6m.h>
/* The CDL option that compiles this file (hal_armv6m.cdl); without it the file is empty,
 * so that -pg code fails to link instead of calling into a package without a call graph. */
#if CYGFUN_HAL_ARMV6M_PROFILE_MCOUNT

        .syntax unified
        .thumb

        .section .text.__gnu_mcount_nc, "ax", %progbits
        .cfi_sections .debug_frame
        .global __gnu_mcount_nc
        .type   __gnu_mcount_nc, %function
        .thumb_func
        .balign 16              /* starts a histogram bucket: its samples stay its own */
__gnu_mcount_nc:
        .cfi_startproc
        /* at entry the CFA is sp + 4 (the pushed word); lr is the callee return address */
        .cfi_def_cfa_offset 4
        push    {r0-r3}                 /* [sp + 16] = pushed word */
        .cfi_adjust_cfa_offset 16
        ldr     r0, [sp, #16]           /* caller_pc: the pushed word */
        mov     r1, lr                  /* callee_pc */
        str     r1, [sp, #16]           /* the pushed word's slot: where the final pop
                                           takes pc from */
        .cfi_offset lr, -4
        push    {r0}                    /* the pushed word, for lr; sp 8-aligned */
        .cfi_adjust_cfa_offset 4
        movs    r2, #1                  /* plain code addresses (Thumb bit off) */
        bics    r0, r2
        bics    r1, r2
        bl      __profile_mcount
        pop     {r0}                    /* the pushed word ... */
        .cfi_adjust_cfa_offset -4
        mov     lr, r0                  /* ... back in lr */
        pop     {r0-r3, pc}             /* arguments back; return to the callee, consuming
                                           the pushed word's slot */
        .cfi_endproc
        .size   __gnu_mcount_nc, . - __gnu_mcount_nc

#endif /* CYGFUN_HAL_ARMV6M_PROFILE_MCOUNT */
