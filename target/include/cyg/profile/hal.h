/*
 * The HAL contract: every hook the portable package needs from an architecture and a board,
 * and the two calls it gives them. This list is the whole of it (doc/porting.md says how to
 * write each hook). Hooks are declared here, so a HAL whose hook has another signature does
 * not compile; optional ones get their defaults here.
 *
 * Required of a board (or a firmware's own board code, "bring your own board"):
 *   hal_enable_profile_timer(), hal_disable_profile_timer()          the profile timer
 *   the timer's interrupt handler, which calls __profile_hit(interrupted PC)
 * Required of an architecture, in <cyg/hal/profile_arch.h>:
 *   hal_profile_irq_state, hal_profile_irq_save(), hal_profile_irq_restore()   masking
 *   hal_profile_in_interrupt()                                       handler or thread?
 *   HAL_PROFILE_PC(x)                                                the code address of x
 * Required of an architecture for the call graph (CYGINT_PROFILE_HAL_MCOUNT; without it,
 * build with CYGPKG_PROFILE_CALLGRAPH off):
 *   the compiler's -pg hook (__gnu_mcount_nc on ARM, _mcount on RISC-V), which calls
 *   __profile_mcount(); it may count an arc already in the table itself, by the layout
 *   below (the one part of this header for assembly)
 * Optional, with their defaults here:
 *   HAL_PROFILE_STACK_LEVEL()     the stack-profiling mode's exception level
 *   HAL_PROFILE_FROM_EXCEPTION(pc)  mcount's caller is an interrupt entry's mark
 *   HAL_PROFILE_MUL_HIGH(a, b)    (a * b) >> 32 of two 32-bit values, where the core has a
 *                                 multiply-high (the dither's offset: <cyg/profile/dither.h>)
 *
 * The package is never built with -pg: none of these hooks may be either (an mcount stub
 * that recursed into itself), nor anything they call.
 */
#ifndef CYGONCE_PROFILE_HAL_H
#define CYGONCE_PROFILE_HAL_H

/*
 * The mcount stub's optional fast path (C and assembly: a stub includes this header).
 * A stub may do the common case of every call -- the arc is already in the table, at its
 * home slot or the one after it -- in a few instructions of its own, and call
 * __profile_mcount for everything else:
 *
 *   gate = the u32 at profile_state + PROFILE_STATE_MCOUNT_GATE, read first, unmasked:
 *     0 while profiling is off (never started, stopped, profile_on failed): return at
 *     once, recording nothing; else PROFILE_MCOUNT_GATE_OPEN (below)
 *   with every interrupt that may run -pg code masked (hal_profile_irq_save),
 *     arcs  = the pointer at profile_state + PROFILE_STATE_ARCS
 *     homes = the u32 at profile_state + PROFILE_STATE_HOMES
 *     mul   = the u32 at profile_state + PROFILE_STATE_HASH_MUL (PROFILE_ARC_HASH_MUL)
 *     a     = arcs + PROFILE_ARC_BYTES * (((((from + (self << 16)) * mul) mod 2^32) *
 *                                       homes) >> 32)
 *     if the u32 at a + PROFILE_ARC_FROM equals from (mod 2^32) and the u32 at
 *        a + PROFILE_ARC_SELF equals self (mod 2^32), or else the same holds for the
 *        record after it (a + PROFILE_ARC_BYTES, always there: the table has homes + 1):
 *          that record's u32 at PROFILE_ARC_COUNT goes up by one unless it is 0xFFFFFFFF
 *   else (interrupts restored first): __profile_mcount(from, self)
 *
 * from and self are the return addresses as the hook gets them (the Thumb bit may be
 * set). The home slot hashes both: one call site may have many callees (calls through a
 * pointer, tail calls, interrupt entries). While the gate is closed (profiling off, or a reset gdb asked for is pending) arcs
 * points to two free records and homes is 0, so the lookup finds nothing and every call
 * goes to __profile_mcount. A stub that does not look arcs up itself just calls
 * __profile_mcount; the result is the same. The package checks these offsets against its
 * structures at compile time (target/src/profile_priv.h).
 */
/* One arc record: three u32 (12 bytes on every target). */
#define PROFILE_ARC_FROM      0     /* the call site's return address; 0: an empty slot */
#define PROFILE_ARC_SELF      4     /* the return address into the callee */
#define PROFILE_ARC_COUNT     8     /* traversals, sticking at 0xFFFFFFFF */
#define PROFILE_ARC_BYTES     12

/* The first fields of profile_state (its first fields, in this order, for one load). */
#define PROFILE_STATE_ARCS     0                           /* struct profile_arc * */
#define PROFILE_STATE_HOMES    __SIZEOF_POINTER__          /* u32 */
#define PROFILE_STATE_HASH_MUL (__SIZEOF_POINTER__ + 4)    /* u32: PROFILE_ARC_HASH_MUL */
#define PROFILE_STATE_MCOUNT_GATE (__SIZEOF_POINTER__ + 8) /* u32: 0 off, else GATE_OPEN */
/* What the mcount gate holds while profiling runs: nonzero, and a record's size, so that
 * an ARM stub that adds it to pc lands past an off path of that length and has the record
 * size in a register for its lookup (hal/arm/include/cyg/hal/arm_gnu_mcount_nc.h). */
