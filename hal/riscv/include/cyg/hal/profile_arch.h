/*
 * RISC-V side of the profiling HAL contract (see <cyg/profile/hal.h>), machine mode, RV32
 * and RV64.
 *
 * Masking: mstatus.MIE, the one switch for every machine-level interrupt. A supervisor-mode
 * port masks sstatus.SIE (bit 1) instead, with the same two instructions on sstatus.
 */
#ifndef CYGONCE_HAL_PROFILE_ARCH_H
#define CYGONCE_HAL_PROFILE_ARCH_H

#include <stdint.h>
#include <cyg/hal/riscv.h>

typedef unsigned long hal_profile_irq_state;

/* Clear MIE, returning what it was (0 or RISCV_MSTATUS_MIE). */
static inline hal_profile_irq_state hal_profile_irq_save(void)
{
    unsigned long mstatus;
    __asm__ volatile("csrrci %0, mstatus, %1" : "=r"(mstatus) : "i"(RISCV_MSTATUS_MIE) : "memory");
    return mstatus & RISCV_MSTATUS_MIE;
}

/* Set MIE again if it was set (csrs with 0 changes nothing). */
static inline void hal_profile_irq_restore(hal_profile_irq_state mie)
{
    __asm__ volatile("csrs mstatus, %0" : : "r"(mie) : "memory");
}

/*
 * RISC-V has no "handler mode": a trap only clears MIE, and a handler that lets others nest
 * sets it again. The HAL's dispatch counts the handlers it is inside (hal_riscv_irq_depth).
 */
static inline int hal_profile_in_interrupt(void)
{
    return hal_riscv_irq_depth != 0;
}

/* Stack-profiling mode: the interrupt nesting depth (0: thread), so that a nested handler
 * is a level, and a root, of its own. */
#define HAL_PROFILE_STACK_LEVEL() ((uint32_t)hal_riscv_irq_depth)

/* Return addresses and PCs are plain code addresses. */
#define HAL_PROFILE_PC(x) ((uintptr_t)(x))


#endif
