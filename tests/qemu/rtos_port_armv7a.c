/*
 * The preemptive scheduler firmware's Cortex-A9 port (tests/qemu/rtos_kernel.c), with the
 * mechanisms of FreeRTOS's GCC/ARM_CA9 port: tasks run in SYS mode; the tick is the A9
 * private timer's interrupt, taken by the HAL's IRQ entry like any other and asking for a
 * switch, which the entry makes on its way out once no handler is in progress
 * (hal_armv7a_switch_request, <cyg/hal/armv7a.h>: FreeRTOS's ulPortYieldRequired); a task
 * yields with SVC (FreeRTOS_SWI_Handler), critical sections included; the same switch
 * serves both: the task's registers, VFP state and critical nesting onto its own stack
 * (SRSDB: its return address and CPSR), the scheduler, the next task's back (RFE).
 * Critical sections by the GIC's priority mask (ICCPMR), which leaves the profile timer
 * and the fast timer unmasked, the nesting saved per task as FreeRTOS does. The
 * switch is assembly; this file is built without the stack mode's hooks (tests/tests.mk).
 */
#include <cyg/hal/armv7a.h>
#include <cyg/hal/board.h>
#include <stdint.h>
#include "rtos_port.h"

/* The A9 private timer (the tick): PERIPHCLK, 100 MHz as QEMU models it. */
#define PTIMER_BASE   (BOARD_A9_PERIPH_BASE + 0x600)
#define PTIMER_LOAD   ARMV7A_REG(PTIMER_BASE + 0x0)
#define PTIMER_CTRL   ARMV7A_REG(PTIMER_BASE + 0x8)
#define PTIMER_ISR    ARMV7A_REG(PTIMER_BASE + 0xC)
#define PTIMER_IRQ    29
#define PTIMER_EN_AUTO_IRQ 7u
#define TICK_CYCLES   (100u * TICK_US)
#define GICC_PMR_ADDR (BOARD_GICC_BASE + GICC_PMR)
#define GICC_PMR_REG  ARMV7A_REG(GICC_PMR_ADDR)
/* A critical section's mask (FreeRTOS's configMAX_API_CALL_INTERRUPT_PRIORITY): board
 * priorities 5 and less urgent (GIC levels 6..31: the tick at 30), not the fast timer (3)
 * nor the profile timer (level 0). The GIC signals a level below the mask only. */
#define SYSCALL_PMR   ((5 + 1) << (8 - BOARD_GIC_PRIO_BITS))
#define UNMASKED_PMR  0xFF
#define CPSR_SYS      0x1F
#define CPSR_THUMB    0x20
/* The frame the switch keeps on a task's stack, from its stack pointer up: the critical
 * nesting, d0-d15, FPSCR, r0-r12, lr, then what SRSDB stores: the pc and the CPSR. */
#define FRAME_WORDS   50

/* The port's state, owned here: a switch asked for by the tick (the IRQ entry takes it). */
static volatile uint32_t switch_requested;

/* The markers: rtos_mark_N for the task of index N (a bx lr each, no hooks). */
__asm__(".text\n.arm\n"
        ".global rtos_mark_0\n.type rtos_mark_0, %function\nrtos_mark_0: bx lr\n"
        ".global rtos_mark_1\n.type rtos_mark_1, %function\nrtos_mark_1: bx lr\n"
        ".global rtos_mark_2\n.type rtos_mark_2, %function\nrtos_mark_2: bx lr\n"
        ".global rtos_mark_3\n.type rtos_mark_3, %function\nrtos_mark_3: bx lr\n"
        ".global rtos_mark_4\n.type rtos_mark_4, %function\nrtos_mark_4: bx lr\n");

/* The switch (FreeRTOS_SWI_Handler; also the IRQ entry's on its way out): entered in SVC
 * or IRQ mode with IRQs masked, lr the task's return address, SPSR its CPSR, every other
 * register its own. The scheduler runs on the old task's stack in SYS mode, IRQs still
 * masked, counted as a handler (the stack mode's frames go on the handlers' stack).
 * rtos_switch_restore enters rtos_current's task; rtos_switch_return is the return into
 * it (the test's trace: a sample due in the switch is taken there, for the new task).
 * Assembly, as FreeRTOS's portASM.S: neither -pg's mcount call (whose arc would come from
 * the interrupted instruction) nor the stack mode's hooks belong here. */
