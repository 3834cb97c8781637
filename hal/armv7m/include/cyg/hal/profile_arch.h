/* ARMv7-M (and ARMv7E-M, ARMv8-M Mainline) side of the profiling HAL contract (see
 * <cyg/profile/hal.h>). */
#ifndef CYGONCE_HAL_PROFILE_ARCH_H
#define CYGONCE_HAL_PROFILE_ARCH_H

/* The flags must name a core of this architecture (impossible combinations fail here). */
#if !defined(__ARM_ARCH_PROFILE) || __ARM_ARCH_PROFILE != 'M' || __ARM_ARCH_ISA_THUMB < 2
#error "the armv7m HAL is for Thumb-2 Cortex-M cores: build with -mcpu=cortex-m3 (m4, m7, m33, ...) -mthumb; Cortex-M0/M0+/M23 use the armv6m HAL"
#endif

#include <stdint.h>

/* Masking (PRIMASK), IPSR, the Thumb bit: what every Cortex-M shares. */
#include <cyg/hal/cortexm_profile.h>

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

/* UMULL: the dither's offset in one instruction (<cyg/profile/dither.h>). */
#define HAL_PROFILE_MUL_HIGH(a, b) ((uint32_t)(((uint64_t)(uint32_t)(a) * (uint32_t)(b)) >> 32))


#endif
