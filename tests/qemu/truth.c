/*
 * The truth oracle's workload (tests/qemu/test_truth.py): a strictly periodic loop, the kind
 * of program a fixed sampling period aliases with: one iteration every tick of 1 ms (the
 * board's fast timer, the usual RTOS tick), as an RTOS task woken by it, then idle() until
 * the next. Built at -O2 as an
 * application would be (small helpers inlined; nothing marked noinline).
 *
 * Each iteration of the loop (between two truth_mark() calls) runs the same instructions:
 *   - flat_1, flat_3, flat_6: loops of about 1, 3 and 6 units of work, and flat_0, nearly
 *     nothing (the shares the outside check found aliased: 0 : 1 : 3 : 6);
 *   - ram_2: 2 units, in RAM (.ramfunc): a second range;
 *   - caller_a, caller_b, caller_c: each calls leaf() with the same work: its three paths
 *     must get equal shares in the stack mode;
 *   - outer: calls helper(), a static inline function that GCC inlines but still hooks
 *     (-finstrument-functions), which calls leaf(): the path main;outer;helper;leaf.
 * gdb traces one iteration instruction by instruction (the truth) and fetches gmon.out
 * (and gmon.stacks) at each truth_done(phase):
 *   1: profile_on(_stext, _etext, 16, 1000): a round interval, the usual RTOS tick;
 *   2: the same at 100 us;
 *   3: flash and .ramfunc (profile_on_ranges), 16-byte buckets, 100 us;
 *   4: the autostart's default interval (CYGNUM_PROFILE_AUTOSTART_INTERVAL_US).
 * Each phase runs until it has taken truth_samples samples.
 */
#include <pkgconf/system.h>
#include <pkgconf/profile_gprof.h>
#include <cyg/profile/profile.h>
#include <stdint.h>
#include <cyg/hal/board.h>

#define TICK_US 1000
#define TRACED 64

#ifndef CYGNUM_PROFILE_AUTOSTART_INTERVAL_US
#define CYGNUM_PROFILE_AUTOSTART_INTERVAL_US 1000
#endif

void truth_trace(void);            /* truth_support.c: where gdb starts a trace */
void truth_mark(void);             /* where it ends it */
void truth_begin(void);            /* where the traced tick begins, after the resync */
void truth_done(int phase);        /* where gdb fetches */
void firmware_failed(const char *what);
extern char _stext[], _etext[], _sramfunc[], _eramfunc[];

/* Samples each phase takes (gdb may set another figure). */
volatile uint32_t truth_samples = 20000;
/* Set by gdb where it stops before the traced iteration. */
volatile uint32_t truth_resync;


volatile uint32_t truth_sink;

/* Called from caller_a, caller_b, caller_c and helper (truth_work.c): the same work each. */
void leaf(void)
{
    uint32_t x = truth_sink;
    for (uint32_t i = 0; i < 100; i++)
        x = (x ^ (x >> 7)) * 0x2545F491u + 0x9E37u + i;
    truth_sink = x;
}

void flat_0(void);
void flat_1(void);
void flat_3(void);
void flat_6(void);
void ram_2(void);
void caller_a(void);
void caller_b(void);
void caller_c(void);
void outer(void);
uint32_t idle(volatile uint32_t *ticks, uint32_t seen);
extern volatile uint32_t ticks;      /* truth_support.c: the tick's count */

static void iteration(void)
{
    flat_0();
    flat_1();
    flat_3();
    flat_6();
    ram_2();
    caller_a();
    caller_b();
    caller_c();
    outer();
}

/* Runs the loop, one iteration a tick, until the phase has truth_samples samples, then stops
 * at truth_done. gdb stops at the truth_mark after the TRACED-th truth_trace() and traces
 * to the next; the trace counts from truth_begin, after the resync, which only the traced
 * tick runs: one tick, which starts again there, less the resync flag's test (a few
 * instructions of run's). */
static void run(int phase)
{
    uint32_t n = 0, seen = ticks;
    struct profile_stats st;
    do {
        if (++n == TRACED)
            truth_trace();
        seen = idle(&ticks, seen);
        truth_mark();
        if (truth_resync) {
            /* gdb stopped the firmware at this truth_mark, which may move QEMU's clock on:
             * the tick starts again, so that the traced one is whole */
            truth_resync = 0;
            board_fast_timer_start(TICK_US, 1);
            seen = ticks;
        }
        truth_begin();
        iteration();
        if (profile_get_stats(&st) != 0)
            firmware_failed("profile_get_stats");
    } while (st.samples < truth_samples);
    truth_done(phase);
}

int main(void)
{
    /* (phase 5: 10 us asked, which each HAL raises to its shortest interval) */
    static const int interval[6] = { 0, 1000, 100, 100, CYGNUM_PROFILE_AUTOSTART_INTERVAL_US,
                                     10 };
    if (board_fast_timer_start(TICK_US, 1) != TICK_US)
        firmware_failed("board_fast_timer_start");
    for (int phase = 1; phase <= 5; phase++) {
        int rc;
        if (phase == 3) {
            struct profile_range r[2] = { { _stext, _etext }, { _sramfunc, _eramfunc } };
            rc = profile_on_ranges(r, 2, 16, interval[phase]);
        } else {
            rc = profile_on(_stext, _etext, 16, interval[phase]);
        }
        if (rc != 0)
            firmware_failed("profile_on");
        run(phase);
    }
    profile_off();
    return 0;
}