#define STR_(x) #x
#define STR(x) STR_(x)
__asm__(".text\n.arm\n"
        ".global SVC_Handler\n"
        ".type SVC_Handler, %function\n"
        "SVC_Handler:\n\t"
        "srsdb  sp!, #" STR(CPSR_SYS) "\n\t"
        "cps    #" STR(CPSR_SYS) "\n\t"
        "push   {r0-r12, r14}\n\t"
        "vmrs   r1, fpscr\n\t"
        "push   {r1}\n\t"
        "vpush  {d0-d15}\n\t"
        "ldr    r2, =rtos_critical_nesting\n\t"
        "ldr    r1, [r2]\n\t"
        "push   {r1}\n\t"
        "ldr    r0, =rtos_current\n\t"
        "ldr    r1, [r0]\n\t"
        "str    sp, [r1]\n\t"
        "ldr    r4, =hal_armv7a_irq_depth\n\t"
        "ldr    r5, [r4]\n\t"
        "add    r5, r5, #1\n\t"
        "str    r5, [r4]\n\t"
        "bic    sp, sp, #7\n\t"             /* AAPCS at the call */
        "bl     rtos_switch_context\n\t"
        "ldr    r5, [r4]\n\t"
        "sub    r5, r5, #1\n\t"
        "str    r5, [r4]\n"
        ".global rtos_switch_restore\n"
        ".type rtos_switch_restore, %function\n"
        "rtos_switch_restore:\n\t"
        "ldr    r0, =rtos_current\n\t"
        "ldr    r1, [r0]\n\t"
        "ldr    sp, [r1]\n\t"
        "pop    {r1}\n\t"
        "ldr    r2, =rtos_critical_nesting\n\t"
        "str    r1, [r2]\n\t"
        "cmp    r1, #0\n\t"                 /* the mask of its critical section, if in one */
        "moveq  r3, #" STR(UNMASKED_PMR) "\n\t"
        "movne  r3, #" STR(SYSCALL_PMR) "\n\t"
        "ldr    r2, =" STR(GICC_PMR_ADDR) "\n\t"
        "str    r3, [r2]\n\t"
        "vpop   {d0-d15}\n\t"
        "pop    {r1}\n\t"
        "vmsr   fpscr, r1\n\t"
        "pop    {r0-r12, r14}\n"
        ".global rtos_switch_return\n"
        "rtos_switch_return:\n\t"
        "rfeia  sp!\n\t"
        ".ltorg\n");
void SVC_Handler(void);
void rtos_switch_restore(void) __attribute__((noreturn));

void rtos_port_mask(int masked)
{
    GICC_PMR_REG = masked ? SYSCALL_PMR : UNMASKED_PMR;
    armv7a_barrier();           /* (masked before the next instruction) */
}

void rtos_port_yield(void)
{
    __asm__ volatile("svc    0" : : : "memory");
}

uint32_t *rtos_port_stack_init(uint32_t *top, rtos_task_fn fn, void (*exit_fn)(void))
{
    uint32_t *sp = top - FRAME_WORDS;
    for (int i = 0; i < FRAME_WORDS; i++)
        sp[i] = 0;
    sp[FRAME_WORDS - 3] = (uint32_t)(uintptr_t)exit_fn;            /* lr */
    sp[FRAME_WORDS - 2] = (uint32_t)(uintptr_t)fn & ~1u;           /* pc */
    sp[FRAME_WORDS - 1] = CPSR_SYS | ((uintptr_t)fn & 1u ? CPSR_THUMB : 0u);
    return sp;
}

/* The tick (FreeRTOS_Tick_Handler): the kernel's tick in a critical section, and a switch
 * asked for (a task woken, or the next of the same priority), made on the IRQ exit. */
void PTIMER_IRQHandler(void)
{
    PTIMER_ISR = 1;
    rtos_port_mask(1);
    rtos_tick();
    switch_requested = 1;
    rtos_port_mask(0);
}

void rtos_port_start(void)
{
    __asm__ volatile("cpsid i" : : : "memory");     /* until the first task's CPSR */
    hal_armv7a_switch = SVC_Handler;
    hal_armv7a_switch_request = &switch_requested;
    PTIMER_CTRL = 0;
    PTIMER_ISR = 1;
    PTIMER_LOAD = TICK_CYCLES - 1u;
    board_irq_enable(PTIMER_IRQ, BOARD_IRQ_PRIO_MAX);
    PTIMER_CTRL = PTIMER_EN_AUTO_IRQ;
    rtos_switch_restore();
}

void rtos_port_stop_tick(void)
{
    PTIMER_CTRL = 0;
    board_irq_disable(PTIMER_IRQ);
    PTIMER_ISR = 1;
}
