/*
 * __gnu_mcount_nc: the call-graph hook that GCC's -pg emits on ARM (Thumb-2, ARMv7-M).
 *
 * Every instrumented function starts with
 *         push    {lr}
 *         bl      __gnu_mcount_nc
 * so on entry here:
 *   lr      return address into the instrumented function (Thumb bit set): the callee
 *   [sp]    the instrumented function's own return address into its caller: the call site
 *   sp      4 mod 8 (the caller had it 8-aligned; the push took one word)
 *   r0-r3   the instrumented function's arguments, still live
 * and on return the pushed word must be gone and lr must hold it again, because the
 * instrumented function's prologue goes on as though nothing had happened.
 *
 * The common case -- the arc is already in the table, at its home slot or the one after
 * it -- is done here (<cyg/profile/hal.h> is the contract): with PRIMASK set, hash the
 * call site and callee, load the record, compare call site and callee, add one to its count
 * (sticking at 0xFFFFFFFF). 26 instructions from the compiler's push {lr} to the return
 * into the callee when the arc is at its home (make bench), 8 with profiling off (the
 * gate, arm_gnu_mcount_nc.h). Anything else (a new arc, one further along, a reset gdb
 * asked for, a call site outside the range) goes to __profile_mcount(call site, callee) in C, with interrupts as
 * they were, which looks again under its own masking: an interrupt between the two changes
 * nothing that matters.
 *
 * Masked from before the lookup to after the increment: a -pg interrupt handler cannot
 * nest inside (no count lost, no half-made record seen), and neither a snapshot (a TFTP
 * transfer taken by another thread) nor a reset can swap or clear the table under it; gdb
 * runs the target out of this function before it reads (gdb/gprof.gdb).
 *
 * Pushing seven words (r0-r5 and lr) makes sp 8-aligned again, as AAPCS requires for the
 * call into C (eCos's stub pushed an even number of words and left the C handler on a
 * misaligned stack), and frees r4 and r5 for a record's three words in one ldm. The one
 * pop then puts the callee return address in ip and the pushed word in lr, consuming it.
 * Everything but ip (which AAPCS lets a veneer clobber anyway) and the flags (dead at a
 * call; the C handler changes them too) is preserved. The addresses are passed as the
 * hook got them; the package strips the Thumb bit when it writes gmon.out.
 *
 * FP: the package is built with -mgeneral-regs-only (hal.mk), so __profile_mcount cannot
 * touch FP registers even when the application is built hard-float for a Cortex-M4F/M7,
 * where s0-s15 carry arguments and are caller-saved; this stub saves none of them.
 */
#include <pkgconf/hal_armv7m.h>
/* The CDL option that compiles this file (hal_armv7m.cdl); without it the file is empty,
 * so that -pg code fails to link instead of calling into a package without a call graph. */
#if CYGFUN_HAL_ARMV7M_PROFILE_MCOUNT

        .syntax unified
        .thumb

#define ARM_MCOUNT_FUNC_KIND .thumb_func
#define ARM_MCOUNT_MASK_SAVE_R3 mrs r3, primask
#define ARM_MCOUNT_MASK_OFF cpsid i
#define ARM_MCOUNT_MASK_RESTORE_R3 msr primask, r3; isb
#define ARM_MCOUNT_PC_AHEAD 4
#include <cyg/hal/arm_gnu_mcount_nc.h>

#endif /* CYGFUN_HAL_ARMV7M_PROFILE_MCOUNT */
