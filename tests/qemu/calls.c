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
/* Incremented by the interrupt handlers (not through mcount): the true call counts.
 * fp_tick_count counts the fast timer's interrupts in the FP phase, tick_count those
 * before it (gdb reads both). */
volatile uint32_t soft_irq_count, tick_count, fp_tick_count;
/* Set by main for the FP phase; read by the fast-timer handler. */
volatile int fp_phase;
/* FP arguments fp_args() found changed (its mask), ORed by main and the fast-timer handler
 * over every call; main checks it after the FP phase. */
volatile unsigned fp_clobbered;

/* The firmware's own serializer output at the end of phase 1, for the gdb comparison:
 * allocated at its size (a board with 16 KiB of RAM has no room for a fixed buffer). */
uint8_t *gmon_copy;
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

/*
 * FP arguments across mcount. Under the hard-float ABI (Cortex-M4F, M7, M33 boards) the
 * arguments below fill all sixteen FP argument registers: a in d0 (s0-s1), b in s2, c in
 * d2, d in s3 (back-filled), e-h in d3-d6, i and j in s14 and s15; the -pg call to mcount
 * comes after the prologue, with all of them live, and nothing may change them (the stub
 * saves no FP register: the package is built never to touch one). fp_args() compares each
 * with what the caller meant to pass, bit for bit (every double has bits in both of its
 * words, so a half-clobbered d register shows), and returns a mask of those that differ:
 * bit 0 for a ... bit 9 for j. On soft-float boards the same values travel in core
 * registers and on the stack, and every count stays the same.
 */
struct fp_case {
    double a;
    float b;
    double c;
    float d;
    double e, f, g, h;
    float i, j;
};
/* The arguments main passes (fp_main_case) and the fast-timer handler passes (fp_tick_case):
 * constants, read by those callers and by fp_args(); different, so that one context's values
 * leaking into the other's show too. */
static const struct fp_case fp_main_case = {
    0x1.0123456789abcp+0, 0x1.2345p-1f, -0x1.fedcba9876543p+3, -0x1.abcdep+7f,
    0x1.5555555555555p-2, 0x1.999999999999ap-4, 0x1.921fb54442d18p+1, 0x1.5bf0a8b145769p+1,
    0x1.e240cp+19f, -0x1.7ffffep-3f,
};
static const struct fp_case fp_tick_case = {
    -0x1.3579bdf02468ap+5, -0x1.8642p+2f, 0x1.0000000000001p+0, 0x1.fffffep+0f,
    -0x1.c71c71c71c71cp-3, 0x1.6a09e667f3bcdp+0, -0x1.62e42fefa39efp-1, 0x1.4cccccccccccdp+2,
    -0x1.99999ap-4f, 0x1.555556p-2f,
};

/* Bit-for-bit comparisons (== would call -0.0 equal to 0.0), through unions rather than
 * memcpy: ARMv6-M's compiler calls memcpy for an 8-byte copy, too slow for the handler. */
static inline unsigned double_differs(double got, const double *want)
{
    union { double d; uint64_t bits; } x = { .d = got }, y = { .d = *want };
    return x.bits != y.bits;
}

static inline unsigned float_differs(float got, const float *want)
{
    union { float f; uint32_t bits; } x = { .f = got }, y = { .f = *want };
    return x.bits != y.bits;
}

KEEP unsigned fp_args(const struct fp_case *want, double a, float b, double c, float d,
                      double e, double f, double g, double h, float i, float j)
{
    return double_differs(a, &want->a) << 0 | float_differs(b, &want->b) << 1 |
           double_differs(c, &want->c) << 2 | float_differs(d, &want->d) << 3 |
           double_differs(e, &want->e) << 4 | double_differs(f, &want->f) << 5 |
           double_differs(g, &want->g) << 6 | double_differs(h, &want->h) << 7 |
           float_differs(i, &want->i) << 8 | float_differs(j, &want->j) << 9;
}

#define FP_ARGS(k) \
    fp_args(&(k), (k).a, (k).b, (k).c, (k).d, (k).e, (k).f, (k).g, (k).h, (k).i, (k).j)

/* The fast timer: preempts everything else, including main's mcount calls. In the FP
 * phase it calls fp_args() with arguments of its own, so that its FP register use (lazily
 * stacked for main on its first FP instruction) lands inside main's fp_args() mcount calls. */
void BOARD_FAST_TIMER_HANDLER(void)
{
    board_fast_timer_ack();
    if (fp_phase) {
        fp_clobbered |= FP_ARGS(fp_tick_case);
        fp_tick_count++;
        return;
    }
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
    size_t size = profile_gmon_size(&r);
    gmon_copy = malloc(size);
    if (!gmon_copy)
        firmware_failed("no memory for gmon_copy");
    gmon_copy_len = (uint32_t)profile_gmon_read(&r, 0, gmon_copy, size);
    if (gmon_copy_len != size)
        firmware_failed("gmon_copy short");
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
        profile_on(_stext, _stext + (256u << 20), 1, 100) != -ENOMEM || /* 128 MiB of bins */
        profile_get_stats(&st) != -ENODATA)
        firmware_failed("profile_on bad arguments");
    int rc = profile_on(_stext, _etext, 16, 100);
    if (rc != 0)
        firmware_failed("profile_on");
    printf("calls: profiling %p..%p\n", (void *)_stext, (void *)_etext);
    check_libc_time();

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
    /* FP arguments across mcount: once alone (gdb's ABI check stops here), then with the
     * fast-timer handler calling fp_args() too, preempting main's calls anywhere. */
    if (FP_ARGS(fp_main_case) != 0)
        firmware_failed("fp_args: mcount clobbered an FP argument register");
    fp_phase = 1;
    board_fast_timer_start(FP_TIMER_US, 0);
    for (int i = 0; i < N_FP_ARGS; i++)
        fp_clobbered |= FP_ARGS(fp_main_case);
    board_fast_timer_stop();
    if (fp_clobbered != 0)
        firmware_failed("fp_args: an FP argument changed across mcount or an interrupt");
    if (soft_irq_count != N_SOFT_IRQ)
        firmware_failed("soft irq count");
    printf("calls: phase 1 done, %u ticks, %u in the FP phase\n", (unsigned)tick_count,
           (unsigned)fp_tick_count);
    snapshot_phase1();

    site_a();
    phase_done(2);
    printf("calls: done\n");
    return 0;
}
