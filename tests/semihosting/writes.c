/*
 * profile_write() end to end, compiled with -pg, files through semihosting into QEMU's
 * current directory. With the profile timer every SAMPLE_US and a -pg fast timer handler
 * every FAST_US, both landing inside the writes too:
 *   w1.out  after work_a(N_A): work_a -> leaf_a N_A times, nothing of work_b
 *   w2.out  after work_b(N_B): work_b -> leaf_b N_B times, nothing of work_a
 *   w3.out  with the fast timer stopped: what came during w2's write
 *   then work_a(N_C) and three writes refused or failed, which lose nothing:
 *   a path in a directory that does not exist (-ENOENT), from an interrupt handler
 *   (-EPERM); w4.out then holds work_a -> leaf_a N_C times
 *   off.out with profiling off: -ENODATA, no file
 *   big.out: a 64 KiB histogram and 1000 arcs, timed by the test from the console lines
 * The console says each result; the test checks the files against it (samples: the files
 * plus what remains = every sample the timer took; the handler's calls: the files = every
 * call it made). First, check_files() tries the C library's files (stdio.txt).
 */
#include <pkgconf/system.h>
#include <cyg/profile/profile.h>
#include <cyg/hal/board.h>
#include <cyg/hal/profile_arch.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "writes.h"

#define KEEP __attribute__((noinline, noipa))

/* Written by the -pg functions below so the compiler keeps their loops and calls. */
volatile uint32_t sink;
/* Incremented by the fast timer's handler before its call: the true count of its calls. */
volatile uint32_t fast_ticks;
/* The soft interrupt handler's profile_write() result; 1 until it ran. */
volatile int isr_write_rc = 1;

KEEP void leaf_a(int x) { sink += (uint32_t)x; }
KEEP void leaf_b(int x) { sink ^= (uint32_t)x; }
KEEP void work_a(int n)
{
    for (int i = 0; i < n; i++)
        leaf_a(i);
}
KEEP void work_b(int n)
{
    for (int i = 0; i < n; i++)
        leaf_b(i);
}
KEEP void isr_leaf(void) { sink++; }
KEEP void fast_tick(void)
{
    isr_leaf();
    sink += 2;
}

void BOARD_FAST_TIMER_HANDLER(void)
{
    board_fast_timer_ack();
    fast_ticks++;
    fast_tick();
}

void BOARD_SOFT_IRQ_HANDLER(void)
{
    isr_write_rc = profile_write("isr.out");
}

/* 1000 distinct call sites of leaf_a(): 1000 arcs for the big file. */
#define C1 leaf_a(1);
#define C10 C1 C1 C1 C1 C1 C1 C1 C1 C1 C1
#define C100 C10 C10 C10 C10 C10 C10 C10 C10 C10 C10
KEEP void thousand_sites(void) { C100 C100 C100 C100 C100 C100 C100 C100 C100 C100 }

/* profile_write(path), saying its result and the fast timer's count around it. */
static int write_file(const char *path)
{
    uint32_t before = fast_ticks;
    int rc = profile_write(path);
    printf("write %s rc %d ticks %lu %lu\n", path, rc, (unsigned long)before,
           (unsigned long)fast_ticks);
    return rc;
}

int main(void)
{
    extern char _stext[], _etext[];
    /* stdout's buffer first: taken later, it could land in the hole a write leaves (the
     * set it frees), and a board with 16 KiB of RAM then has no room for the next one. */
    printf("writes: profiling %p..%p\n", (void *)_stext, (void *)_etext);
    check_files();
    /* (32-byte buckets: profile_write takes a second set while it writes, and two sets
     * over all the code at 16 bytes a bucket leave a 16 KiB board no room to spare) */
    if (profile_on(_stext, _etext, 32, SAMPLE_US) != 0)
        firmware_failed("profile_on");
    board_fast_timer_start(FAST_US, 0);
    work_a(N_A);
    if (write_file("w1.out") != 0)
        firmware_failed("w1.out");
    work_b(N_B);
    if (write_file("w2.out") != 0)
        firmware_failed("w2.out");
    board_fast_timer_stop();
    printf("fast ticks %lu\n", (unsigned long)fast_ticks);
    if (write_file("w3.out") != 0)
        firmware_failed("w3.out");

    /* Failures and refusals lose nothing: w4.out has all of work_a(N_C). */
    work_a(N_C);
    int rc = write_file("no/such/dir/w.out");
    printf("bad path: %s\n", rc == -ENOENT ? "-ENOENT" : "wrong");
    board_irq_enable(BOARD_SOFT_IRQ, 1);
    board_irq_pend(BOARD_SOFT_IRQ);
    printf("in an interrupt handler: %s\n", isr_write_rc == -EPERM ? "-EPERM" : "wrong");
    if (write_file("w4.out") != 0)
        firmware_failed("w4.out");

    /* Every sample: the files' and what remains, read at one instant. */
    struct profile_stats st;
    hal_profile_irq_state irq = hal_profile_irq_save();
    uint32_t taken = samples_taken;
    int got = profile_get_stats(&st);
    hal_profile_irq_restore(irq);
    if (got != 0)
        firmware_failed("profile_get_stats");
    printf("samples taken %lu remaining %lu\n", (unsigned long)taken, (unsigned long)st.samples);

    profile_off();
    rc = write_file("off.out");
    printf("profiling off: %s\n", rc == -ENODATA ? "-ENODATA" : "wrong");

    /* 512 KiB at 16 bytes a bucket: a 64 KiB histogram, and 1000 arcs (a board with little
     * RAM says it has no room). */
    rc = profile_on(_stext, _stext + 512 * 1024, 16, 1000);
    if (rc == 0) {
        thousand_sites();
        printf("big: writing\n");
        uint64_t start = board_clock_us();
        rc = profile_write("big.out");
        uint64_t us = board_clock_us() - start;
        printf("big: written, rc %d\n", rc);
        printf("big: %lu us of board time\n", (unsigned long)us);
    } else {
        printf("big: no room (%d)\n", rc);
    }
    printf("writes: done\n");
    return 0;
}
