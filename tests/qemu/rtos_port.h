/*
 * The preemptive scheduler firmware's kernel (tests/qemu/rtos_kernel.c) and its ports
 * (rtos_port_cortexm.c: FreeRTOS's GCC/ARM_CM3 and ARM_CM0 ports' mechanisms;
 * rtos_port_riscv.c: its GCC/RISC-V port's; rtos_port_armv7a.c: its GCC/ARM_CA9 port's)
 * share this.
 */
#ifndef RTOS_PORT_H
#define RTOS_PORT_H

#include <stdint.h>
#include "rtos.h"

#if defined(__ARM_ARCH_6M__)
#define RTOS_STACK_WORDS 160    /* (microbit's 16 KiB: six tasks) */
#else
#define RTOS_STACK_WORDS 384
#endif

struct tcb {
    uint32_t *sp;               /* first: the ports' assembly loads it from here */
    const char *name;
    unsigned prio, state, index;
    uint32_t wake;
    uint32_t critical_nesting;  /* saved across a switch (the RISC-V port: it yields in one) */
    uint64_t stack[RTOS_STACK_WORDS / 2];
};

/* The running task (the kernel's; the ports' switch code reads and saves through it). */
extern struct tcb *volatile rtos_current;

/* The kernel, for the ports: the scheduler (vTaskSwitchContext: may change rtos_current;
 * called with the kernel's interrupts masked, from the switch), and the tick's work
 * (xTaskIncrementTick: wakes the tasks whose delay ended; the port then asks for a
 * switch, time slicing). */
void rtos_switch_context(void);
void rtos_tick(void);

/* The ports, for the kernel. */
/* The first frame of a task that starts at fn, on the stack below top; its stack pointer. */
uint32_t *rtos_port_stack_init(uint32_t *top, rtos_task_fn fn, void (*exit_fn)(void));
/* The kernel's interrupts masked (1) or not (0). */
void rtos_port_mask(int masked);
/* A switch asked for (a task woken, blocked, or done): made as soon as no critical section
 * masks it (PendSV; on RISC-V the ecall at the critical section's end); on Cortex-A9 at
 * once (SVC), the critical nesting saved with the task. */
void rtos_port_yield(void);
/* The tick started, the first task (rtos_current) entered: never returns. */
void rtos_port_start(void) __attribute__((noreturn));
void rtos_port_stop_tick(void);
/* The critical sections' depth (the kernel's, for the RISC-V port's deferred ecall; the
 * Cortex-A9 port saves and restores it with each task). */
extern uint32_t rtos_critical_nesting;

#endif
