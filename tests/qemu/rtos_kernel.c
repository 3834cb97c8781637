/*
 * A preemptive kernel in miniature with the mechanisms of FreeRTOS's GCC/ARM_CM3 port, for
 * the profiler's tests: the first task started by an SVC (vPortSVCHandler), a naked PendSV
 * that saves r4-r11 on the task's stack and calls the scheduler (xPortPendSVHandler,
 * vTaskSwitchContext), the SysTick tick with time slicing, two task priorities over an idle
 * task, critical sections by BASEPRI, a blocking queue. Built as the application is, with
 * -pg (and in the stack-profiling mode -finstrument-functions: the naked handlers are
 * excluded by name, as the port kit's flags do for FreeRTOS's port files). ARMv7-M, and
 * ARMv6-M as FreeRTOS's GCC/ARM_CM0 port does it: no BASEPRI (critical sections by PRIMASK,
 * which masks the profile timer too), r8-r11 moved through r4-r7.
 *
 * The switch hook, traceTASK_SWITCHED_IN's place: profile_task_switch(TCB, name), just
 * after a marker of the task (rtos_mark_N, an instruction that returns), by which an
 * instruction trace tells which task runs (tests/qemu/test_rtos.py): a sample due from the
 * moment profile_task_switch masks interrupts is counted for the new task.
 */
#include <cyg/profile/profile.h>
#include <cyg/hal/board.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "rtos.h"

#if defined(__ARM_ARCH_6M__)
#define STACK_WORDS 192         /* (microbit's 16 KiB) */
#else
#define STACK_WORDS 384
#endif
#define SCB_ICSR   (*(volatile uint32_t *)0xE000ED04u)
#define SCB_SHPR2  (*(volatile uint32_t *)0xE000ED1Cu)
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

enum { READY, BLOCKED_SEND, BLOCKED_RECEIVE, DELAYED, EXITED };

struct tcb {
    uint32_t *sp;               /* first: the naked handlers load it from here */
    const char *name;
    unsigned prio, state, index;
    uint32_t wake;
    uint64_t stack[STACK_WORDS / 2];
};

struct rtos_queue {
    uint32_t buf[QUEUE_LEN];
    uint32_t head, count;
};

/* The kernel's state, owned here: the tasks, the running one (the naked handlers read
 * rtos_current), the tick, the critical sections' nesting. */
static struct tcb tcbs[TASKS_MAX];
static unsigned ntasks;
struct tcb *volatile rtos_current;
static volatile uint32_t tick;
static uint32_t critical_nesting;
struct rtos_queue rtos_q;

/* The markers: rtos_mark_N for the task of index N (a bx lr each, no hooks). */
__asm__(".text\n.thumb\n"
        ".global rtos_mark_0\n.thumb_func\nrtos_mark_0: bx lr\n"
        ".global rtos_mark_1\n.thumb_func\nrtos_mark_1: bx lr\n"
        ".global rtos_mark_2\n.thumb_func\nrtos_mark_2: bx lr\n"
        ".global rtos_mark_3\n.thumb_func\nrtos_mark_3: bx lr\n"
        ".global rtos_mark_4\n.thumb_func\nrtos_mark_4: bx lr\n");
void rtos_mark_0(void), rtos_mark_1(void), rtos_mark_2(void), rtos_mark_3(void),
     rtos_mark_4(void);
static void (*const marks[TASKS_MAX])(void) = { rtos_mark_0, rtos_mark_1, rtos_mark_2,
                                                rtos_mark_3, rtos_mark_4 };

/* The kernel's interrupts masked (v) or not (0): BASEPRI, or on ARMv6-M PRIMASK. */
static inline void set_basepri(uint32_t v)
{
    if (V6M && v)
        __asm__ volatile("cpsid i" : : : "memory");
    else if (V6M)
        __asm__ volatile("cpsie i" : : : "memory");
    else
        __asm__ volatile("msr basepri, %0\n\tdsb\n\tisb" : : "r"(v) : "memory");
}

static void enter_critical(void)
{
    set_basepri(SYSCALL_PRIO);
    critical_nesting++;
}

static void exit_critical(void)
{
    if (--critical_nesting == 0)
        set_basepri(0);
}

static inline void yield(void)
{
    SCB_ICSR = PENDSVSET;       /* taken once no critical section masks it */
    __asm__ volatile("dsb\n\tisb" : : : "memory");
}

static void task_exit_error(void)
{
    printf("rtos: a task returned\n");
    exit(3);
}

