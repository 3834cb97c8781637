/*
 * The preemptive scheduler firmware's RISC-V port (tests/qemu/rtos_kernel.c), with the
 * mechanisms of FreeRTOS's GCC/RISC-V port: a trap vector of its own (mtvec) that saves the
 * task's registers on its stack and runs on an ISR stack; a yield is an ecall, taken in the
 * trap handler, which runs the scheduler; the tick comes from the machine timer, which the
 * HAL shares between it and the profile timer (<cyg/hal/riscv_mtimer.h>), as the FreeRTOS
 * kit's glue does it (rtos/freertos/profile_freertos_riscv.c): hal_mtimer_isr takes the
 * sample, then the tick, and the switch the tick asks for is made after it; the scheduler
 * runs counted as a handler (hal_riscv_irq_depth), and the HAL's dispatch lets nothing nest
 * (the trap handler takes its ISR stack from the top every time). Critical sections turn
 * interrupts off (mstatus.MIE), the profile timer's too; a yield in one is an ecall there
 * and then, as FreeRTOS's queue makes it. RV32 and RV64 (a frame of register-sized slots). This file is built
 * without the stack mode's hooks (tests/tests.mk).
 */
#include <cyg/hal/board.h>
#include <cyg/hal/riscv.h>
#include <cyg/hal/riscv_mtimer.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "rtos_port.h"

#define FRAME_WORDS   32        /* mepc, mstatus, ra, t0-t2, s0-s1, a0-a7, s2-s11, t3-t6 */
#if __riscv_xlen == 64
#define SLOT "8"                /* a frame slot: a register */
#define REG_S "sd "
#define REG_L "ld "
#else
#define SLOT "4"
#define REG_S "sw "
#define REG_L "lw "
#endif
#define MSTATUS_MIE   0x8u
#define MSTATUS_START 0x1880u   /* MPP machine, MPIE: a task starts with interrupts on */
#define ECALL_M       11u
#define ISR_STACK_WORDS 512

void rtos_trap(void), rtos_start_first(void) __attribute__((noreturn));
uintptr_t hal_riscv_trap(uintptr_t mcause, uintptr_t mepc);   /* the HAL's dispatch */

/* The port's state, owned here: the ISR stack (the trap handler's), a switch the tick
 * asked for (set in the timer's trap, made at its end), a yield asked for in a critical
 * section (made at its end). */
uintptr_t rtos_isr_stack[ISR_STACK_WORDS] __attribute__((aligned(16)));
static volatile int switch_pending;

/* The markers: rtos_mark_N for the task of index N (a ret each, no hooks). */
__asm__(".text\n"
        ".global rtos_mark_0\nrtos_mark_0: ret\n"
        ".global rtos_mark_1\nrtos_mark_1: ret\n"
        ".global rtos_mark_2\nrtos_mark_2: ret\n"
        ".global rtos_mark_3\nrtos_mark_3: ret\n"
        ".global rtos_mark_4\nrtos_mark_4: ret\n");

/* The trap handler (freertos_risc_v_trap_handler): the task's registers onto its stack,
 * its stack pointer into its TCB, rtos_trap_c(mcause, frame) on the ISR stack, then the
 * (maybe other) running task's registers back, and mret. rtos_start_first enters the
 * first task the same way. */
#define SAVE(r, n) REG_S #r ", " #n "*" SLOT "(sp)\n"
#define LOAD(r, n) REG_L #r ", " #n "*" SLOT "(sp)\n"
#define REGS(X) X(ra, 2) X(t0, 3) X(t1, 4) X(t2, 5) X(s0, 6) X(s1, 7) X(a0, 8) X(a1, 9)      \
    X(a2, 10) X(a3, 11) X(a4, 12) X(a5, 13) X(a6, 14) X(a7, 15) X(s2, 16) X(s3, 17)           \
    X(s4, 18) X(s5, 19) X(s6, 20) X(s7, 21) X(s8, 22) X(s9, 23) X(s10, 24) X(s11, 25)         \
    X(t3, 26) X(t4, 27) X(t5, 28) X(t6, 29)
