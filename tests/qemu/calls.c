/*
 * End-to-end firmware with a known call structure (tests/qemu/calls.h), compiled with -pg.
 * Phase 1 exercises every kind of arc; the test stops at phase_done(1), extracts, resets,
 * and phase 2 calls site_a() only, so the second file must hold exactly that.
 * The fast-timer handler and main's loop both call shared(): one arc updated from two
 * contexts, so a lost update (no interrupt masking in mcount) shows in its count.
 */
#include <pkgconf/system.h>
#ifdef CYGPKG_PROFILE_GPROF
# include <cyg/profile/profile.h>
# include <cyg/profile/gmon.h>
#endif
#include <cyg/hal/board.h>
#include <cyg/hal/profile_arch.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "calls.h"

/* No inlining, no interprocedural shortcuts (GCC would hoist calls to pure functions out
 * of loops): every call in the source is a call at run time. */
#define KEEP __attribute__((noinline, noipa))

/* Written by the -pg functions below so the compiler keeps their loops and calls. */
volatile uint32_t sink;
/* Incremented by the interrupt handlers (not through mcount): the true call counts. */
volatile uint32_t soft_irq_count, tick_count;

/* The firmware's own serializer output at the end of phase 1, for the gdb comparison. */
uint8_t gmon_copy[48 * 1024];
uint32_t gmon_copy_len;

KEEP void leaf(int x) { sink += (uint32_t)x; }

KEEP void site_a(void)
{
    for (int i = 0; i < N_SITE_A; i++)
        leaf(i);
}

KEEP void site_b(void)
{
    for (int i = 0; i < N_SITE_B; i++)
        leaf(i);
}

KEEP int recurse(int n)
{
    if (n <= 1)
        return 1;
    int r = recurse(n - 1);
    sink ^= (uint32_t)r;  /* keeps it a real recursion (no accumulator loop) */
    return n + r;
}

KEEP void isr_work(void) { sink++; }
KEEP void tick_work(void) { sink += 2; }

/* One arc, shared -> shared_leaf, updated from two contexts: the hammer loop in main and
 * the fast-timer handler, which preempts main anywhere, including inside the mcount call
 * that is updating this very arc. Without the interrupt masking in __profile_mcount the
 * handler's increment is lost when it lands between main's load and store of the count.
 * The count after shared_leaf() keeps the call from being a tail call. */
KEEP void shared_leaf(void) { sink += 3; }
KEEP void shared(void)
{
    shared_leaf();
    sink ^= 4;
}

/* The software-pended interrupt. The counts come after the calls so that the calls are
 * not tail calls (a tail call from a handler has the exception return as its caller). */
void BOARD_SOFT_IRQ_HANDLER(void)
{
    isr_work();
    soft_irq_count++;
}

/* The fast timer: preempts everything else, including main's mcount calls. */
void BOARD_FAST_TIMER_HANDLER(void)
{
    board_fast_timer_ack();
    tick_work();
    shared();
    tick_count++;
}

/* Aligned so that histogram buckets never straddle the two. */
__attribute__((noinline, noipa, aligned(64))) void work1(void)
{
    for (uint32_t i = 0; i < WORK_UNIT; i++)
        sink += i;
}

__attribute__((noinline, noipa, aligned(64))) void work3(void)
{
    for (uint32_t i = 0; i < 3 * WORK_UNIT; i++)
        sink += i;
}

/* mcount must hand all four argument registers through untouched. */
KEEP int args4(int a, int b, int c, int d)
{
    return a + 10 * b + 100 * c + 1000 * d;
}

KEEP void hammer(void) { sink ^= 1; }

static void snapshot_phase1(void)
{
    /* Interrupts stay masked until the debugger has read the same state. */
    hal_profile_irq_state irq = hal_profile_irq_save();
    struct profile_gmon_reader r;
    profile_gmon_reader_init(&r);
    gmon_copy_len = (uint32_t)profile_gmon_read(&r, 0, gmon_copy, sizeof gmon_copy);
    if (gmon_copy_len != profile_gmon_size(&r))
        firmware_failed("gmon_copy too small");
    phase_done(1);
    hal_profile_irq_restore(irq);
}

int main(void)
{
    extern char _stext[], _etext[];
    /* Bad arguments and memory that cannot be had: an error, profiling left off. */
    struct profile_stats st;
    if (profile_on(_etext, _stext, 16, 100) != -EINVAL ||
        profile_on(_stext, _etext, 0, 100) != -EINVAL ||
        profile_on(_stext, _etext, 16, 0) != -EINVAL ||
        profile_on(_stext, _stext + (64u << 20), 1, 100) != -ENOMEM ||  /* 128 MiB of bins */
        profile_get_stats(&st) != -ENODATA)
        firmware_failed("profile_on bad arguments");
    int rc = profile_on(_stext, _etext, 16, 100);
    if (rc != 0)
        firmware_failed("profile_on");
    printf("calls: profiling %p..%p\n", (void *)_stext, (void *)_etext);

    site_a();
    site_b();
    for (int i = 0; i < N_RECURSE; i++)
        if (recurse(DEPTH) != DEPTH * (DEPTH + 1) / 2)
            firmware_failed("recurse");
    board_irq_enable(BOARD_SOFT_IRQ, 2);
    for (int i = 0; i < N_SOFT_IRQ; i++)
        board_irq_pend(BOARD_SOFT_IRQ);
    for (int i = 0; i < N_WORK; i++) {
        work1();
        work3();
    }
    if (args4(1, 2, 3, 4) != 4321)
        firmware_failed("args4: mcount clobbered an argument register");
    /* Every FAST_TIMER_US, the highest priority: often enough that the handler lands
     * inside main's mcount calls many times, rarely enough that it does not starve main. */
    board_fast_timer_start(FAST_TIMER_US, 0);
    for (int i = 0; i < N_HAMMER; i++) {
        hammer();
        shared();
    }
    board_fast_timer_stop();
    if (soft_irq_count != N_SOFT_IRQ)
        firmware_failed("soft irq count");
    printf("calls: phase 1 done, %u ticks\n", (unsigned)tick_count);
    snapshot_phase1();

    site_a();
    phase_done(2);
    printf("calls: done\n");
    return 0;
}
