/*
 * picolibc's system interface for every picolibc board: stdin/stdout/stderr on the board's
 * console, time from the board's monotonic clock (time(), gettimeofday(), clock(), times()),
 * files on the host through semihosting (open(), read(), write(), lseek(), fstat(),
 * isatty(), close(): what fopen() and the rest of stdio call, and profile_write()), and
 * exit through semihosting, so that QEMU (run-qemu enables semihosting) ends with the
 * firmware's exit status. picolibc provides the rest itself: sbrk() on the linker script's
 * [__heap_start, __heap_end), and errno in the TLS block the startup points tp at.
 *
 * picolibc descends from newlib; what differs from newlib's glue (syscalls.c) is its stdio,
 * which calls the stream's put/get functions instead of _write/_read for stdin, stdout and
 * stderr, and its system calls' names, which have no underscore (open, not _open). The
 * files themselves are hostfile.c's, as on the newlib boards: same modes, same errors.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include <cyg/hal/board.h>
#include <cyg/hal/semihosting.h>
#include "hostfile.h"

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

/* ---- files on the host (hostfile.c), and fds 0, 1 and 2 on the console ---------------- */

/* A negative errno from hostfile.c into picolibc's errno: -1. */
static int fail(int neg_errno)
{
    errno = -neg_errno;
    return -1;
}

int open(const char *path, int flags, ...)
{
    int fd = hostfile_open(path, flags);
    return fd < 0 ? fail(fd) : fd;
}

int close(int fd)
{
    int rc = hostfile_close(fd);
    return rc < 0 ? fail(rc) : 0;
}

/* stdio does not come here for stdin/stdout/stderr (their stream is the console's, above),
 * but write(1, ...) and read(0, ...) do, and get the console as on the newlib boards. */
ssize_t write(int fd, const void *buf, size_t len)
{
    if (fd == 1 || fd == 2) {
        const char *p = buf;
        for (size_t i = 0; i < len; i++)
            board_console_putc(p[i]);
        return (ssize_t)len;
    }
    int n = hostfile_write(fd, buf, len);
    return n < 0 ? fail(n) : n;
}

/* The console: wait for one byte, then take whatever else has already arrived. */
ssize_t read(int fd, void *buf, size_t len)
{
    if (fd == 0) {
        char *p = buf;
        size_t n = 0;
        if (len == 0)
            return 0;
        p[n++] = (char)board_console_getc();
        while (n < len && board_console_rx_ready())
            p[n++] = (char)board_console_getc();
        return (ssize_t)n;
    }
    int n = hostfile_read(fd, buf, len);
    return n < 0 ? fail(n) : n;
}

off_t lseek(int fd, off_t offset, int whence)
{
    if (fd >= 0 && fd <= 2)
        return fail(-ESPIPE);
    off_t to = hostfile_lseek(fd, offset, whence);
    return to < 0 ? fail((int)to) : to;
}

int fstat(int fd, struct stat *st)
{
    if (fd >= 0 && fd <= 2) {
        memset(st, 0, sizeof *st);
        st->st_mode = S_IFCHR;
        return 0;
    }
    int rc = hostfile_fstat(fd, st);
    return rc < 0 ? fail(rc) : 0;
}

int isatty(int fd)
{
    if (fd >= 0 && fd <= 2)
        return 1;
    errno = hostfile_is_open(fd) ? ENOTTY : EBADF;
    return 0;
}
