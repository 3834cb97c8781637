/*
 * The body of __gnu_mcount_nc for ARMv7-M and ARMv7-A, in ARM or Thumb-2 code (unified
 * syntax: the IT instructions assemble to nothing in ARM state). The architecture's
 * mcount.S says why it is so (the contract with the compiler, the masking, what the fast
 * path does); this file is what is the same in both. Included by hal/armv7m/src/mcount.S
 * and hal/armv7a/src/mcount.S after .syntax unified and .arm or .thumb, with:
 *   ARM_MCOUNT_FUNC_KIND         .thumb_func for Thumb code, nothing for ARM
 *   ARM_MCOUNT_MASK_SAVE_R3      r3 = the interrupt mask state
 *   ARM_MCOUNT_MASK_OFF          mask every interrupt that may run -pg code
 *   ARM_MCOUNT_MASK_RESTORE_R3   the mask state as r3 says
 *   ARM_MCOUNT_PC_AHEAD          how far ahead pc reads: 4 in Thumb code, 8 in ARM code
 *
 * The gate (profile_state.mcount_gate, the word after hash_mul) is checked first, before
 * anything is masked: added to pc, 0 (profiling off) lands on the off path, which only
 * restores and returns, and the open value, PROFILE_MCOUNT_GATE_OPEN = PROFILE_ARC_BYTES
 * (the off path is padded to it), on the lookup, which then has the record size in a
 * register for one mla instead of two adds. One load and one add: the cheapest test and
 * branch there is (a cbz would need a low register free before the push, and two
 * instructions more on the lookup).
 */
#include <cyg/profile/hal.h>

/* One ldm loads the three words of the gate, another a record. */
#if PROFILE_STATE_HOMES != PROFILE_STATE_ARCS + 4 || PROFILE_STATE_HASH_MUL != PROFILE_STATE_ARCS + 8 || \
    PROFILE_ARC_SELF != PROFILE_ARC_FROM + 4 || PROFILE_ARC_COUNT != PROFILE_ARC_FROM + 8 || \
    PROFILE_ARC_BYTES != 12
#error "arm_gnu_mcount_nc.h: <cyg/profile/hal.h>'s arc table changed"
#endif
#define ARM_MCOUNT_GATE PROFILE_STATE_MCOUNT_GATE       /* profile_state.mcount_gate */

/* The way out of every path: the registers as at entry (the pushed word consumed), and an
 * interworking return into the instrumented code. */
        .macro arm_mcount_return
        pop     {r0-r5, ip, lr}         /* ip = callee return, lr = pushed word (consumed) */
        .cfi_adjust_cfa_offset -32
        .cfi_restore r4
        .cfi_restore r5
        .cfi_register lr, ip
        bx      ip
        .endm

        .section .text.__gnu_mcount_nc, "ax", %progbits
        .cfi_sections .debug_frame
        .global __gnu_mcount_nc
        .type   __gnu_mcount_nc, %function
        ARM_MCOUNT_FUNC_KIND
        .balign 16              /* starts a histogram bucket: its samples stay its own */
__gnu_mcount_nc:
        .cfi_startproc
        /* at entry the CFA is sp + 4 (the pushed word); lr is the callee return address */
        .cfi_def_cfa_offset 4
        push    {r0-r5, lr}             /* sp 8-aligned; [sp + 28] = pushed word */
        .cfi_adjust_cfa_offset 28
        .cfi_rel_offset r4, 16
        .cfi_rel_offset r5, 20
        .cfi_rel_offset lr, 24
        ldr     r0, =profile_state
        ldr     r5, [r0, #ARM_MCOUNT_GATE]
.Lgate: add     pc, r5                  /* pc reads as this instruction + 4 (ARM: + 8) */
        nop                             /* (skipped: the off path starts there) */
.Loff:                                  /* profiling off: as at entry, and back */
        .cfi_remember_state
        arm_mcount_return
        .cfi_restore_state
        .space  .Loff + PROFILE_MCOUNT_GATE_OPEN - .   /* (never run: padded to a record's size) */
.Lon:   /* r5 = the open gate = PROFILE_ARC_BYTES: the record size, for the mla below */
        .if .Lon - .Loff - PROFILE_MCOUNT_GATE_OPEN
        .error "the off path is not PROFILE_MCOUNT_GATE_OPEN long"
        .endif
        .if .Loff - .Lgate - ARM_MCOUNT_PC_AHEAD
        .error "the gate's add does not land on .Loff with a gate of 0"
        .endif
        ARM_MCOUNT_MASK_SAVE_R3
        ARM_MCOUNT_MASK_OFF
        ldr     r1, [sp, #28]           /* from: the call site */
        ldm     r0, {r0, r2, ip}        /* armed_arcs, armed_homes, hash_mul */
        add     r4, r1, lr, lsl #16     /* the key: call site + (callee << 16) */
        mul     ip, r4, ip              /* key * PROFILE_ARC_HASH_MUL mod 2^32 */
        umull   ip, r2, ip, r2          /* r2 = that * homes >> 32: the home slot */
        mla     r0, r2, r5, r0          /* its record */
        ldm     r0, {r2, r4, r5}        /* its call site, callee, count */
        cmp     r2, r1                  /* this call site ... */
        it      eq
        cmpeq   r4, lr                  /* ... and this callee? */
        bne     .Lnext
.Lfound:
        adds    r5, r5, #1              /* 0xFFFFFFFF + 1: Z set, the count stays */
        it      ne
        strne   r5, [r0, #PROFILE_ARC_COUNT]
        ARM_MCOUNT_MASK_RESTORE_R3
        .cfi_remember_state
        arm_mcount_return
        .cfi_restore_state
.Lnext:
        add     r0, r0, #PROFILE_ARC_BYTES      /* the slot after the home: always there */
        ldm     r0, {r2, r4, r5}
        cmp     r2, r1
        it      eq
        cmpeq   r4, lr
        beq     .Lfound
        ARM_MCOUNT_MASK_RESTORE_R3
        mov     r0, r1                  /* caller_pc: the call site */
        mov     r1, lr                  /* callee_pc */
        bl      __profile_mcount
        arm_mcount_return
        .cfi_endproc
        .ltorg
        .size   __gnu_mcount_nc, . - __gnu_mcount_nc
