/* ARMv6-M (and ARMv8-M Baseline) side of the profiling HAL contract (see <cyg/profile/hal.h>). */
#ifndef CYGONCE_HAL_PROFILE_ARCH_H
#define CYGONCE_HAL_PROFILE_ARCH_H

#include <stdint.h>

typedef uint32_t hal_profile_irq_state;

/*
 * PRIMASK: the only interrupt mask ARMv6-M has (no BASEPRI). Every configurable priority is
 * masked, so no interrupt handler compiled with -pg can run __profile_mcount while the table
 * is being changed. (NMI and HardFault cannot be masked; their handlers must not be built
 * with -pg.)
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
 * For the Cortex-M code every M board shares (hal/cortexm), in assembly templates, in
 * Thumb-1 (no IT blocks; B reaches only +-2 KiB):
 * HAL_CORTEXM_EXC_FRAME_TO_R0: r0 = the exception frame, on the stack that was in use when
 *   the exception came (EXC_RETURN in lr, bit 2: 0 = MSP, 1 = PSP, e.g. an RTOS thread);
 *   bit 2 is shifted into the N flag. Clobbers r1 and the flags.
 * HAL_CORTEXM_TAIL_CALL(sym): jump to sym through r1, lr untouched, with its literal pool.
 * GCC writes Thumb-1 inline assembly in the old divided syntax; both switch to unified
 * syntax (GCC switches back itself after the asm statement).
 */
#define HAL_CORTEXM_EXC_FRAME_TO_R0                                                          \
    ".syntax unified\n\t"                                                                     \
    "mrs   r0, msp\n\t"                                                                       \
    "mov   r1, lr\n\t"                                                                        \
    "lsls  r1, r1, #29\n\t"                                                                   \
    "bpl   1f\n\t"                                                                            \
    "mrs   r0, psp\n"                                                                         \
    "1:\n\t"
#define HAL_CORTEXM_TAIL_CALL(sym)                                                           \
    ".syntax unified\n\t"                                                                     \
    "ldr   r1, =" sym "\n\t"                                                                  \
    "bx    r1\n\t"                                                                            \
    ".ltorg\n\t"

#endif
