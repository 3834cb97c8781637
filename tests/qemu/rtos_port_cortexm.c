/*
 * The preemptive scheduler firmware's Cortex-M port (tests/qemu/rtos_kernel.c), with the
 * mechanisms of FreeRTOS's GCC/ARM_CM3 port: the first task started by an SVC
 * (vPortSVCHandler), a naked PendSV that saves r4-r11 on the task's stack and calls the
 * scheduler (xPortPendSVHandler), the SysTick tick (xPortSysTickHandler), critical sections
 * by BASEPRI. On ARMv6-M as its GCC/ARM_CM0 port: no BASEPRI (critical sections by
 * PRIMASK, which masks the profile timer too), r8-r11 moved through r4-r7. The naked
 * handlers (this file) are built without the stack mode's hooks (tests/tests.mk).
 */
#include <cyg/hal/board.h>
#include <stdint.h>
#include "rtos_port.h"

#define SCB_ICSR   (*(volatile uint32_t *)0xE000ED04u)
#define SCB_SHPR3  (*(volatile uint32_t *)0xE000ED20u)
#define SYST_CSR   (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR   (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR   (*(volatile uint32_t *)0xE000E018u)
#define PENDSVSET  (1u << 28)
/* The tick's period in core clock cycles (QEMU's clock: 25 MHz on mps2-an385). */
#define TICK_CYCLES (25u * TICK_US)
/* BASEPRI of a critical section (FreeRTOS's configMAX_SYSCALL_INTERRUPT_PRIORITY): masks
 * priorities 5..7 (SysTick, PendSV at 7), not the profile timer (0) nor the fast timer. */
#define SYSCALL_PRIO (5u << 5)
#define KERNEL_PRIO  0xFFu
#if defined(__ARM_ARCH_6M__)
#define V6M 1       /* no BASEPRI: PRIMASK */
#else
#define V6M 0
#endif

/* ARMv6-M: the task of the TCB at r1 back: r4-r11 from its stack (r8-r11 through r4-r7),
 * its stack pointer into the PSP (what an exception return pops stays there). */
#define V6M_RESTORE                                                                          \
    "ldr    r0, [r1]\n\t"                                                                    \
    "adds   r0, #16\n\t"                                                                     \
    "ldmia  r0!, {r4-r7}\n\t"                                                                \
    "mov    r8, r4\n\t"                                                                      \
    "mov    r9, r5\n\t"                                                                      \
    "mov    r10, r6\n\t"                                                                     \
    "mov    r11, r7\n\t"                                                                     \
    "msr    psp, r0\n\t"                                                                     \
    "subs   r0, #32\n\t"                                                                     \
    "ldmia  r0!, {r4-r7}\n\t"

/* The markers: rtos_mark_N for the task of index N (a bx lr each, no hooks). */
__asm__(".text\n.thumb\n"
        ".global rtos_mark_0\n.thumb_func\nrtos_mark_0: bx lr\n"
        ".global rtos_mark_1\n.thumb_func\nrtos_mark_1: bx lr\n"
        ".global rtos_mark_2\n.thumb_func\nrtos_mark_2: bx lr\n"
        ".global rtos_mark_3\n.thumb_func\nrtos_mark_3: bx lr\n"
        ".global rtos_mark_4\n.thumb_func\nrtos_mark_4: bx lr\n");

void rtos_port_mask(int masked)
{
    if (V6M && masked)
        __asm__ volatile("cpsid i" : : : "memory");
    else if (V6M)
        __asm__ volatile("cpsie i" : : : "memory");
    else
        __asm__ volatile("msr basepri, %0\n\tdsb\n\tisb"
                         : : "r"(masked ? SYSCALL_PRIO : 0u) : "memory");
}

void rtos_port_yield(void)
{
    SCB_ICSR = PENDSVSET;       /* taken once no critical section masks it */
    __asm__ volatile("dsb\n\tisb" : : : "memory");
}

uint32_t *rtos_port_stack_init(uint32_t *top, rtos_task_fn fn, void (*exit_fn)(void))
{
    /* As pxPortInitialiseStack: what an exception return pops (r0-r3, r12, lr, pc, xPSR),
     * below it r4-r11. */
    uint32_t *sp = top - 16;
    for (int i = 0; i < 16; i++)
        sp[i] = 0;
    sp[8 + 5] = (uint32_t)(uintptr_t)exit_fn;
    sp[8 + 6] = (uint32_t)(uintptr_t)fn & ~1u;
    sp[8 + 7] = 1u << 24;
    return sp;
}

