/* ARMv7-A side of the profiling HAL contract (see <cyg/profile/hal.h>). */
#ifndef CYGONCE_HAL_PROFILE_ARCH_H
#define CYGONCE_HAL_PROFILE_ARCH_H

/* The flags must name a core of this architecture (impossible combinations fail here). */
#if !defined(__ARM_ARCH_PROFILE) || __ARM_ARCH_PROFILE != 'A'
#error "the armv7a HAL is for Cortex-A cores: build with -mcpu=cortex-a9 (a5, a7, ...)"
#endif

#include <stdint.h>
#include <cyg/hal/armv7a.h>

/* The CPSR as it was: its I and F bits are what hal_profile_irq_restore() gives back. */
typedef uint32_t hal_profile_irq_state;

/*
 * CPSR.I and CPSR.F: every interrupt is masked, so no handler compiled with -pg can run
 * __profile_mcount while the table is being changed. The profile timer is an IRQ (the most
 * urgent), so this holds a sample back too; it is taken as soon as the section ends. FIQ is
 * masked as well, for firmware that gives an FIQ handler -pg code. (Aborts and undefined
 * instructions cannot be masked; their handlers must not be built with -pg.)
 */
static inline hal_profile_irq_state hal_profile_irq_save(void)
{
    uint32_t cpsr;
    __asm__ volatile("mrs %0, cpsr\n\tcpsid if" : "=r"(cpsr) : : "memory");
    return cpsr;
}

/* MSR to the control field writes I, F and the mode (the same mode: the section does not
 * change it); it cannot change the Thumb bit. As Linux's arch_local_irq_restore. */
static inline void hal_profile_irq_restore(hal_profile_irq_state cpsr)
{
    /* The ISB: a sample held back by the section is taken before the instruction after it,
     * still the package's, so it counts as profiler overhead and not as the next user
     * instruction (an unmasking MSR takes effect by the next context synchronization). */
    __asm__ volatile("msr cpsr_c, %0\n\tisb" : : "r"(cpsr) : "memory");
}

/* main and RTOS threads run in SYS or USR mode; interrupt handlers in SVC mode (the IRQ
 * entry moves there), exception handlers in their own modes. (-pg code must not run in USR
 * mode, e.g. an RTOS's unprivileged threads: there CPS and MSR cannot mask interrupts, and
 * hal_profile_irq_save() would not protect the table.) */
static inline int hal_profile_in_interrupt(void)
{
    uint32_t cpsr;
    __asm__ volatile("mrs %0, cpsr" : "=r"(cpsr));
    uint32_t mode = cpsr & ARMV7A_MODE_MASK;
    return mode != ARMV7A_MODE_SYS && mode != ARMV7A_MODE_USR;
}

/* Stack-profiling mode: the interrupt nesting depth (0: thread), counted by the IRQ entry
 * (vectors.S) around each handler, so that a nested handler is a level, and a root, of
 * its own. */
extern volatile unsigned hal_armv7a_irq_depth;
#define HAL_PROFILE_STACK_LEVEL() ((uint32_t)hal_armv7a_irq_depth)

/* Thumb code addresses carry bit 0 in return addresses; gprof wants the plain address. */
#define HAL_PROFILE_PC(x) ((uintptr_t)(x) & ~(uintptr_t)1)

/* UMULL, in ARM and Thumb-2 alike: the dither's offset in one instruction
 * (<cyg/profile/dither.h>). (The Cortex-A9 has no divide instruction.) */
#define HAL_PROFILE_MUL_HIGH(a, b) ((uint32_t)(((uint64_t)(uint32_t)(a) * (uint32_t)(b)) >> 32))


#endif