void rtos_task_create(rtos_task_fn fn, const char *name, unsigned prio)
{
    struct tcb *t = &tcbs[ntasks];
    t->name = name;
    t->prio = prio;
    t->state = READY;
    t->index = ntasks++;
    /* As pxPortInitialiseStack: what an exception return pops (r0-r3, r12, lr, pc, xPSR),
     * below it r4-r11. */
    uint32_t *sp = (uint32_t *)&t->stack[STACK_WORDS / 2] - 16;
    for (int i = 0; i < 16; i++)
        sp[i] = 0;
    sp[8 + 5] = (uint32_t)(uintptr_t)task_exit_error;
    sp[8 + 6] = (uint32_t)(uintptr_t)fn & ~1u;
    sp[8 + 7] = 1u << 24;
    t->sp = sp;
}

/* The scheduler (vTaskSwitchContext): the ready task of the highest priority, the next one
 * after the running task among equals (time slicing). Called by PendSV with BASEPRI up. */
void rtos_switch_context(void)
{
    struct tcb *cur = rtos_current, *best = NULL;
    for (unsigned k = 1; k <= ntasks; k++) {
        struct tcb *t = &tcbs[(cur->index + k) % ntasks];
        if (t->state == READY && (!best || t->prio > best->prio))
            best = t;
    }
    if (best && best != cur) {
        rtos_current = best;
        marks[best->index]();
        profile_task_switch((uintptr_t)best, best->name);
    }
}

/* SysTick (xPortSysTickHandler): the tick wakes the tasks whose delay ended, and asks for a
 * switch: a task woken, or the next of the same priority (time slicing). */
void SysTick_Handler(void)
{
    set_basepri(SYSCALL_PRIO);
    tick++;
    for (unsigned i = 0; i < ntasks; i++)
        if (tcbs[i].state == DELAYED && tcbs[i].wake == tick)
            tcbs[i].state = READY;
    SCB_ICSR = PENDSVSET;
    set_basepri(0);
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
        "ldr    r0, [r1]\n\t"
        "adds   r0, #16\n\t"
        "ldmia  r0!, {r4-r7}\n\t"
        "mov    r8, r4\n\t"
        "mov    r9, r5\n\t"
        "mov    r10, r6\n\t"
        "mov    r11, r7\n\t"
        "msr    psp, r0\n\t"
        "subs   r0, #32\n\t"
        "ldmia  r0!, {r4-r7}\n\t"
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
        "ldr    r0, [r1]\n\t"
        "adds   r0, #16\n\t"
        "ldmia  r0!, {r4-r7}\n\t"
        "mov    r8, r4\n\t"
        "mov    r9, r5\n\t"
        "mov    r10, r6\n\t"
        "mov    r11, r7\n\t"
        "msr    psp, r0\n\t"
        "subs   r0, #32\n\t"
        "ldmia  r0!, {r4-r7}\n\t"
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

void rtos_start(void)
{
    struct tcb *first = &tcbs[0];
    for (unsigned i = 1; i < ntasks; i++)
        if (tcbs[i].prio > first->prio)
            first = &tcbs[i];
    rtos_current = first;
    marks[first->index]();
    profile_task_switch((uintptr_t)first, first->name);
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

void rtos_stop_tick(void)
{
    SYST_CSR = 0;
}

void rtos_delay(uint32_t ticks)
{
    enter_critical();
    rtos_current->wake = tick + ticks;
    rtos_current->state = DELAYED;
    yield();
    exit_critical();
}

void rtos_task_exit(void)
{
    enter_critical();
    rtos_current->state = EXITED;
    yield();
    exit_critical();
    for (;;)
        ;
}

int rtos_all_done(void)
{
    for (unsigned i = 0; i < ntasks; i++)
        if (tcbs[i].prio && tcbs[i].state != EXITED)
            return 0;
    return 1;
}

/* Makes the first task blocked in state on q ready; a switch if it outranks the running
 * one. In a critical section. */
static void wake_one(struct rtos_queue *q, unsigned state)
{
    (void)q;        /* (one queue) */
    for (unsigned i = 0; i < ntasks; i++) {
        if (tcbs[i].state == state) {
            tcbs[i].state = READY;
            if (tcbs[i].prio > rtos_current->prio)
                yield();
            return;
        }
    }
}

void rtos_queue_send(struct rtos_queue *q, uint32_t v)
{
    for (;;) {
        enter_critical();
        if (q->count < QUEUE_LEN) {
            q->buf[(q->head + q->count++) % QUEUE_LEN] = v;
            wake_one(q, BLOCKED_RECEIVE);
            exit_critical();
            return;
        }
        rtos_current->state = BLOCKED_SEND;
        yield();
        exit_critical();
    }
}

uint32_t rtos_queue_receive(struct rtos_queue *q)
{
    for (;;) {
        enter_critical();
        if (q->count) {
            uint32_t v = q->buf[q->head];
            q->head = (q->head + 1) % QUEUE_LEN;
            q->count--;
            wake_one(q, BLOCKED_SEND);
            exit_critical();
            return v;
        }
        rtos_current->state = BLOCKED_RECEIVE;
        yield();
        exit_critical();
    }
}
