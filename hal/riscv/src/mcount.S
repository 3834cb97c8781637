/*
 * _mcount: the call-graph hook that GCC's -pg emits on RISC-V (RV32 and RV64, any ABI
 * without FP arguments in the trap frame's sense; see riscv.h).
 *
 * GCC (gcc/config/riscv/riscv.h, PROFILE_HOOK) emits it as an ordinary library call with
 * one argument, the function's incoming return address; after the prologue:
 *         mv      a0, ra          (at -O0 through a temporary)
 *         call    _mcount
 * so on entry here:
 *   a0      return address into the instrumented function's caller: the call site
 *   ra      return address into the instrumented function: the callee
 *   sp      the instrumented function's frame, 16-byte aligned (psABI)
 * Because it is an ordinary call, the compiler has already moved every argument it still
 * needs into callee-saved registers or its frame (a0 is overwritten by the call itself),
 * and expects a0-a7, t0-t6 and ra to be clobbered, exactly as by any C function: the
 * psABI's callee-saved registers (s0-s11, sp, gp, tp) are all that must survive.
 *
 * That is __profile_mcount(caller_pc, callee_pc)'s own contract, so the stub only puts the
 * callee in a1 and tail-calls it: __profile_mcount returns straight into the instrumented
 * function, on its stack, which is already 16-byte aligned. 2 instructions (3 if the
 * linker cannot relax the tail call to one jump), plus the C handler.
 *
 * Interrupts stay enabled: the C handler masks them (mstatus.MIE) around its table update,
 * and nothing here touches memory, so a -pg interrupt handler can nest anywhere.
 */
#include <pkgconf/hal_riscv.h>
/* The CDL option that compiles this file (hal_riscv.cdl); without it the file is empty,
 * so that -pg code fails to link instead of calling into a package without a call graph. */
#if CYGFUN_HAL_RISCV_PROFILE_MCOUNT

        .section .text._mcount, "ax", @progbits
        .global _mcount
        .type   _mcount, @function
        .balign 16              /* starts a histogram bucket: its samples stay its own */
_mcount:
        .cfi_startproc
        mv      a1, ra          /* callee_pc: return address into the instrumented function */
        tail    __profile_mcount /* caller_pc is in a0 already; it returns through ra */
        .cfi_endproc
        .size   _mcount, . - _mcount

#endif /* CYGFUN_HAL_RISCV_PROFILE_MCOUNT */
