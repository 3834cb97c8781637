/*
 * The part of the profiling HAL contract (<cyg/profile/hal.h>) that is the same on every
 * Cortex-M (ARMv6-M, ARMv7-M, ARMv8-M): included by each Cortex-M architecture's
 * <cyg/hal/profile_arch.h>, which adds what differs (the assembly templates).
 */
#ifndef CYGONCE_HAL_CORTEXM_PROFILE_H
#define CYGONCE_HAL_CORTEXM_PROFILE_H

#include <stdint.h>

typedef uint32_t hal_profile_irq_state;

/*
 * PRIMASK (not BASEPRI, which ARMv6-M does not even have): every configurable priority is
 * masked, so no interrupt handler compiled with -pg can run __profile_mcount while the
 * table is being changed. (NMI and HardFault cannot be masked; their handlers must not be
 * built with -pg.)
 */
static inline hal_profile_irq_state hal_profile_irq_save(void)
{
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
    return primask;
}

/* The ISB: a sample held back by the section is taken before the instruction after it, still
 * the package's, so it counts as profiler overhead and not as the next user instruction (the
 * architecture takes a pending interrupt after an unmasking MSR only by the next context
 * synchronization; QEMU at once). */
static inline void hal_profile_irq_restore(hal_profile_irq_state primask)
{
    __asm__ volatile("msr primask, %0\n\tisb" : : "r"(primask) : "memory");
}

/* IPSR holds the active exception number: 0 in thread mode. */
static inline int hal_profile_in_interrupt(void)
{
    uint32_t ipsr;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    return ipsr != 0;
}

/* Stack-profiling mode: the active exception, 0 in thread mode (nested handlers are
 * levels of their own). */
static inline uint32_t hal_cortexm_ipsr(void)
{
    uint32_t ipsr;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    return ipsr & 0x1FFu;
}
#define HAL_PROFILE_STACK_LEVEL() hal_cortexm_ipsr()

/* Thumb code addresses carry bit 0 in return addresses; gprof wants the plain address. */
#define HAL_PROFILE_PC(x) ((uintptr_t)(x) & ~(uintptr_t)1)

/* mcount's caller pc is an EXC_RETURN value (0xFFFFFFxx): the function was entered by the
 * hardware as an exception handler, or tail-called by one (its lr still that value). */
#define HAL_PROFILE_FROM_EXCEPTION(pc) ((uintptr_t)(pc) >= 0xFFFFFF00u)

#endif
