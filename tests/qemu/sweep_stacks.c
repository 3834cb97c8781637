/*
 * The stack-profiling mode's halting sweep firmware (tests/qemu/test_sweep_stacks.py),
 * compiled with -pg (and so -finstrument-functions) at -O2 in the TFTP configuration with
 * CYGPKG_PROFILE_STACKS: its work has call paths of several depths (top;mid;leaf, a
 * static inline hooked helper inlined into mid, recursion), a longjmp that leaves two
 * frames (repaired), switches between thread ids through profile_task_switch, and a -pg
 * fast timer handler that nests anywhere (a root of its own). Each round makes a gmon.out
 * transfer as the TFTP daemon does, delivered (then a transfer of the kept gmon.stacks)
 * or abandoned (merged back), snapshots taken and abandoned at once, and restarts from
 * several frames deep (profile_reset, profile_on_ranges, profile_on, profile_off): the
 * tree is compacted while those frames are live.
 *
 * The true counts, kept apart from the package: every function's own calls (after
 * profile_on) in calls[], printed at the end with its address; calls_main and calls_isr
 * their sums (read by tests/qemu/sweep_gdb.py); sweep.h's sweep_samples_taken.
 */
#include <pkgconf/system.h>
#include <cyg/profile/profile.h>
#include <cyg/profile/gmon.h>
#include <cyg/hal/board.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include "calls.h"
#include "sweep.h"
#include "sweep_stacks.h"

#define KEEP __attribute__((noinline, noipa))

/* The functions whose calls are counted: main's, then the fast timer handler's. */
enum { F_LEAF, F_VALUE, F_BUMP, F_MID, F_TOP, F_DIVE, F_JUMPER, F_IN_THREAD, F_BETWEEN, F_RESTART_AT,
       F_SPIN, F_ROUND_WORK, F_ROUNDS, F_ISR, F_ISR_LEAF, F_COUNT };
/* Every function's calls, each incremented by that function alone: main's by main's
 * context, the handler's (F_ISR on) by the handler, so no increment is interrupted by
 * another of the same counter. */
volatile uint32_t calls[F_COUNT];
/* Their sums, set at the end for sweep_gdb.py. */
volatile uint32_t calls_main, calls_isr;
/* Written by the -pg functions so that the compiler keeps their calls. */
volatile uint32_t sink;

KEEP void leaf(int x) { calls[F_LEAF]++; sink += (uint32_t)x; }

/* Hooked and inlined into mid (GCC keeps the hooks): a frame inlined into its caller's. */
static inline void bump(int x)
{
    calls[F_BUMP]++;
    sink ^= (uint32_t)x;
}

KEEP void mid(int n)
{
    calls[F_MID]++;
    bump(n);
    for (int i = 0; i < n; i++)
        leaf(i);
}

/* Its exit hook is a call, not a tail call (the value is returned after it): a sample
 * in the epilogue after it is the function's (profile_stack_sample's epilogue window). */
KEEP uint32_t value(uint32_t x)
{
    calls[F_VALUE]++;
    return x * 3 + sink;
}

/* Calls in a tight loop: samples fall just after value's exit hook, in its epilogue or
 * in the loop before the next call. */
KEEP void spin(void)
{
    calls[F_SPIN]++;
    uint32_t x = 0;
    for (int i = 0; i < SSWEEP_SPIN; i++)
        x += value((uint32_t)i);
    sink += x;
}

KEEP void top(void)
{
    calls[F_TOP]++;
    mid(2);
    leaf(7);
}

static jmp_buf jump_back;

KEEP void dive(int depth)
{
    calls[F_DIVE]++;
    if (depth == 0)
        longjmp(jump_back, 1);
    dive(depth - 1);
    sink++;                           /* (not a tail call) */
}

/* dive() nests two frames and longjmps back over them: the next call (leaf, at
 * jumper's depth) shows they were left, and they are dropped (frames_repaired). */
KEEP void jumper(void)
{
    calls[F_JUMPER]++;
    if (setjmp(jump_back) == 0)
        dive(1);
    leaf(1);
}

/* As an RTOS's scheduler would: another thread runs top() (on a shadow stack of its own,
 * under its context node), then this one goes on. */
