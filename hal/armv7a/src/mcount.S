/*
 * __gnu_mcount_nc: the call-graph hook that GCC's -pg emits on ARM, here for ARMv7-A, in
 * ARM state, called from ARM and from Thumb-2 code (the linker turns a Thumb BL into BLX).
 *
 * Every instrumented function, in either instruction set and with or without a frame
 * pointer, has after its prologue
 *         push    {lr}
 *         bl      __gnu_mcount_nc
 * so on entry here:
 *   lr      return address into the instrumented function (Thumb bit set for Thumb code):
 *           the callee
 *   [sp]    the instrumented function's own return address into its caller: the call site
 *   sp      4 mod 8 (the caller had it 8-aligned; the push took one word)
 *   r0-r3   the instrumented function's arguments, still live (and under hard-float
 *           d0-d7, which nothing here or in the package touches)
 * and on return the pushed word must be gone and lr must hold it again, because the
 * instrumented function's prologue goes on as though nothing had happened.
 *
 * Pushing five words (r0-r3 and lr) makes sp 8-aligned again, as AAPCS requires for the
 * call into C. The one pop then puts the callee return address in ip and the pushed word in
 * lr, consuming it; BX ip returns in the instrumented function's instruction set. Everything
 * but ip (which AAPCS lets a veneer clobber anyway) is preserved, and the flags are, too:
 * nothing here sets them, and the C handler's changes to them are allowed at a function
 * call boundary. The addresses passed are plain (Thumb bit cleared), as gprof wants them.
 *
 * The path is 9 instructions including the compiler's push/bl, plus the C handler.
 *
 * FP: the package is built with -mgeneral-regs-only (hal.mk), so __profile_mcount cannot
 * touch VFP registers (the C library's memset, the one routine its slow path calls, uses
 * none either); this stub saves none of them.
 *
 * Interrupts stay enabled: the C handler (the portable core) masks them around its table
 * update with hal_profile_irq_save(), and everything here is on the current stack, so an
 * interrupt handler built with -pg can nest at any instruction.
 */
#include <pkgconf/hal_armv7a.h>
/* The CDL option that compiles this file (hal_armv7a.cdl); without it the file is empty,
 * so that -pg code fails to link instead of calling into a package without a call graph. */
#if CYGFUN_HAL_ARMV7A_PROFILE_MCOUNT

        .syntax unified
        .arm

        .section .text.__gnu_mcount_nc, "ax", %progbits
        .cfi_sections .debug_frame
        .global __gnu_mcount_nc
        .type   __gnu_mcount_nc, %function
        .balign 16              /* starts a histogram bucket: its samples stay its own */
__gnu_mcount_nc:
        .cfi_startproc
        /* at entry the CFA is sp + 4 (the pushed word); lr is the callee return address */
        .cfi_def_cfa_offset 4
        push    {r0-r3, lr}             /* sp 8-aligned; [sp + 20] = pushed word */
        .cfi_adjust_cfa_offset 20
        .cfi_rel_offset lr, 16
        ldr     r0, [sp, #20]           /* caller_pc: return address into the caller */
        bic     r0, r0, #1              /* plain code address (Thumb bit off) */
        bic     r1, lr, #1              /* callee_pc: return address into the callee */
        bl      __profile_mcount
        pop     {r0-r3, ip, lr}         /* ip = callee return, lr = pushed word (consumed) */
        .cfi_adjust_cfa_offset -24
        .cfi_register lr, ip
        bx      ip                      /* interworking return into the instrumented code */
        .cfi_endproc
        .size   __gnu_mcount_nc, . - __gnu_mcount_nc

#endif /* CYGFUN_HAL_ARMV7A_PROFILE_MCOUNT */
