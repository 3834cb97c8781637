/*
 * Benchmark firmware (compiled with -pg). The bench script drives it with gdb:
 *  - counts instructions of one mcount path by single-stepping empty() (profiling off, a
 *    new arc, then an existing arc) and one timer sample by single-stepping the profile timer's handler,
 *  - reads the memory profile_on allocated for several ranges (alloc_bytes[]),
 *  - times gprof_fetch of a 64 KiB histogram with 1000 arcs,
 *  - runs a call-heavy workload (work.h) without and with -pg, timed by the board clock
 *    (QEMU -icount: instructions), and the script prints the ratio; the same with
 *    profiling off;
 *  - for tests/qemu/test_overhead.py (gdb sets overhead_calls), runs the -pg workload
 *    under a fast profile timer between two markers, where the test traces every
 *    instruction: the profiler's share of the samples against its share of the time.
 */
#include <cyg/hal/board.h>
#include <cyg/profile/profile.h>
#include <stdint.h>
#include <stdio.h>

/* Written by the code under test so that it is kept; read by nobody. */
volatile uint32_t bench_sink;

/* Filled in main for the bench script: bytes profile_on allocated for each range. */
const uint32_t alloc_ranges[] = { 16 * 1024, 64 * 1024, 256 * 1024, 512 * 1024, 1024 * 1024 };
uint32_t alloc_bytes[sizeof alloc_ranges / sizeof alloc_ranges[0]];
uint32_t alloc_arcs[sizeof alloc_ranges / sizeof alloc_ranges[0]];

__attribute__((noinline)) void empty(void) { __asm__ volatile(""); }
/* One call site, run three times: the script closes the mcount gate for the first call
 * (the path with profiling off, stepped while the profile timer runs: on RISC-V virt gdb's
 * single-step does not come back while it is stopped), the second makes the arc, the
 * third finds it at its home slot (nothing else is recorded in between). */
volatile int bench_calls = 3;
__attribute__((noinline, noipa)) void call_empty(void)
{
    for (int i = 0; i < bench_calls; i++)
        empty();
}
__attribute__((noinline)) void leaf(void) { bench_sink++; }

/* 1000 distinct call sites of leaf(): 1000 arcs. */
#define C1 leaf();
#define C10 C1 C1 C1 C1 C1 C1 C1 C1 C1 C1
#define C100 C10 C10 C10 C10 C10 C10 C10 C10 C10 C10
__attribute__((noinline)) void thousand_sites(void) { C100 C100 C100 C100 C100 C100 C100 C100 C100 C100 }

__attribute__((noinline)) void bench_mark(int step) { __asm__ volatile("" : : "r"(step) : "memory"); }

/* The workload (tests/bench/work.h), the same code built without -pg (work_plain.c) and
 * with it (work_pg.c): the call-heavy rounds, and the fan-out pair (30 call sites to 30
 * callees, one call site 30 times). Filled in main for the bench script: the board clock
 * ticks each took without and with -pg (QEMU -icount: instructions), and their results,
 * which must agree. */
uint32_t work_plain_run(void), work_pg_run(void);
uint32_t work_plain_O0_run(void), work_pg_O0_run(void);
uint32_t work_plain_run_fan30(void), work_pg_run_fan30(void);
uint32_t work_plain_run_fan1(void), work_pg_run_fan1(void);
struct work_figure {
    uint64_t ticks_plain, ticks_pg;
    uint32_t result_plain, result_pg;
    uint32_t clock_hz;                /* BOARD_CLOCK_HZ: ticks per second */
};
struct work_figure work_figures[5];   /* the rounds (-O2, -O0), fan-out 30, fan-out 1, and
                                         the -O2 rounds with profiling off */

/* Each measurement starts with an empty arc table (a board with little RAM has a small one). */
static void work_measure(struct work_figure *f, uint32_t (*plain)(void), uint32_t (*pg)(void))
{
    profile_reset();
    uint64_t t0 = board_clock_ticks();
    f->result_plain = plain();
    uint64_t t1 = board_clock_ticks();
    f->result_pg = pg();
    uint64_t t2 = board_clock_ticks();
    f->ticks_plain = t1 - t0;
    f->ticks_pg = t2 - t1;
    f->clock_hz = BOARD_CLOCK_HZ;
}

/* tests/qemu/test_overhead.py: the calls of the mixed workload (work.h) it asks for (set
 * with gdb; 0: none), its markers, and what profile_get_stats() said right after them. */
