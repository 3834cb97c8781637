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

static void between_blocks(void)
{
    calls_main++;
    work();
}

int main(void)
{
    extern char _stext[], _etext[];
    /* The first half of the code: samples and call sites in the other half are counted
     * as outside the range (the slow paths run too). */
    char *mid = _stext + ((_etext - _stext) / 2 & ~(uintptr_t)15);
    struct profile_gmon_reader r;
    for (int i = 0; i < 8; i++)   /* (one pass per instruction of the path for the sweep) */
        if (profile_snapshot_take(&r) != -ENODATA)
            firmware_failed("a snapshot while profiling is off");
    if (profile_on(_stext, mid, 16, SWEEP_SAMPLE_US) != 0)
        firmware_failed("profile_on");
    printf("sweep: profiling %p..%p\n", (void *)_stext, (void *)mid);
    board_fast_timer_start(SWEEP_FAST_US, 0);
    while (isr_on_rc == 1)
        work();
    struct profile_stats st;
    if (isr_on_rc != -EPERM || isr_off_rc != -EPERM || profile_get_stats(&st) != 0)
        firmware_failed("profile_on/profile_off in an interrupt handler: not refused");
    printf("sweep: in an interrupt handler profile_on: %d, profile_off: %d\n", isr_on_rc,
           isr_off_rc);

    for (int round = 0; round < SWEEP_ROUNDS; round++) {
        for (int i = 0; i < SWEEP_WORK; i++)
            work();
        sweep_transfer(round % 2, between_blocks);
        /* profile_reset(), then profile_on() again: their sections are swept too */
        sweep_discard(NULL, mid);
        sweep_discard(_stext, mid);
    }
    board_fast_timer_stop();
    printf("sweep: %u transfers delivered\n", (unsigned)sweep_delivered.files);
    phase_done(1);
    printf("sweep: done\n");
    return 0;
}
