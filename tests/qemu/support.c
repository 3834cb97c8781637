/* Compiled without -pg: places where the gdb-driven tests stop the firmware, and checks
 * that add no arcs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <cyg/hal/board.h>
#include "calls.h"

__attribute__((noinline)) void phase_done(int phase)
{
    __asm__ volatile("" : : "r"(phase) : "memory");
}

__attribute__((noinline)) void firmware_failed(const char *what)
{
    printf("FIRMWARE FAILED: %s\n", what);
    exit(1);
}

/*
 * time(), clock() and gettimeofday() work (the C library's glue runs them on the board
 * clock, as a Dhrystone-style benchmark needs): over 30 ms of board time, gettimeofday()
 * advances by 30 ms or more but no more than the board clock did, clock() by the same to
 * within one of its ticks, and time() is gettimeofday()'s seconds.
 */
void check_libc_time(void)
{
    const long span_us = 30000, tick_us = 1000000 / CLOCKS_PER_SEC;
    struct timeval tv0, tv1;
    /* [before, after]: board time around the C library's first readings and around its
     * last; in between, at least span_us from the first. */
    uint64_t before = board_clock_us();
    clock_t c0 = clock();
    gettimeofday(&tv0, NULL);
    uint64_t start = board_clock_us();
    while (board_clock_us() - start < (uint64_t)span_us)
        ;
    gettimeofday(&tv1, NULL);
    clock_t c1 = clock();
    time_t t1 = time(NULL);
    long outer = (long)(board_clock_us() - before);
    long tv_us = (long)(tv1.tv_sec - tv0.tv_sec) * 1000000L + (long)(tv1.tv_usec - tv0.tv_usec);
    long clk_us = (long)(c1 - c0) * tick_us;
    if (tv_us < span_us || tv_us > outer)
        firmware_failed("gettimeofday does not follow the board clock");
    if (clk_us < span_us - tick_us || clk_us > outer + tick_us)
        firmware_failed("clock does not follow the board clock");
    if (t1 != tv1.tv_sec && t1 != tv1.tv_sec + 1)
        firmware_failed("time is not gettimeofday's seconds");
    printf("calls: C library time ok: clock() %ld us, gettimeofday() %ld us, board %ld us\n",
           clk_us, tv_us, outer);
}
