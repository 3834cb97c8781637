/*
 * Two threads on their own stacks, switched by PendSV every SWITCH_US (tests/qemu/
 * threads_sched.c, an RTOS's context switch in miniature, which calls
 * profile_stack_switch as an RTOS's switch hook would), for the stack-profiling mode
 * (tests/qemu/test_stacks_threads.py). Thread A calls a_outer() -> a_inner(), thread B
 * b_outer() -> b_inner(), OUTER_REPS x INNER_REPS times each, preempted anywhere; each
 * thread's calls must stay on its own shadow stack, under its own context node.
 */
#include <cyg/profile/profile.h>
#include <stdint.h>
#include <stdio.h>
#include "threads.h"

#define KEEP __attribute__((noinline, noipa))

void firmware_failed(const char *what);
void threads_start(void (*a)(void), void (*b)(void));   /* threads_sched.c */
void threads_finish(void);

volatile uint32_t sink;
volatile uint32_t a_inner_calls, b_inner_calls;   /* the true counts */
volatile int a_done, b_done;

KEEP void a_inner(void)
{
    a_inner_calls++;
    for (int i = 0; i < 40; i++)
        sink += (uint32_t)i;
}

KEEP void a_outer(void)
{
    for (int i = 0; i < INNER_REPS; i++)
        a_inner();
}

KEEP void b_inner(void)
{
    b_inner_calls++;
    for (int i = 0; i < 60; i++)
        sink ^= (uint32_t)i;
}

KEEP void b_outer(void)
{
    for (int i = 0; i < INNER_REPS; i++)
        b_inner();
}

KEEP void thread_a(void)
{
    for (int i = 0; i < OUTER_REPS; i++)
        a_outer();
    a_done = 1;
    while (!b_done)
        ;
    threads_finish();           /* gdb stops there; then the firmware exits */
}

KEEP void thread_b(void)
{
    for (int i = 0; i < OUTER_REPS; i++)
        b_outer();
    b_done = 1;
    for (;;)
        ;
}

int main(void)
{
    extern char _stext[], _etext[];
    if (profile_on(_stext, _etext, 16, 20) != 0)
        firmware_failed("profile_on");
    threads_start(thread_a, thread_b);
    return 0;
}