#define OVERHEAD_SAMPLE_US 10
volatile uint32_t overhead_calls;
uint32_t work_pg_run_mixed(uint32_t n, uint32_t seed);
struct profile_stats overhead_stats;
__attribute__((noinline)) void overhead_begin(void) { __asm__ volatile("" : : : "memory"); }
__attribute__((noinline)) void overhead_end(void) { __asm__ volatile("" : : : "memory"); }
__attribute__((noinline)) void overhead_done(void) { __asm__ volatile("" : : : "memory"); }

__attribute__((noinline)) void spin(uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        bench_sink += i;
}

int main(void)
{
    extern char _stext[];
    for (unsigned i = 0; i < sizeof alloc_ranges / sizeof alloc_ranges[0]; i++) {
        struct profile_stats st;
        if (profile_on(_stext, _stext + alloc_ranges[i], 16, 1000) == 0 &&
            profile_get_stats(&st) == 0) {
            alloc_bytes[i] = st.bytes_allocated;
            alloc_arcs[i] = st.arcs_capacity;
        }
        profile_off();
    }
    /* Profiling off (stopped; never started and a failed profile_on leave the same closed
     * gate): the workload with and without -pg. */
    work_measure(&work_figures[4], work_plain_run, work_pg_run);
    /* 512 KiB at 16 bytes a bucket: a 64 KiB histogram; a board with little RAM gets the
     * largest of 64 KiB and 16 KiB that fits. */
    static const uint32_t fetch_ranges[] = { 512 * 1024, 64 * 1024, 16 * 1024 };
    unsigned f = 0;
    while (f < sizeof fetch_ranges / sizeof fetch_ranges[0] &&
           profile_on(_stext, _stext + fetch_ranges[f], 16, 100) != 0)
        f++;
    if (f == sizeof fetch_ranges / sizeof fetch_ranges[0])
        printf("bench: profile_on failed\n");
    else
        printf("bench: profiling %u KiB\n", (unsigned)(fetch_ranges[f] / 1024));
    bench_mark(1);   /* the script single-steps the two calls below */
    call_empty();
    bench_mark(2);
    thousand_sites();
    spin(200000);    /* timer samples */
    bench_mark(3);   /* the script steps one timer interrupt, then times gprof_fetch */
    spin(2000000);
    /* A sample in a range that is not the largest (profile_on_ranges): the 256 bytes
     * around spin between the code before and after them, the slow half's path. */
    extern char _etext[];
    char *at = (char *)(((uintptr_t)spin & ~(uintptr_t)1) & ~(uintptr_t)15);
    const struct profile_range around_spin[3] = {
        { at, at + 256 }, { _stext, at }, { at + 256, _etext },
    };
    if (profile_on_ranges(around_spin, at > _stext ? 3 : 1, 16, 100) != 0)
        printf("bench: profile_on_ranges around spin failed\n");
    bench_mark(8);   /* the script steps one timer interrupt in spin's range */
    spin(2000000);
    /* The workload profiled as an application would be: all of its code, _stext.._etext,
     * with the arc table the formula gives for that (so the -pg copy's calls are all in
     * the range, on a board with a small heap too). */
    if (profile_on(_stext, _etext, 16, 100) != 0)
        printf("bench: profile_on(_stext, _etext) failed\n");
    bench_mark(4);
    work_measure(&work_figures[0], work_plain_run, work_pg_run);
    bench_mark(5);   /* the script fetches the -O2 workload's profile */
    work_measure(&work_figures[1], work_plain_O0_run, work_pg_O0_run);
    bench_mark(6);   /* the script fetches the -O0 workload's profile */
    work_measure(&work_figures[2], work_plain_run_fan30, work_pg_run_fan30);
    work_measure(&work_figures[3], work_plain_run_fan1, work_pg_run_fan1);
    bench_mark(7);   /* the script reads the figures */
    if (overhead_calls) {
        if (profile_on(_stext, _etext, 16, OVERHEAD_SAMPLE_US) != 0)
            printf("bench: profile_on for the overhead rounds failed\n");
        work_pg_run();   /* sets the records up */
        overhead_begin();
        work_pg_run_mixed(overhead_calls, 2463534242u);
        overhead_end();
        profile_get_stats(&overhead_stats);
        overhead_done();
    }
    return 0;
}
