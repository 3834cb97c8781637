/* ARMv7-M side of the profiling HAL contract (see <cyg/profile/hal.h>). */
#ifndef CYGONCE_HAL_PROFILE_ARCH_H
#define CYGONCE_HAL_PROFILE_ARCH_H

#include <stdint.h>

typedef uint32_t hal_profile_irq_state;

/*
 * PRIMASK, not BASEPRI: every configurable priority is masked, so no interrupt handler
 * compiled with -pg can run __profile_mcount while the table is being changed.
 * (NMI and HardFault cannot be masked; their handlers must not be built with -pg.)
 */
static inline hal_profile_irq_state hal_profile_irq_save(void)
{
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
    return primask;
}

static inline void hal_profile_irq_restore(hal_profile_irq_state primask)
{
    __asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
}

/* IPSR holds the active exception number: 0 in thread mode. */
static inline int hal_profile_in_interrupt(void)
{
    uint32_t ipsr;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    return ipsr != 0;
}

/* Thumb code addresses carry bit 0 in return addresses; gprof wants the plain address. */
#define HAL_PROFILE_PC(x) ((uintptr_t)(x) & ~(uintptr_t)1)

/*
 * For the Cortex-M code every M board shares (hal/cortexm), in assembly templates:
 * HAL_CORTEXM_EXC_FRAME_TO_R0: r0 = the exception frame, on the stack that was in use when
 *   the exception came (EXC_RETURN in lr, bit 2: 0 = MSP, 1 = PSP, e.g. an RTOS thread).
 * HAL_CORTEXM_TAIL_CALL(sym): branch to sym (Thumb-2's B reaches +-16 MiB).
 */
#define HAL_CORTEXM_EXC_FRAME_TO_R0                                                          \
    "tst   lr, #4\n\t"                                                                        \
    "ite   eq\n\t"                                                                            \
    "mrseq r0, msp\n\t"                                                                       \
    "mrsne r0, psp\n\t"
#define HAL_CORTEXM_TAIL_CALL(sym) "b     " sym "\n\t"

#endif
