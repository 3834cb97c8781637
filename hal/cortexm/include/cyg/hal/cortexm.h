/*
 * The Cortex-M system blocks every Cortex-M board shares (ARMv6-M, ARMv7-M, ARMv8-M): the
 * System Control Block and the NVIC. For the board code and the shared startup; firmware
 * uses the board API (<cyg/hal/board_api.h>).
 */
#ifndef CYGONCE_HAL_CORTEXM_H
#define CYGONCE_HAL_CORTEXM_H

#include <stdint.h>

/* HAL_CORTEXM_EXC_FRAME_TO_R0 and HAL_CORTEXM_TAIL_CALL(sym): what differs between
 * Thumb-1 (v6-M, v8-M Baseline) and Thumb-2 (v7-M, v8-M Mainline). */
#include <cyg/hal/profile_arch.h>

#define CORTEXM_REG(addr) (*(volatile uint32_t *)(addr))

/* System Control Block. */
#define SCB_VTOR CORTEXM_REG(0xE000ED08u)
#define SCB_CCR CORTEXM_REG(0xE000ED14u)
#define SCB_CCR_STKALIGN (1u << 9) /* RES1 on v6-M and v8-M */
#define SCB_CPACR CORTEXM_REG(0xE000ED88u)
#define SCB_CPACR_CP10_CP11_FULL (0xFu << 20)

/* NVIC. */
#define NVIC_ISER(n) CORTEXM_REG(0xE000E100u + 4u * (n))
#define NVIC_ICER(n) CORTEXM_REG(0xE000E180u + 4u * (n))
#define NVIC_ISPR(n) CORTEXM_REG(0xE000E200u + 4u * (n))
#define NVIC_ICPR(n) CORTEXM_REG(0xE000E280u + 4u * (n))
/* Priorities: one byte per line, but ARMv6-M allows only word accesses. */
#define NVIC_IPR(n) CORTEXM_REG(0xE000E400u + 4u * (n))

/* Make an NVIC or peripheral write take effect before the next instruction. */
static inline void cortexm_barrier(void)
{
    __asm__ volatile("dsb\n\tisb" : : : "memory");
}

/* Stringify a board constant for an assembly template (write it without a U suffix). */
#define CORTEXM_STR_(x) #x
#define CORTEXM_STR(x) CORTEXM_STR_(x)

/*
 * The profile timer's interrupt handler on a Cortex-M board: find the exception frame on the
 * stack that was in use (the arch HAL's HAL_CORTEXM_EXC_FRAME_TO_R0, in
 * <cyg/hal/profile_arch.h>), take the stacked PC (frame + 24, in the basic and in the
 * extended (FP) frame alike) and tail-call the board's sample function with it, lr still
 * holding EXC_RETURN. The sample function, C, acknowledges the timer, gives it its next
 * (dithered) period and calls __profile_hit(pc) last, so that its return is the exception
 * return. Written in assembly so that it never depends on compiler flags (-pg, frame
 * pointers) and stays minimal; the stacked PC is a plain halfword address (no Thumb bit), as
 * __profile_hit wants.
 *   CORTEXM_PROFILE_TIMER_HANDLER(TIMER0_IRQHandler, cmsdk_profile_sample)
 */
#define CORTEXM_PROFILE_TIMER_HANDLER(name, sample)                                           \
    void sample(uintptr_t pc);                                                                \
    void __attribute__((naked)) name(void)                                                    \
    {                                                                                         \
        __asm__ volatile(".syntax unified\n\t"                                                \
                         HAL_CORTEXM_EXC_FRAME_TO_R0                                          \
                         "ldr   r0, [r0, #24]\n\t" /* stacked PC */                           \
                         HAL_CORTEXM_TAIL_CALL(#sample));                                     \
    }

#endif
