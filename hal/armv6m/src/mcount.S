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
 * The common case -- the arc is already in the table, at its home slot or the one after
 * it -- is done first (<cyg/profile/hal.h> is the contract): with PRIMASK set, hash
 * call site and callee, load the record, compare call site and callee, add one to its count
 * (sticking at 0xFFFFFFFF). Thumb-1 has no 32x32->64 multiply, so the home slot's
 * ((h * homes) >> 32) is made of 16-bit halves (homes < 2^16), as the C code does it:
 * 38 instructions (make bench) from the compiler's push {lr} to the return into the callee;
 * 12 with profiling off: the gate (profile_state.mcount_gate) is read first, unmasked, and
 * added to pc, 0 landing on the off path, the open value (the record size, for one muls)
 * on the lookup. The return
 * writes the callee return address over the pushed word, so that the final pop takes pc
 * from there and consumes it, and puts the pushed word in lr. Masked from before the
 * lookup to after the increment: a -pg interrupt handler cannot nest inside, and neither a
 * snapshot nor a reset can swap or clear the table under it; gdb runs the target out of
 * this function before it reads (gdb/gprof.gdb).
 *
 * Anything else (a new arc, one further along, a reset gdb asked for, profiling off, a
 * call site outside the range) restores everything and takes the general path, with
 * interrupts as they were: r0-r3 are pushed on top of the pushed word, the callee return
 * address is written over it, and one more word (the call site, kept for lr) makes sp
 * 8-aligned for the call into C, as AAPCS requires. On the way back, that word goes to lr
 * through r0, and one pop restores r0-r3 and returns to the callee through the slot that
 * held the pushed word, consuming it. pop {pc} interworks like bx (the address has its
 * Thumb bit).
 *
 * Preserved: r0-r12, sp, lr (= the pushed word) as the contract wants; r4-r11 because the
 * C handler preserves them (AAPCS) and the fast path restores r4-r7; ip (r12), which the
 * v7-M stub may clobber, because nothing here touches it (GCC passes the static chain of
 * nested functions in ip). The flags are not preserved: they are dead at a call, and the
 * C handler changes them anyway.
 *
 * Both addresses are passed as the hook got them (Thumb bit set); the package strips it
 * when it writes gmon.out. The call site may be an EXC_RETURN value when the instrumented
 * function is an interrupt handler; the package counts such a call site as outside the
 * profiled range.
 *
 * GCC defect (12.2, ARMv6-M and ARMv8-M Baseline, -O1 and above): a function that saves
 * all of r8-r11 may copy one of them through lr in its prologue (mov lr, fp;
 * push {r5-r7, lr}) before the -pg sequence, which then pushes fp's value, not the return
 * address: the call would be counted from outside the range instead of from its call site.
 * -pg code for this architecture is therefore compiled with r8-r11 fixed (HAL_PG_CFLAGS in
 * hal.mk; Thumb-1 code uses them only as spill registers), and then GCC never does it.
 *
 */
#include <pkgconf/hal_armv6m.h>
#include <cyg/profile/hal.h>
/* The CDL option that compiles this file (hal_armv6m.cdl); without it the file is empty,
 * so that -pg code fails to link instead of calling into a package without a call graph. */
#if CYGFUN_HAL_ARMV6M_PROFILE_MCOUNT

#if PROFILE_STATE_HOMES != PROFILE_STATE_ARCS + 4 || PROFILE_STATE_HASH_MUL != PROFILE_STATE_ARCS + 8 || \
    PROFILE_ARC_SELF != PROFILE_ARC_FROM + 4 || PROFILE_ARC_COUNT != PROFILE_ARC_FROM + 8 || \
    PROFILE_ARC_BYTES != 12
