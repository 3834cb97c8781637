/*
 * The two-thread firmware's scheduler (no -pg, no instrumentation: as an RTOS kernel
 * built apart): thread A runs on the process stack from main; thread B starts from an
 * exception frame made for it. The fast timer's handler pends PendSV; PendSV saves r4-r11
 * on the process stack, picks the other thread, tells the profiler (profile_stack_switch,
 * an RTOS's traceTASK_SWITCHED_IN), and returns into it. ARMv7-M (stmdb/ldmia of r4-r11).
 */
#include <cyg/profile/profile.h>
#include <cyg/hal/board.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "threads.h"

#define STACK_WORDS 512
#define SCB_ICSR  (*(volatile uint32_t *)0xE000ED04u)
#define SCB_SHPR3 (*(volatile uint32_t *)0xE000ED20u)

void phase_done(int phase);

/* The threads' stacks and saved stack pointers, and which one runs: owned by the
 * scheduler (PendSV and threads_start). */
static uint64_t stack_b[STACK_WORDS / 2], stack_a[STACK_WORDS / 2];
static uint32_t *saved_sp[2];
static int running;
volatile uint32_t switches;
/* Whether PendSV tells the profiler (gdb clears it for the test's control run). */
volatile int switch_hook = 1;

void BOARD_FAST_TIMER_HANDLER(void)
{
    board_fast_timer_ack();
    SCB_ICSR = 1u << 28;        /* PENDSVSET */
}

/* Called by PendSV with the running thread's stack pointer (r4-r11 saved below it):
 * returns the other's. */
uint32_t *threads_switch(uint32_t *sp)
{
    saved_sp[running] = sp;
    running ^= 1;
    switches++;
    if (switch_hook)
        profile_stack_switch(running ? THREAD_B : THREAD_A);
    return saved_sp[running];
}

__attribute__((naked)) void PendSV_Handler(void)
{
    __asm__ volatile(
        "mrs    r0, psp\n\t"
        "stmdb  r0!, {r4-r11}\n\t"
        "bl     threads_switch\n\t"
        "ldmia  r0!, {r4-r11}\n\t"
        "msr    psp, r0\n\t"
        "ldr    lr, =0xFFFFFFFD\n\t"     /* thread mode, process stack */
        "bx     lr\n\t"
        ".ltorg\n\t");
}

void threads_finish(void)
{
    board_fast_timer_stop();
    printf("threads: done, %u switches\n", (unsigned)switches);
    phase_done(1);
    exit(0);
}

void threads_start(void (*a)(void), void (*b)(void))
{
    /* B's first frame: r4-r11, then what an exception return pops (r0-r3, r12, lr, pc,
     * xPSR with the Thumb bit). */
    uint32_t *sp = (uint32_t *)&stack_b[STACK_WORDS / 2] - 16;
    for (int i = 0; i < 16; i++)
        sp[i] = 0;
    sp[8 + 5] = 0xFFFFFFFFu;                    /* lr: never returns */
    sp[8 + 6] = (uint32_t)(uintptr_t)b & ~1u;   /* pc */
    sp[8 + 7] = 1u << 24;                       /* xPSR: Thumb */
    saved_sp[1] = sp;
    running = 0;
    SCB_SHPR3 |= 0xFFu << 16;                   /* PendSV: the lowest priority */
    if (switch_hook)
        profile_stack_switch(THREAD_A);
    board_fast_timer_start(SWITCH_US, 0);
    /* A: on the process stack from here */
    uint32_t top = (uint32_t)(uintptr_t)&stack_a[STACK_WORDS / 2];
    __asm__ volatile("msr psp, %0\n\t"
                     "mov r0, #2\n\t"
                     "msr control, r0\n\t"      /* SPSEL: thread mode uses the PSP */
                     "isb\n\t" : : "r"(top) : "r0", "memory");
    a();
}