/* SysTick (xPortSysTickHandler): the tick, and a switch asked for (a task woken, or the
 * next of the same priority). */
void SysTick_Handler(void)
{
    rtos_port_mask(1);
    rtos_tick();
    SCB_ICSR = PENDSVSET;
    rtos_port_mask(0);
}

/* PendSV (xPortPendSVHandler): r4-r11 onto the task's stack, the scheduler, the next task's
 * r4-r11, and the exception return onto its stack. */
__attribute__((naked)) void PendSV_Handler(void)
{
#if V6M
    __asm__ volatile(
        ".syntax unified\n\t"
        "mrs    r0, psp\n\t"
        "ldr    r3, =rtos_current\n\t"
        "ldr    r2, [r3]\n\t"
        "subs   r0, #32\n\t"
        "str    r0, [r2]\n\t"
        "stmia  r0!, {r4-r7}\n\t"
        "mov    r4, r8\n\t"
        "mov    r5, r9\n\t"
        "mov    r6, r10\n\t"
        "mov    r7, r11\n\t"
        "stmia  r0!, {r4-r7}\n\t"
        "push   {r3, r14}\n\t"
        "cpsid  i\n\t"
        "bl     rtos_switch_context\n\t"
        "cpsie  i\n\t"
        "pop    {r2, r3}\n\t"
        "ldr    r1, [r2]\n\t"
        V6M_RESTORE
        "bx     r3\n\t"
        ".ltorg\n\t");
#else
    __asm__ volatile(
        "mrs    r0, psp\n\t"
        "isb\n\t"
        "ldr    r3, =rtos_current\n\t"
        "ldr    r2, [r3]\n\t"
        "stmdb  r0!, {r4-r11}\n\t"
        "str    r0, [r2]\n\t"
        "stmdb  sp!, {r3, r14}\n\t"
        "mov    r0, %0\n\t"
        "msr    basepri, r0\n\t"
        "dsb\n\t"
        "isb\n\t"
        "bl     rtos_switch_context\n\t"
        "mov    r0, #0\n\t"
        "msr    basepri, r0\n\t"
        "ldmia  sp!, {r3, r14}\n\t"
        "ldr    r1, [r3]\n\t"
        "ldr    r0, [r1]\n\t"
        "ldmia  r0!, {r4-r11}\n\t"
        "msr    psp, r0\n\t"
        "isb\n\t"
        "bx     r14\n\t"
        ".ltorg\n\t" : : "i"(SYSCALL_PRIO));
#endif
}

/* SVC (vPortSVCHandler): the first task's registers, and the exception return into it on
 * the process stack. */
__attribute__((naked)) void SVC_Handler(void)
{
#if V6M
    __asm__ volatile(
        ".syntax unified\n\t"
        "ldr    r3, =rtos_current\n\t"
        "ldr    r1, [r3]\n\t"
        V6M_RESTORE
        "ldr    r0, =0xFFFFFFFD\n\t"
        "bx     r0\n\t"
        ".ltorg\n\t");
#else
    __asm__ volatile(
        "ldr    r3, =rtos_current\n\t"
        "ldr    r1, [r3]\n\t"
        "ldr    r0, [r1]\n\t"
        "ldmia  r0!, {r4-r11}\n\t"
        "msr    psp, r0\n\t"
        "isb\n\t"
        "mov    r0, #0\n\t"
        "msr    basepri, r0\n\t"
        "orr    r14, #0xd\n\t"
        "bx     r14\n\t"
        ".ltorg\n\t");
#endif
}

void rtos_port_start(void)
{
    SCB_SHPR3 |= KERNEL_PRIO << 16 | KERNEL_PRIO << 24;     /* PendSV, SysTick: last */
    SYST_RVR = TICK_CYCLES - 1;
    SYST_CVR = 0;
    SYST_CSR = 7;               /* the core clock, interrupt, on */
    __asm__ volatile("cpsie  i\n\t"
                     "dsb\n\t"
                     "isb\n\t"
                     "svc    0\n\t" : : : "memory");
    for (;;)
        ;
}

void rtos_port_stop_tick(void)
{
    SYST_CSR = 0;
}
