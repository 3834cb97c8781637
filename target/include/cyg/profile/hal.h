/*
 * The whole contract between the portable package and a HAL.
 *
 * A board (or variant HAL) provides the profile timer:
 *   hal_enable_profile_timer(), hal_disable_profile_timer(); its interrupt handler
 *   calls __profile_hit() with the interrupted PC.
 * An architecture HAL provides the compiler's mcount hook (e.g. __gnu_mcount_nc), which
 *   calls __profile_mcount(), and <cyg/hal/profile_arch.h>, which defines:
 *     typedef ... hal_profile_irq_state;
 *     static inline hal_profile_irq_state hal_profile_irq_save(void);   mask every interrupt
 *                                                                         that may run -pg code
 *     static inline void hal_profile_irq_restore(hal_profile_irq_state);
 *     static inline int hal_profile_in_interrupt(void);   nonzero in an interrupt or
 *                                                         exception handler
 *     HAL_PROFILE_PC(x)   the code address that a return address or PC value x denotes
 *                         (strips the Thumb bit on ARM)
 */
#ifndef CYGONCE_PROFILE_HAL_H
#define CYGONCE_PROFILE_HAL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Start the profile timer: an interrupt every interval_us microseconds (as near as the
 * hardware allows), whose handler calls __profile_hit(interrupted_pc). Called with
 * interrupts masked (hal_profile_irq_save): it must not wait for an interrupt.
 * @return the interval actually used in microseconds (> 0), or a negative errno.
 */
int hal_enable_profile_timer(int interval_us);

/** Stop the profile timer. */
void hal_disable_profile_timer(void);

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
#endif
