/*
 * The preemptive scheduler firmware's application (tests/qemu/rtos_kernel.c): a sender at
 * priority 2 puts ITEMS items through a queue of QUEUE_LEN to a receiver at priority 1,
 * which shares its priority with a worker (time slicing on the tick); both the sender and
 * the worker sleep a tick now and then, when the idle task runs; a fast timer interrupts
 * them all (nested over the kernel's handlers). Each task's calls are known exactly:
 * produce() and consume() ITEMS times, crunch() CRUNCHES times, fast_work() as often as
 * fast_calls says. Built at -O2 with -pg, in the plain and the stack-profiling mode
 * (tests/qemu/test_rtos.py).
 */
#include <cyg/profile/profile.h>
#include <cyg/hal/board.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "rtos.h"

#define KEEP __attribute__((noinline))

void rtos_stop_tick(void);

volatile uint32_t sink, fast_calls, received;
/* Hard-float cores: a value the worker and the receiver each keep in a VFP register across
 * their loops, which time slicing preempts; a switch that lost a task's VFP state changes
 * it (read by the test: how often it was checked, how often it was wrong; one counter a
 * task, [0] the receiver's, [1] the worker's, so that no preemption loses a count). Other
 * cores build exactly what they built without it (their share checks are held to a
 * trace of this very firmware, layout included). */
#if defined(__ARM_FP)
volatile uint32_t fp_checks[2], fp_errors[2];
volatile float fp_zero;
#define FP_LIVE(var) float var = fp_zero
#define FP_STEP(var, by) (var += (by))
#define FP_CHECK(i, var, want) (fp_checks[i]++, fp_errors[i] += (var != (want)))
#else
#define FP_LIVE(var) (void)0
#define FP_STEP(var, by) (void)0
#define FP_CHECK(i, var, want) (void)0
#endif

KEEP uint32_t produce(uint32_t i)
{
    uint32_t v = i;
    for (int k = 0; k < 60 * WORK_SCALE; k++)
        v = v * 1103515245u + 12345u;
    return v;
}

KEEP void consume(uint32_t v)
{
    FP_LIVE(g);
    for (int k = 0; k < 90 * WORK_SCALE; k++) {
        sink ^= v >> (k & 7);
        FP_STEP(g, 2.0f);
    }
    FP_CHECK(0, g, 180.0f * WORK_SCALE);
    received++;
}

KEEP void crunch(void)
{
    FP_LIVE(f);
    for (int k = 0; k < 150 * WORK_SCALE; k++) {
        sink += (uint32_t)k * 7u;
        FP_STEP(f, 1.0f);
    }
    FP_CHECK(1, f, 150.0f * WORK_SCALE);
}

KEEP void fast_work(void)
{
    fast_calls++;
    for (int k = 0; k < 8; k++)
        sink ^= (uint32_t)k;
}

void BOARD_FAST_TIMER_HANDLER(void)
{
    board_fast_timer_ack();
    fast_work();
}

/* The same work at each tick, woken by it: a task that aliases with a profile timer
 * locked to the tick (the dither's case). */
KEEP void burst(void)
{
    for (int k = 0; k < BURST_LOOP; k++)
        sink += (uint32_t)k;
}

void task_ticker(void)
{
    for (uint32_t i = 0; i < TICKS_RUN; i++) {
        burst();
        rtos_delay(1);
    }
    rtos_task_exit();
}

void task_sender(void)
{
    for (uint32_t i = 0; i < ITEMS; i++) {
        rtos_queue_send(&rtos_q, produce(i));
        if (i % SLEEP_EVERY == SLEEP_EVERY - 1)
            rtos_delay(1);
    }
    rtos_task_exit();
}

void task_receiver(void)
{
    for (uint32_t i = 0; i < ITEMS; i++)
        consume(rtos_queue_receive(&rtos_q));
    rtos_task_exit();
}

void task_worker(void)
{
    for (uint32_t i = 0; i < CRUNCHES; i++) {
        crunch();
        if (i % SLEEP_EVERY == SLEEP_EVERY - 1)
            rtos_delay(2);
    }
    rtos_task_exit();
}

/* gdb stops here and fetches the files; then the firmware exits. */
KEEP void rtos_done(void)
{
    printf("rtos: done, %u items, %u fast interrupts\n", (unsigned)received,
           (unsigned)fast_calls);
#if defined(__ARM_FP)
    printf("rtos: %u VFP checks, %u wrong\n", (unsigned)(fp_checks[0] + fp_checks[1]),
           (unsigned)(fp_errors[0] + fp_errors[1]));
#endif
    exit(0);
}

void task_idle(void)
{
    for (;;) {
        if (rtos_all_done()) {
            rtos_stop_tick();
            board_fast_timer_stop();
            rtos_done();
        }
    }
}

int main(void)
{
    extern char _stext[], _etext[];
    if (profile_on(_stext, _etext, 16, SAMPLE_US) != 0) {
        printf("rtos: profile_on failed\n");
        exit(2);
    }
    rtos_task_create(task_idle, "idle", 0);
    rtos_task_create(task_receiver, "receiver", 1);
    rtos_task_create(task_worker, "worker", 1);
    rtos_task_create(task_sender, "sender", 2);
    rtos_task_create(task_ticker, "ticker", 3);
    board_fast_timer_start(FAST_US, 3);
    rtos_start();
    return 0;
}
