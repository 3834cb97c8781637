/* ARMv6-M (and ARMv8-M Baseline) side of the profiling HAL contract (see <cyg/profile/hal.h>). */
#ifndef CYGONCE_HAL_PROFILE_ARCH_H
#define CYGONCE_HAL_PROFILE_ARCH_H

/* The flags must name a core of this architecture (impossible combinations fail here). */
#if !defined(__ARM_ARCH_PROFILE) || __ARM_ARCH_PROFILE != 'M'
#error "the armv6m HAL is for Cortex-M cores: build with -mcpu=cortex-m0 (m0plus, m1, m23, ...) -mthumb"
#endif

#include <stdint.h>

/* Masking (PRIMASK), IPSR, the Thumb bit: what every Cortex-M shares. */
#include <cyg/hal/cortexm_profile.h>

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
