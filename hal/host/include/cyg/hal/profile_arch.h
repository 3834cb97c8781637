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
/* Set by a unit test (tests/unit/fake_hal.c defines it, NULL by default): called each time
 * interrupts become enabled again, where on a target an interrupt, a halting debugger or
 * another thread could look at the profiling state. */
extern void (*hal_host_irq_enabled_hook)(void);

static inline hal_profile_irq_state hal_profile_irq_save(void)
{
    return hal_host_irq_depth++;
}

static inline void hal_profile_irq_restore(hal_profile_irq_state s)
{
    hal_host_irq_depth = s;
    if (s == 0 && hal_host_irq_enabled_hook)
        hal_host_irq_enabled_hook();
}

/* Owned by the unit tests' fake HAL: nonzero while a test plays an interrupt handler. */
extern int hal_host_in_interrupt;

static inline int hal_profile_in_interrupt(void)
{
    return hal_host_in_interrupt;
}

#define HAL_PROFILE_PC(x) ((uintptr_t)(x))

#endif
