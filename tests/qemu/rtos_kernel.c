/*
 * A preemptive kernel in miniature with the mechanisms of FreeRTOS's ports, for the
 * profiler's tests: two task priorities over an idle task, a tick with time slicing,
 * critical sections, a blocking queue; the switch itself is the port's
 * (rtos_port_cortexm.c: an SVC start and a naked PendSV, as FreeRTOS's GCC/ARM_CM3 and
 * ARM_CM0 ports; rtos_port_riscv.c: an ecall yield in the trap handler and the machine-timer
 * tick, as its GCC/RISC-V port; rtos_port_armv7a.c: the switch on the IRQ exit and an SVC
 * yield, as its GCC/ARM_CA9 port). Built as the application is, with -pg (and in the
 * stack-profiling mode -finstrument-functions: the ports' naked handlers are excluded by
 * name, as the FreeRTOS kit's flags do for FreeRTOS's port files).
 *
 * The switch hook, traceTASK_SWITCHED_IN's place: profile_task_switch(TCB, name), just
 * after a marker of the task (rtos_mark_N, an instruction that returns), by which an
 * instruction trace tells which task runs (tests/qemu/test_rtos.py): a sample due from the
 * moment profile_task_switch masks interrupts is counted for the new task.
 */
#include <cyg/profile/profile.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "rtos_port.h"

enum { READY, BLOCKED_SEND, BLOCKED_RECEIVE, DELAYED, EXITED };

struct rtos_queue {
    uint32_t buf[QUEUE_LEN];
    uint32_t head, count;
};

/* The kernel's state, owned here: the tasks, the running one (the ports' switch code reads
 * rtos_current), the tick, the critical sections' nesting. */
static struct tcb tcbs[TASKS_MAX];
static unsigned ntasks;
struct tcb *volatile rtos_current;
volatile uint32_t rtos_ticks;      /* (also read by the test) */
uint32_t rtos_critical_nesting;
struct rtos_queue rtos_q;

/* The markers (the ports' assembly): rtos_mark_N for the task of index N. */
void rtos_mark_0(void), rtos_mark_1(void), rtos_mark_2(void), rtos_mark_3(void),
     rtos_mark_4(void);
static void (*const marks[TASKS_MAX])(void) = { rtos_mark_0, rtos_mark_1, rtos_mark_2,
                                                rtos_mark_3, rtos_mark_4 };

static void enter_critical(void)
{
    rtos_port_mask(1);
    rtos_critical_nesting++;
}

static void exit_critical(void)
{
    if (--rtos_critical_nesting == 0)
        rtos_port_mask(0);
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
    t->sp = rtos_port_stack_init((uint32_t *)&t->stack[RTOS_STACK_WORDS / 2], fn,
                                 task_exit_error);
}

/* The running task is now t: the marker, then the switch hook. */
static void switched_in(struct tcb *t)
{
    rtos_current = t;
    marks[t->index]();
    profile_task_switch((uintptr_t)t, t->name);
}

/* The scheduler (vTaskSwitchContext): the ready task of the highest priority, the next one
 * after the running task among equals (time slicing). The kernel's interrupts masked. */
void rtos_switch_context(void)
{
    struct tcb *cur = rtos_current, *best = NULL;
    for (unsigned k = 1; k <= ntasks; k++) {
        struct tcb *t = &tcbs[(cur->index + k) % ntasks];
        if (t->state == READY && (!best || t->prio > best->prio))
            best = t;
    }
    if (best && best != cur)
        switched_in(best);
}

/* The tick (xTaskIncrementTick): wakes the tasks whose delay ended. The kernel's interrupts
 * masked; the port asks for a switch after it. */
void rtos_tick(void)
{
    rtos_ticks++;
    for (unsigned i = 0; i < ntasks; i++)
        if (tcbs[i].state == DELAYED && tcbs[i].wake == rtos_ticks)
            tcbs[i].state = READY;
}

void rtos_start(void)
{
    struct tcb *first = &tcbs[0];
    for (unsigned i = 1; i < ntasks; i++)
        if (tcbs[i].prio > first->prio)
            first = &tcbs[i];
    switched_in(first);
    rtos_port_start();
}

void rtos_stop_tick(void)
{
    rtos_port_stop_tick();
}

void rtos_delay(uint32_t ticks)
{
    enter_critical();
    rtos_current->wake = rtos_ticks + ticks;
    rtos_current->state = DELAYED;
    rtos_port_yield();
    exit_critical();
}

/* The task ends (vTaskDelete's traceTASK_DELETE: the kit's profile_task_end): its rows in
 * gmon.tasks and gmon.stacks stay, under an id no task has. */
void rtos_task_exit(void)
{
    enter_critical();
    (void)profile_task_end((uintptr_t)rtos_current);
    rtos_current->state = EXITED;
    rtos_port_yield();
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
                rtos_port_yield();
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
        rtos_port_yield();
        exit_critical();
    }
}

/* The item copied out of the queue's storage in the critical section, as FreeRTOS's
 * prvCopyDataFromQueue does it (COPY_WORDS: rtos.h); then the sender, blocked on a full
 * queue and of a higher priority, is woken and the receiver yields, still in the critical
 * section: a sample that came due during the copy is the receiver's. */
static volatile uint32_t item_storage[COPY_WORDS];

static __attribute__((noinline)) uint32_t copy_item_out(uint32_t v)
{
    for (uint32_t i = 0; i < COPY_WORDS; i++)
        item_storage[i] = v + i;
    return v;
}

uint32_t rtos_queue_receive(struct rtos_queue *q)
{
    for (;;) {
        enter_critical();
        if (q->count) {
            uint32_t v = copy_item_out(q->buf[q->head]);
            q->head = (q->head + 1) % QUEUE_LEN;
            q->count--;
            wake_one(q, BLOCKED_SEND);
            exit_critical();
            return v;
        }
        rtos_current->state = BLOCKED_RECEIVE;
        rtos_port_yield();
        exit_critical();
    }
}