#error "hal/armv6m/src/mcount.S: <cyg/profile/hal.h>'s arc table changed"
#endif

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
        push    {r0-r7}                 /* [sp + 32] = pushed word */
        .cfi_adjust_cfa_offset 32
        .cfi_rel_offset r4, 16
        .cfi_rel_offset r5, 20
        .cfi_rel_offset r6, 24
        .cfi_rel_offset r7, 28
        ldr     r0, =profile_state
        ldr     r7, [r0, #PROFILE_STATE_MCOUNT_GATE]  /* the gate: profile_state.mcount_gate */
.Lgate: add     pc, r7                  /* pc reads as this instruction + 4 */
        nop                             /* (skipped: the off path starts there) */
.Loff:                                  /* profiling off: as at entry, and back */
        ldr     r1, [sp, #32]           /* the pushed word */
        mov     r2, lr
        str     r2, [sp, #32]           /* the pushed word's slot: where pc comes from */
        mov     lr, r1                  /* the pushed word, in lr */
        pop     {r0-r7, pc}             /* return to the callee, consuming the slot */
        .space  .Loff + PROFILE_MCOUNT_GATE_OPEN - .   /* (never run: padded to a record's size) */
.Lon:   /* r7 = the open gate = PROFILE_MCOUNT_GATE_OPEN: the record size, for one muls below */
        .if .Lon - .Loff - PROFILE_MCOUNT_GATE_OPEN
        .error "the off path is not PROFILE_MCOUNT_GATE_OPEN long"
        .endif
        .if .Loff - .Lgate - 4
        .error "the gate's add does not land on .Loff with a gate of 0"
        .endif
        mrs     r3, primask
        cpsid   i
        ldm     r0!, {r4, r5, r6}       /* armed_arcs, armed_homes, hash_mul */
        ldr     r1, [sp, #32]           /* from: the call site */
        mov     r0, lr                  /* self, kept for the return (r0 is free now) */
        lsls    r2, r0, #16
        adds    r2, r2, r1              /* the key: call site + (callee << 16) */
        muls    r6, r2, r6              /* h = key * PROFILE_ARC_HASH_MUL mod 2^32 */
        lsrs    r2, r6, #16
        uxth    r6, r6
        muls    r2, r5, r2              /* (h >> 16) * homes */
        muls    r6, r5, r6              /* (h & 0xFFFF) * homes */
        lsrs    r6, r6, #16
        adds    r2, r2, r6
        lsrs    r2, r2, #16             /* h * homes >> 32: the home slot */
        muls    r2, r7, r2              /* 12 bytes a record */
        adds    r4, r4, r2
        ldm     r4!, {r5, r6}           /* its call site and callee; r4 = &its count */
        cmp     r5, r1                  /* this call site ... */
        bne     .Lnext
        cmp     r6, lr                  /* ... and this callee? */
        bne     .Lnext
.Lfound:
        ldr     r7, [r4]
        adds    r7, r7, #1              /* 0xFFFFFFFF + 1: the count stays */
        beq     1f
        str     r7, [r4]
1:      msr     primask, r3
        isb                             /* a sample held back is taken here: the stub's */
        str     r0, [sp, #32]           /* the pushed word's slot (self): where pc comes from */
        mov     lr, r1                  /* the pushed word, in lr */
        pop     {r0-r7, pc}             /* return to the callee, consuming the slot */
.Lnext:
        adds    r4, r4, #4              /* the slot after the home: always there */
        ldm     r4!, {r5, r6}
        cmp     r5, r1
        bne     .Lmiss
        cmp     r6, lr
        beq     .Lfound
.Lmiss:
        msr     primask, r3
        isb
        pop     {r0-r7}
        .cfi_adjust_cfa_offset -32
        .cfi_restore r4
        .cfi_restore r5
        .cfi_restore r6
        .cfi_restore r7
        /* as at entry: the general path */
        push    {r0-r3}                 /* [sp + 16] = pushed word */
        .cfi_adjust_cfa_offset 16
        ldr     r0, [sp, #16]           /* caller_pc: the pushed word */
        mov     r1, lr                  /* callee_pc */
        str     r1, [sp, #16]           /* the pushed word's slot: where the final pop
                                           takes pc from */
        .cfi_offset lr, -4
        push    {r0}                    /* the pushed word, for lr; sp 8-aligned */
        .cfi_adjust_cfa_offset 4
        bl      __profile_mcount
        pop     {r0}                    /* the pushed word ... */
        .cfi_adjust_cfa_offset -4
        mov     lr, r0                  /* ... back in lr */
        pop     {r0-r3, pc}             /* arguments back; return to the callee, consuming
                                           the pushed word's slot */
        .cfi_endproc
        .ltorg
        .size   __gnu_mcount_nc, . - __gnu_mcount_nc

#endif /* CYGFUN_HAL_ARMV6M_PROFILE_MCOUNT */
