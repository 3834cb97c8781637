/*
 * Stack-profiling firmware (CYGPKG_PROFILE_STACKS; tests/qemu/test_stacks.py): the shapes a
 * calling-context tree must get right, with known call counts (stacks.h):
 *   light() and heavy() each call work() N_WORK times, with work(1) and work(HEAVY_N):
 *     gprof's call graph splits work's time 50/50, the tree measures it;
 *   rec(): recursion, REC_DEPTH + 1 frames deep, REC_REPS times;
 *   jumper(): setjmp, then deep_jump() nests JMP_DEPTH + 1 frames and longjmps back:
 *     frames left without their return, JMP_REPS times;
 *   tail_caller() tail-calls tail_target() (a branch, not a call);
 *   the fast timer's handler, -pg, calls isr_leaf(): a root of its own wherever it comes;
 *   it pends the software interrupt, more urgent, whose handler calls nested_leaf(): a
 *   root of its own too, nested inside the first where the board nests by priority.
 * gdb stops at phase_done(1), dumps gmon.out and gmon.stacks and resets; main calls light()
 * once more, and gdb fetches at phase_done(2): that call alone. Then (newlib's boards)
 * profile_write writes it with its gmon.stacks twice: the second time nothing is left.
 */
#include <cyg/profile/profile.h>
#include <cyg/hal/board.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include "stacks.h"

#define KEEP __attribute__((noinline, noipa))

void phase_done(int phase);          /* support.c: where gdb stops */
void firmware_failed(const char *what);

volatile uint32_t sink;
volatile uint32_t isr_calls;         /* the handler's true count */

KEEP uint32_t work(uint32_t n)
{
    uint32_t x = 0;
    for (uint32_t i = 0; i < n; i++)
        x += (i * i) ^ sink;
    sink += x;
    return x;
}

KEEP void light(void)
{
    for (int i = 0; i < N_WORK; i++)
        work(1);
}

KEEP void heavy(void)
{
    for (int i = 0; i < N_WORK; i++)
        work(HEAVY_N);
}

KEEP uint32_t rec(int depth)
{
    uint32_t r = depth ? rec(depth - 1) : work(10);
    sink += r;                        /* (not a tail call) */
    return r + 1;
}

static jmp_buf jump_back;

KEEP void deep_jump(int depth)
{
    if (depth == 0)
        longjmp(jump_back, 1);
    deep_jump(depth - 1);
    sink++;                           /* (not a tail call) */
}

KEEP void jumper(void)
{
    for (int i = 0; i < JMP_REPS; i++)
        if (setjmp(jump_back) == 0)
            deep_jump(JMP_DEPTH);
}

KEEP int tail_target(int x)
{
    sink += (uint32_t)x;
    return x + 1;
}

KEEP int tail_caller(int x)
{
    return tail_target(x * 3);        /* -O2: a branch to tail_target */
}

KEEP void isr_leaf(void) { sink ^= 1; }
KEEP void nested_leaf(void) { sink ^= 2; }

volatile uint32_t nested_calls;     /* the software interrupt's true count */

/* Pended by the fast timer's handler, more urgent than it: where the board nests
 * interrupts by priority (Cortex-M), it runs inside that handler, at a level of its own.
 * (The count after the call: no tail call, whose caller would be the exception return.) */
void BOARD_SOFT_IRQ_HANDLER(void)
{
    nested_leaf();
    nested_calls++;
}

void BOARD_FAST_TIMER_HANDLER(void)
{
    isr_calls++;
    board_fast_timer_ack();
    isr_leaf();
    board_irq_pend(BOARD_SOFT_IRQ);
}

int main(void)
{
    extern char _stext[], _etext[];
    /* (32-byte buckets: room for profile_write's second set on a 16 KiB board) */
    if (profile_on(_stext, _etext, 32, 50) != 0)
        firmware_failed("profile_on");
    board_irq_enable(BOARD_SOFT_IRQ, 0);
    board_fast_timer_start(ISR_US, 1);
    light();
    heavy();
    for (int i = 0; i < REC_REPS; i++)
        rec(REC_DEPTH);
    jumper();
    for (int i = 0; i < TAIL_REPS; i++)
        tail_caller(i);
    board_fast_timer_stop();
    board_irq_disable(BOARD_SOFT_IRQ);
    printf("stacks: phase 1, %u handler calls, %u nested\n", (unsigned)isr_calls,
           (unsigned)nested_calls);
    phase_done(1);              /* gdb: gprof_dump (the tree's counts reset too) */
    light();
    phase_done(2);              /* gdb: gprof_fetch: light's calls alone */
#ifndef __PICOLIBC__
    /* Without gdb, where the C library has files: the same data and its tree, then none. */
    printf("stacks: profile_write %d\n", profile_write("stacks-w1.out"));
    printf("stacks: profile_write %d\n", profile_write("stacks-w2.out"));
#endif
    printf("stacks: done\n");
    return 0;
}