__asm__(".section .text.rtos_trap, \"ax\", @progbits\n"
        ".balign 4\n"
        ".global rtos_trap\n"
        "rtos_trap:\n"
        "addi sp, sp, -" SLOT "*32\n"
        REGS(SAVE)
        "csrr t0, mepc\n"
        REG_S "t0, 0(sp)\n"
        "csrr t0, mstatus\n"
        REG_S "t0, " SLOT "(sp)\n"
        "la t0, rtos_current\n"
        REG_L "t0, 0(t0)\n"
        REG_S "sp, 0(t0)\n"
        "mv a1, sp\n"
        "la sp, rtos_isr_stack + " SLOT "*512\n"
        "csrr a0, mcause\n"
        "call rtos_trap_c\n"
        ".global rtos_start_first\n"
        "rtos_start_first:\n"
        "la t0, rtos_current\n"
        REG_L "t0, 0(t0)\n"
        REG_L "sp, 0(t0)\n"
        REG_L "t0, 0(sp)\n"
        "csrw mepc, t0\n"
        REG_L "t0, " SLOT "(sp)\n"
        "csrw mstatus, t0\n"
        REGS(LOAD)
        "addi sp, sp, " SLOT "*32\n"
        ".global rtos_trap_mret\n"
        "rtos_trap_mret:\n"
        "mret\n"
        ".text\n");
_Static_assert(ISR_STACK_WORDS == 512 && FRAME_WORDS == 32, "the trap handler's constants");

/* The scheduler, counted as a handler (the stack mode's frames go on the handlers' stack);
 * the critical nesting is each task's (a task yields in a critical section, and the next
 * one runs outside its own), as FreeRTOS's port keeps it in the task's context. */
static void switch_context(void)
{
    rtos_current->critical_nesting = rtos_critical_nesting;
    hal_riscv_irq_depth++;
    rtos_switch_context();
    hal_riscv_irq_depth--;
    rtos_critical_nesting = rtos_current->critical_nesting;
}

/* Every trap, on the ISR stack, interrupts off: frame is the task's saved registers. */
void rtos_trap_c(uintptr_t mcause, uintptr_t *frame)
{
    if (mcause >> (__riscv_xlen - 1)) {
        if ((mcause & 0xFFu) == RISCV_IRQ_M_TIMER)
            hal_mtimer_isr(frame[0]);       /* the sample (at the task's pc), the tick */
        else
            (void)hal_riscv_trap(mcause, frame[0]);
        if (switch_pending) {
            switch_pending = 0;
            switch_context();
        }
    } else if (mcause == ECALL_M) {
        hal_mtimer_take_due_sample(frame[0]);   /* the yielding task's, at the ecall */
        frame[0] += 4;                      /* (resume after the ecall) */
        switch_context();
    } else {
        (void)hal_riscv_trap(mcause, frame[0]); /* reports it and exits */
    }
}

/* The tick, from hal_mtimer_isr (a handler): the switch it asks for (time slicing, a task
 * woken) is made once the sample is taken. */
static void port_tick(void)
{
    rtos_tick();
    switch_pending = 1;
}

void rtos_port_mask(int masked)
{
    if (masked)
        riscv_csr_clear(mstatus, MSTATUS_MIE);
    else
        riscv_csr_set(mstatus, MSTATUS_MIE);
}

/* An ecall at once, in a critical section too (FreeRTOS's portYIELD inside the queue's
 * taskENTER_CRITICAL): the switch is made with interrupts off, and the next task runs
 * with its own on. */
void rtos_port_yield(void)
{
    __asm__ volatile("ecall" : : : "memory");
}

uint32_t *rtos_port_stack_init(uint32_t *top, rtos_task_fn fn, void (*exit_fn)(void))
{
    uintptr_t *sp = (uintptr_t *)(void *)top - FRAME_WORDS;
    for (int i = 0; i < FRAME_WORDS; i++)
        sp[i] = 0;
    sp[0] = (uintptr_t)fn;                  /* mepc */
    sp[1] = MSTATUS_START;
    sp[2] = (uintptr_t)exit_fn;             /* ra */
    return (uint32_t *)(void *)sp;
}

void rtos_port_start(void)
{
    riscv_csr_clear(mstatus, MSTATUS_MIE);
    hal_riscv_irq_nesting = 0;              /* the trap handler does not nest */
    riscv_csr_write(mtvec, (uintptr_t)rtos_trap);
    hal_mtimer_tick_start(BOARD_CLOCK_HZ / 1000000u * TICK_US, port_tick);
    rtos_start_first();
}

void rtos_port_stop_tick(void)
{
    hal_mtimer_tick_stop();
}
