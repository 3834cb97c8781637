/*
 * The preemptive scheduler firmware's numbers and kernel API (tests/qemu/rtos_kernel.c, a
 * kernel in miniature with the mechanisms of FreeRTOS's ports; tests/qemu/rtos.c, its
 * application), read by tests/qemu/test_rtos.py.
 */
#ifndef RTOS_H
#define RTOS_H

#define ITEMS        400   /* produce() and consume() calls: items through the queue */
#define QUEUE_LEN    4
#define CRUNCHES     300   /* crunch() calls, the worker's */
#define SLEEP_EVERY  50    /* the sender and the worker sleep a tick every so many */
#define TICK_US      250   /* SysTick: the kernel's tick, a time slice */
/* The profile timer: a period that divides the tick (the ticker below wakes at every
 * tick: a round interval against a periodic task) */
#ifdef __riscv
#define SAMPLE_US    25    /* (a trap saves every register: ~300 instructions) */
#define WORK_SCALE   3     /* the tasks' loops: as many samples as on the other boards */
/* The receiver's item copy in its critical section (rtos_kernel.c), before it yields
 * there: on RISC-V the port masks the profile timer in it and switches before unmasking,
 * so a sample due in the copy must be taken for the receiver (hal_mtimer_take_due_sample);
 * long enough that one often is, shorter than a period. Elsewhere the critical section
 * leaves the profile timer on, or (v6-M's PRIMASK) the switch waits for the unmasking. */
#define COPY_WORDS   48
#elif defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'A'
#define SAMPLE_US    25    /* (at 10 us, its shortest, the sample's interrupt takes a
                              * fifth of the time: a task 0.98 points off, 0.48 here) */
#else
#define SAMPLE_US    10
#endif
#ifndef WORK_SCALE
#define WORK_SCALE   1
#endif
#ifndef COPY_WORDS
#define COPY_WORDS   8
#endif
#define TICKS_RUN    120   /* the ticker's wake-ups: one a tick */
#define BURST_LOOP   250   /* its work at each: not a whole number of periods */
#define FAST_US      97    /* the nested interrupt (fast timer) */
#define TASKS_MAX    6     /* the kernel's task control blocks, idle included */

#ifndef __ASSEMBLER__
#include <stdint.h>

struct rtos_queue;
typedef void (*rtos_task_fn)(void);

/* A task at priority prio (0: the idle task's; higher runs first). */
void rtos_task_create(rtos_task_fn fn, const char *name, unsigned prio);
/* Starts the scheduler (SVC, as FreeRTOS's first task): never returns. */
void rtos_start(void);
/* Blocks the running task for ticks ticks. */
void rtos_delay(uint32_t ticks);
/* The running task is done: it blocks for good. */
void rtos_task_exit(void);
/* Every task but idle has exited. */
int rtos_all_done(void);
/* A queue of QUEUE_LEN words: send blocks while it is full, receive while it is empty. */
extern struct rtos_queue rtos_q;
void rtos_queue_send(struct rtos_queue *q, uint32_t v);
uint32_t rtos_queue_receive(struct rtos_queue *q);
#endif
#endif