#define PROFILE_MCOUNT_GATE_OPEN  PROFILE_ARC_BYTES

/* Fibonacci hashing: 2^32 divided by the golden ratio, odd. */
#define PROFILE_ARC_HASH_MUL  0x9E3779B1

#ifndef __ASSEMBLER__

#include <stdint.h>
/* The architecture's definitions of its hooks, checked against the declarations below. */
#include <cyg/hal/profile_arch.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Required of a board ------------------------------------------------------------- */

/**
 * Start the profile timer: an interrupt every interval_us microseconds (as near as the
 * hardware allows), at the most urgent priority, whose handler calls
 * __profile_hit(interrupted_pc). Called with interrupts masked (hal_profile_irq_save),
 * inside profile_on's section: it must not wait for an interrupt.
 * @return the interval actually used in microseconds (> 0)
 * @retval -EINVAL (or another negative errno) the timer cannot run at such an interval
 */
int hal_enable_profile_timer(int interval_us);

/** Stop the profile timer: no sample starts after it returns. */
void hal_disable_profile_timer(void);

/* ---- Required of an architecture (<cyg/hal/profile_arch.h>) -------------------------- */

/*
 * typedef ... hal_profile_irq_state: what hal_profile_irq_save() returns.
 *
 * Mask every interrupt that may run -pg code (the profile timer's too: __profile_hit
 * masks as well) and return the previous state.
 */
static inline hal_profile_irq_state hal_profile_irq_save(void);

/* Give back the mask state hal_profile_irq_save() returned. A sample held back meanwhile
 * should be taken before the next user instruction (an ISB on ARM), so that it counts as
 * profiler overhead. */
static inline void hal_profile_irq_restore(hal_profile_irq_state state);

/* Nonzero in an interrupt or exception handler (profile_on and profile_off refuse to run
 * there), 0 in thread mode. */
static inline int hal_profile_in_interrupt(void);

/* HAL_PROFILE_PC(x): the code address (uintptr_t) that a return address or PC value x
 * denotes: x with the Thumb bit cleared on ARM, x itself elsewhere. */
#ifndef HAL_PROFILE_PC
#error "<cyg/hal/profile_arch.h> must define HAL_PROFILE_PC(x): the code address (uintptr_t) a return address or PC x denotes"
#endif

/* ---- Optional, with their defaults --------------------------------------------------- */

/* HAL_PROFILE_STACK_LEVEL(): the exception level the code runs at, a uint32_t, 0 in
 * thread mode; the stack-profiling mode gives each level's first frame a root of its own,
 * so a HAL that can tell nested handlers apart (the active exception, a nesting count)
 * says so. Default: every handler is level 1. */
#ifndef HAL_PROFILE_STACK_LEVEL
#define HAL_PROFILE_STACK_LEVEL() ((uint32_t)(hal_profile_in_interrupt() != 0))
#endif

/* HAL_PROFILE_FROM_EXCEPTION(pc): nonzero if pc, mcount's caller, is no call site but the
 * mark of an interrupt entry (Cortex-M's EXC_RETURN in lr: a handler the hardware entered,
 * or one it tail-called); such a call is recorded with that mark as its from_pc
 * (doc/format.md), not counted as outside the range. Default: none (a HAL whose handlers
 * are called by code, an assembly entry). */
#ifndef HAL_PROFILE_FROM_EXCEPTION
#define HAL_PROFILE_FROM_EXCEPTION(pc) 0
#endif

#ifndef __cplusplus
/* The macros' types, checked as the functions' are (_Generic evaluates nothing). */
_Static_assert(_Generic(HAL_PROFILE_PC((uintptr_t)0), uintptr_t: 1, default: 0),
               "HAL_PROFILE_PC(x) must give a uintptr_t");
_Static_assert(_Generic(HAL_PROFILE_STACK_LEVEL(), uint32_t: 1, default: 0),
               "HAL_PROFILE_STACK_LEVEL() must give a uint32_t");
#endif

/* ---- Given by the package to the HAL -------------------------------------------------- */

/** Record a timer sample at pc. Called from the profile timer's interrupt handler. */
void __profile_hit(uintptr_t pc);

/**
 * Record one traversal of the arc caller_pc -> callee_pc. Called by the HAL's mcount stub
 * with the return address into the caller (the call site) and the return address into
 * the instrumented function (near its entry). May be called from any context.
 */
void __profile_mcount(uintptr_t caller_pc, uintptr_t callee_pc);

#ifdef __cplusplus
}
#endif
#endif /* !__ASSEMBLER__ */
#endif
