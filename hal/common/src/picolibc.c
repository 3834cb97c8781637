/*
 * picolibc's system interface for every picolibc board: stdin/stdout/stderr on the board's
 * console, time from the board's monotonic clock (time(), gettimeofday(), clock(), times()),
 * and exit through semihosting, so that QEMU (run-qemu enables semihosting) ends with the
 * firmware's exit status. picolibc provides the rest itself: sbrk() on the linker script's
 * [__heap_start, __heap_end), and errno in the TLS block the startup points tp at. Files are
 * not supported (picolibc's open() and friends are not linked unless called; they fail).
 *
 * picolibc descends from newlib; what differs from newlib's glue (syscalls.c) is its stdio,
 * which calls the stream's put/get functions instead of _write/_read.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include <cyg/hal/board.h>
#include <cyg/hal/semihosting.h>

static int console_put(char c, FILE *file)
{
    (void)file;
    board_console_putc(c);
    return (unsigned char)c;
}

static int console_get(FILE *file)
{
    (void)file;
    return board_console_getc();
}

/*
 * The console as one stream for stdin, stdout and stderr: unbuffered in both directions
 * (picolibc's tinystdio hands each character to console_put as it is written). Owned by
 * picolibc's stdio once set up here.
 */
static FILE console = FDEV_SETUP_STREAM(console_put, console_get, NULL, _FDEV_SETUP_RW);

FILE *const stdin = &console;
FILE *const stdout = &console;
FILE *const stderr = &console;

/*
 * Time since reset: there is no calendar clock, so time() counts from the epoch at reset.
 * clock() is picolibc's times()-based one: CLOCKS_PER_SEC ticks of the board clock, all of
 * it user time (the firmware is the only process).
 */
int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    (void)tz;
    if (tv) {
        uint64_t us = board_clock_us();
        tv->tv_sec = (time_t)(us / 1000000u);
        tv->tv_usec = (suseconds_t)(us % 1000000u);
    }
    return 0;
}

clock_t times(struct tms *buf)
{
    clock_t now = (clock_t)(board_clock_us() / (1000000u / CLOCKS_PER_SEC));
    if (buf) {
        buf->tms_utime = now;
        buf->tms_stime = 0;
        buf->tms_cutime = 0;
        buf->tms_cstime = 0;
    }
    return now;
}
_Static_assert(1000000 % CLOCKS_PER_SEC == 0, "times() wants whole microseconds per clock tick");

void _exit(int status)
{
    /* SYS_EXIT_EXTENDED carries the status on 32-bit targets too (SYS_EXIT does not). */
    uintptr_t block[2] = { SEMIHOSTING_ADP_STOPPED_APPLICATION_EXIT, (uintptr_t)status };
    hal_semihosting_call(SEMIHOSTING_SYS_EXIT_EXTENDED, (uintptr_t)block);
    /* Without a semihosting host, stop here. */
    for (;;)
        ;
}