KEEP void in_thread(uintptr_t id)
{
    calls[F_IN_THREAD]++;
    profile_task_switch(id, NULL);
    top();
    profile_task_switch(0, NULL);
}

KEEP void isr_leaf(void) { calls[F_ISR_LEAF]++; sink ^= 1; }

void BOARD_FAST_TIMER_HANDLER(void)
{
    calls[F_ISR]++;
    board_fast_timer_ack();
    isr_leaf();
}

/* Between two blocks of a transfer (sweep_transfer, ssweep_transfer call it). */
static void between_blocks(void)
{
    calls[F_BETWEEN]++;
    top();
}

/* A restart depth frames further down (recursion): those frames, and the ones below,
 * are live while profile_on/profile_off compact the tree. */
KEEP void restart_at(int depth, int kind, const struct profile_range *ranges)
{
    calls[F_RESTART_AT]++;
    if (depth)
        restart_at(depth - 1, kind, ranges);
    else
        ssweep_restart(kind, ranges);
    sink++;                           /* (not a tail call) */
}

KEEP void round_work(int round)
{
    calls[F_ROUND_WORK]++;
    for (int i = 0; i < SSWEEP_WORK; i++) {
        top();
        mid(3);
    }
    spin();
    jumper();
    in_thread(1 + (uintptr_t)(2 * round) % (SSWEEP_THREADS - 1));
    in_thread(1 + (uintptr_t)(2 * round + 1) % (SSWEEP_THREADS - 1));
}

KEEP void rounds(const struct profile_range *ranges)
{
    calls[F_ROUNDS]++;
    for (int round = 0; round < SSWEEP_ROUNDS; round++) {
        round_work(round);
        ssweep_transfer(round % 2, between_blocks);
        for (int i = 0; i < SSWEEP_TAKES; i++) {
            top();
            ssweep_take_abandon();
        }
        for (int i = 0; i < SSWEEP_RESTARTS; i++) {
            top();
            restart_at(i % 3, (round * SSWEEP_RESTARTS + i) % 4, ranges);
        }
    }
}

/* Not instrumented: main's frame would be entered before profile_on, and the sweep
 * starts after it (sweep_armed). */
__attribute__((no_instrument_function)) int main(void)
{
    extern char _stext[], _etext[];
    /* Two ranges side by side, all of the code: every call site is in one. */
    char *half = _stext + ((_etext - _stext) / 2 & ~(uintptr_t)15);
    const struct profile_range ranges[2] = { { _stext, half }, { half, _etext } };
    if (profile_on(_stext, _etext, 16, SWEEP_SAMPLE_US) != 0)
        firmware_failed("profile_on");
    board_fast_timer_start(SWEEP_FAST_US, 0);
    sweep_armed();
    rounds(ranges);
    board_fast_timer_stop();
    uint32_t sum = 0;
    for (int f = 0; f < F_ISR; f++)
        sum += calls[f];
    calls_main = sum;
    calls_isr = calls[F_ISR] + calls[F_ISR_LEAF];
    /* The functions as the tree names them (their entry addresses, no Thumb bit). */
    const uintptr_t fn[F_COUNT] = {
        (uintptr_t)leaf, (uintptr_t)value, (uintptr_t)bump, (uintptr_t)mid, (uintptr_t)top, (uintptr_t)dive,
        (uintptr_t)jumper, (uintptr_t)in_thread, (uintptr_t)between_blocks,
        (uintptr_t)restart_at, (uintptr_t)spin, (uintptr_t)round_work, (uintptr_t)rounds,
        (uintptr_t)BOARD_FAST_TIMER_HANDLER, (uintptr_t)isr_leaf };
    for (int f = 0; f < F_COUNT; f++)
        printf("ssweep: calls 0x%lx %lu\n", (unsigned long)(fn[f] & ~(uintptr_t)1),
               (unsigned long)calls[f]);
    printf("ssweep: handler 0x%lx\n",
           (unsigned long)((uintptr_t)BOARD_FAST_TIMER_HANDLER & ~(uintptr_t)1));
    ssweep_report();
    phase_done(1);
    printf("ssweep: done\n");
    return 0;
}
