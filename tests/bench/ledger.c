/*
 * The Dhrystone-like workload's firmware (tests/bench/ledger.h), built without -pg itself:
 * the workload without -pg and with it (in the stack mode's configuration, with
 * -finstrument-functions too), profiled over all the code as an application would be,
 * timed by the board clock (QEMU -icount: instructions). tests/bench/bench-ledger reads
 * ledger_figures at ledger_done.
 */
#include <cyg/hal/board.h>
#include <cyg/profile/profile.h>
#include <stdint.h>
#include <stdio.h>

#define LEDGER_PASSES 2000
/* The profile timer's period: a common one for an application (the README's is 3491). */
#define LEDGER_SAMPLE_US 1000

uint32_t ledger_plain_run(uint32_t passes), ledger_pg_run(uint32_t passes);

/* Filled in main for the bench script: the board clock ticks of each run, their results
 * (which must agree), and the -pg run's samples, the profiler's own among them. */
struct ledger_figure {
    uint64_t ticks_plain, ticks_pg;
    uint32_t result_plain, result_pg;
    uint32_t clock_hz;
    uint32_t samples, samples_overhead;
    int32_t profile_on_rc;
};
struct ledger_figure ledger_figures;

__attribute__((noinline)) void ledger_done(void) { __asm__ volatile("" : : : "memory"); }

int main(void)
{
    extern char _stext[], _etext[];
    struct ledger_figure *f = &ledger_figures;
    f->profile_on_rc = profile_on(_stext, _etext, 16, LEDGER_SAMPLE_US);
    uint64_t t0 = board_clock_ticks();
    f->result_plain = ledger_plain_run(LEDGER_PASSES);
    uint64_t t1 = board_clock_ticks();
    profile_reset();
    uint64_t t2 = board_clock_ticks();
    f->result_pg = ledger_pg_run(LEDGER_PASSES);
    uint64_t t3 = board_clock_ticks();
    struct profile_stats st;
    if (profile_get_stats(&st) == 0) {
        f->samples = st.samples;
        f->samples_overhead = st.samples_overhead;
    }
    f->ticks_plain = t1 - t0;
    f->ticks_pg = t3 - t2;
    f->clock_hz = BOARD_CLOCK_HZ;
    ledger_done();
    return 0;
}
