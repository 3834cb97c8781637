/*
 * Host "architecture" for the unit tests: the portable core runs natively, single
 * threaded. The save/restore pair counts nesting so tests can assert that every
 * critical section is balanced.
 */
#ifndef CYGONCE_HAL_PROFILE_ARCH_H
#define CYGONCE_HAL_PROFILE_ARCH_H

#include <stdint.h>

typedef int hal_profile_irq_state;

/* Owned by the unit tests' fake HAL (tests/unit/fake_hal.c). */
extern int hal_host_irq_depth;

static inline hal_profile_irq_state hal_profile_irq_save(void)
{
    return hal_host_irq_depth++;
}

static inline void hal_profile_irq_restore(hal_profile_irq_state s)
{
    hal_host_irq_depth = s;
}

#define HAL_PROFILE_PC(x) ((uintptr_t)(x))

#endif
