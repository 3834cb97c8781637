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
 * That is __profile_mcount(caller_pc, callee_pc)'s own contract: on a core without the M
 * extension the stub only puts the callee in a1 and tail-calls it; __profile_mcount returns
 * straight into the instrumented function, on its stack, which is already 16-byte aligned.
 *
 * With M (every board here) the common case -- the arc is already in the table, at its
 * home slot or the one after it -- is done first (<cyg/profile/hal.h> is the
 * contract): with mstatus.MIE clear, hash the call site, load the record, compare call site
 * and callee, add one to its count (sticking at 0xFFFFFFFF): 28 instructions on RV32 from the
 * compiler's mv a0, ra to the return (make bench), 8 with profiling off (the gate). Anything else
 * tail-calls __profile_mcount with MIE as it was, which looks again under its own masking.
 * Masked from before the lookup to after the increment: a -pg interrupt handler cannot
 * nest inside (no count lost), and neither a snapshot nor a reset can swap or clear the
 * table under it; gdb runs the target out of this function before it reads
 * (gdb/gprof.gdb).
 *
 * RV64: the table holds addresses mod 2^32 in low_pc's 4 GiB window; the package arms this
 * lookup only when that window is the first (profile_arm), and a record's words are loaded
 * zero-extended, so they equal a 64-bit address only below 4 GiB: a call from above never
 * matches a record, and goes to the C handler, which checks the window.
 */
#include <pkgconf/hal_riscv.h>
#include <cyg/hal/riscv.h>
#include <cyg/profile/hal.h>
/* The CDL option that compiles this file (hal_riscv.cdl); without it the file is empty,
 * so that -pg code fails to link instead of calling into a package without a call graph. */
#if CYGFUN_HAL_RISCV_PROFILE_MCOUNT

        .section .text._mcount, "ax", @progbits
        .global _mcount
        .type   _mcount, @function
        .balign 16              /* starts a histogram bucket: its samples stay its own */
_mcount:
        .cfi_startproc
#if defined(__riscv_mul)
#if PROFILE_STATE_HOMES != __SIZEOF_POINTER__ || PROFILE_STATE_HASH_MUL != __SIZEOF_POINTER__ + 4 || \
    PROFILE_ARC_BYTES != 12
#error "hal/riscv/src/mcount.S: <cyg/profile/hal.h>'s arc table changed"
#endif
#if __riscv_xlen == 64
#define LOAD_PTR ld
#define LOAD_U32 lwu    /* zero-extended: equal to a 64-bit address only below 4 GiB */
#else
#define LOAD_PTR lw
#define LOAD_U32 lw
#endif
        /* a0 = from (the call site), ra = self (the callee); t0-t6 are ours */
        /* The gate first, unmasked (profile_state.mcount_gate, the word after hash_mul): 0
         * while profiling is off, and then nothing else is done. PC-relative: any code
         * model; t1 then points at the gate, the other fields below it. */
#define GATE PROFILE_STATE_MCOUNT_GATE
1:      auipc   t1, %pcrel_hi(profile_state + GATE)
        lw      t5, %pcrel_lo(1b)(t1)   /* open: PROFILE_MCOUNT_GATE_OPEN, a record's bytes */
        beqz    t5, .Loff
        addi    t1, t1, %pcrel_lo(1b)
        csrrci  t0, mstatus, RISCV_MSTATUS_MIE
        LOAD_PTR t2, PROFILE_STATE_ARCS - GATE(t1)
        LOAD_U32 t3, PROFILE_STATE_HOMES - GATE(t1)
        LOAD_U32 t4, PROFILE_STATE_HASH_MUL - GATE(t1)
        slli    t6, ra, 16
        add     t6, t6, a0              /* the key: call site + (callee << 16), mod 2^32 */
#if __riscv_xlen == 64
        mulw    t4, t6, t4              /* key * PROFILE_ARC_HASH_MUL mod 2^32 ... */
        slli    t4, t4, 32              /* ... in the upper half, so that mulhu gives */
        mulhu   t4, t4, t3              /* that * homes >> 32: the home slot */
#else
        mul     t4, t6, t4              /* key * PROFILE_ARC_HASH_MUL mod 2^32 */
        mulhu   t4, t4, t3              /* that * homes >> 32: the home slot */
#endif
        mul     t4, t4, t5              /* 12 bytes a record (the open gate) */
        add     t2, t2, t4              /* its record */
        LOAD_U32 t3, PROFILE_ARC_FROM(t2)
        bne     t3, a0, .Lnext          /* this call site ... */
        LOAD_U32 t3, PROFILE_ARC_SELF(t2)
        bne     t3, ra, .Lnext          /* ... and this callee? */
.Lfound:
        lw      t3, PROFILE_ARC_COUNT(t2)
        addi    t3, t3, 1               /* (sign-extended on RV64: -1 + 1 = 0 too) */
        beqz    t3, 2f                  /* 0xFFFFFFFF + 1: the count stays */
        sw      t3, PROFILE_ARC_COUNT(t2)
2:      csrs    mstatus, t0             /* only MIE changed: setting what was set restores it */
        ret
.Lnext:
        LOAD_U32 t3, PROFILE_ARC_BYTES + PROFILE_ARC_FROM(t2)   /* the slot after the home */
        bne     t3, a0, .Lmiss
        LOAD_U32 t3, PROFILE_ARC_BYTES + PROFILE_ARC_SELF(t2)
        bne     t3, ra, .Lmiss
        addi    t2, t2, PROFILE_ARC_BYTES
        j       .Lfound
.Lmiss:
        csrs    mstatus, t0
#endif
        mv      a1, ra          /* callee_pc: return address into the instrumented function */
        tail    __profile_mcount /* caller_pc is in a0 already; it returns through ra */
#if defined(__riscv_mul)
.Loff:  ret                     /* profiling off */
#endif
        .cfi_endproc
        .size   _mcount, . - _mcount

#endif /* CYGFUN_HAL_RISCV_PROFILE_MCOUNT */
