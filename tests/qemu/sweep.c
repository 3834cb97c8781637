/*
 * The halting sweep's firmware, compiled with -pg (tests/qemu/test_sweep.py): rounds of
 * snapshot transfers through the package's own snapshot API, the path the TFTP daemon
 * takes, without a network, so that a debugger can halt it at chosen instructions and
 * nothing outside changes: while a transfer reads its snapshot block by block, main goes
 * on calling work(), and a fast timer interrupt (a -pg handler) nests anywhere, including
 * inside the package's own code. Transfers are delivered and abandoned (merged back) in
 * turn, and after each the data is discarded by profile_reset() and by profile_on()
 * (sweep_discard counts what they discard). The fast timer's handler also tries profile_on() and profile_off(), which an
 * interrupt handler may not do: both must be refused and change nothing.
 *
 * Two ranges are profiled (profile_on_ranges): the first half of the code and its last
 * quarter; samples and call sites in the quarter between are outside. In every round,
 * SWEEP_HOT buckets go past 0xFFFF before the transfer (the snapshot holds them) and
 * during it (the live set too), so that the overflow entries' paths are swept as well.
 *
 * The true counts, kept apart from the package: sweep_samples_taken (every profile timer
 * interrupt), calls_main and calls_isr (every call of a -pg function after profile_on).
 */
#include <pkgconf/system.h>
#include <cyg/profile/profile.h>
#include <cyg/profile/gmon.h>
#include <cyg/hal/board.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include "calls.h"
#include "sweep.h"

#define KEEP __attribute__((noinline, noipa))

/* Written by the -pg functions so that the compiler keeps their calls. */
volatile uint32_t sink;
/* The true call counts: main's -pg calls, and the fast timer handler's (its own call
 * included). Two counters: an increment in main may be interrupted by the handler's. */
volatile uint32_t calls_main, calls_isr;
/* What profile_on() and profile_off() returned in the handler (1: not tried yet). */
volatile int isr_on_rc = 1, isr_off_rc = 1;

KEEP void leaf(int x) { calls_main++; sink += (uint32_t)x; }

KEEP void work(void)
{
    calls_main++;
    for (int i = 0; i < 8; i++)
        leaf(i);
}

KEEP void isr_leaf(void) { calls_isr++; sink ^= 1; }

void BOARD_FAST_TIMER_HANDLER(void)
{
    calls_isr++;
    board_fast_timer_ack();
    isr_leaf();
    if (isr_on_rc == 1) {
        extern char _stext[], _etext[];
        isr_on_rc = profile_on(_stext, _etext, 4, 1000);
        isr_off_rc = profile_off();
    }
}

/* The buckets brought past 0xFFFF: after the package's own code, in the first range, and
 * in the second. Owned by main (set once), read by between_blocks. */
static uintptr_t hot_pc[SWEEP_HOT];
/* Which of them the next block of a transfer brings past 0xFFFF: set by main before each
 * transfer, counted up by between_blocks (main's context only). */
static unsigned block;
/* A call site between the two ranges (set once by main): a call from there is not
 * recorded, counted in the header (the arcs' slow path; the fast timer's handler, a -pg
 * handler, has its entry recorded as an arc from the interrupt entry on Cortex-M). */
static uintptr_t gap_site;

static void between_blocks(void)
{
    calls_main++;
    work();
    calls_main++;
    __profile_mcount(gap_site, (uintptr_t)work);
    sweep_overflow(hot_pc[block++ % SWEEP_HOT]);
}

int main(void)
{
    extern char _stext[], _etext[], __profile_text_end[];
    /* The first half of the code and its last quarter: samples and call sites in the
     * quarter between are counted as outside the ranges (the slow paths run too). */
    char *mid = _stext + ((_etext - _stext) / 2 & ~(uintptr_t)15);
    char *q3 = _stext + ((_etext - _stext) / 4 * 3 & ~(uintptr_t)15);
    const struct profile_range ranges[2] = { { q3, _etext }, { _stext, mid } };
    struct profile_gmon_reader r;
    for (int i = 0; i < 8; i++)   /* (one pass per instruction of the path for the sweep) */
        if (profile_snapshot_take(&r) != -ENODATA)
            firmware_failed("a snapshot while profiling is off");
    gap_site = (uintptr_t)mid + 64;
    /* -pg calls with profiling off: the mcount stub's gate path, halted at too; nothing is
     * recorded, so they are not in the true count. */
    uint32_t calls_before = calls_main;
    for (int i = 0; i < 8; i++)
        work();
    calls_main = calls_before;
    for (int i = 0; i < SWEEP_HOT; i++)
        hot_pc[i] = i % 2 ? (uintptr_t)q3 + 64 * i : (uintptr_t)__profile_text_end + 64 * i;
    if (profile_on_ranges(ranges, 2, 16, SWEEP_SAMPLE_US) != 0)
        firmware_failed("profile_on_ranges");
    printf("sweep: profiling %p..%p and %p..%p\n", (void *)_stext, (void *)mid, (void *)q3,
           (void *)_etext);
    board_fast_timer_start(SWEEP_FAST_US, 0);
    while (isr_on_rc == 1)
        work();
    struct profile_stats st;
    if (isr_on_rc != -EPERM || isr_off_rc != -EPERM || profile_get_stats(&st) != 0)
        firmware_failed("profile_on/profile_off in an interrupt handler: not refused");
    printf("sweep: in an interrupt handler profile_on: %d, profile_off: %d\n", isr_on_rc,
           isr_off_rc);

    for (int round = 0; round < SWEEP_ROUNDS; round++) {
        /* (newlib's stdio, linked after the package and the application, lies in the
         * quarter between the ranges: samples outside them in every round, not only when
         * the two lines printed above happen to be sampled there) */
        printf("sweep: round %d\n", round);
        for (int i = 0; i < SWEEP_WORK; i++)
            work();
        calls_main += sweep_crowd((uintptr_t)_stext + 64, (uintptr_t)leaf);
        for (int i = 0; i < SWEEP_HOT; i++)
            sweep_overflow(hot_pc[(round + i) % SWEEP_HOT]);
        block = (unsigned)round;
        sweep_transfer(round % 2, between_blocks);
        /* profile_reset(), then profile_on_ranges() again: their sections are swept too
         * (profile_on_ranges's, longer than the rounds, three times) */
        sweep_discard(NULL);
        for (int i = 0; i < 3; i++)
            sweep_discard(ranges);
    }
    board_fast_timer_stop();
    printf("sweep: %u transfers delivered\n", (unsigned)sweep_delivered.files);
    phase_done(1);
    printf("sweep: done\n");
    return 0;
}
