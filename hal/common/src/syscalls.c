/*
 * newlib's system calls for every newlib board: stdin/stdout/stderr on the board's console,
 * the heap between the end of .bss and the stack (the linker script's __heap_start and
 * __heap_end), time from the board's monotonic clock (time(), clock(), gettimeofday(),
 * times()), files on the host through semihosting (open(), read(), write(), lseek(),
 * fstat(), close(), and so fopen() and the rest of stdio), and exit through semihosting, so
 * that QEMU (run-qemu enables semihosting) ends with the firmware's exit status.
 *
 * The files are hostfile.c's, shared with picolibc's glue: this file gives them newlib's
 * names (_open, ...) and errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <cyg/hal/board.h>
#include <cyg/hal/semihosting.h>
#include "hostfile.h"

#undef errno
extern int errno;

/* Linker script symbols: the heap is [__heap_start, __heap_end). */
extern char __heap_start[], __heap_end[];

/* A negative errno from hostfile.c into newlib's errno: -1. */
static int fail(int neg_errno)
{
    errno = -neg_errno;
    return -1;
}

/* Files on the host: hostfile.c (their flags, modes and errors: doc/libc.md). */
int _open(const char *path, int flags, ...)
{
    int fd = hostfile_open(path, flags);
    return fd < 0 ? fail(fd) : fd;
}

int _close(int fd)
{
    int rc = hostfile_close(fd);
    return rc < 0 ? fail(rc) : 0;
}

int _write(int fd, const void *buf, size_t len)
{
    if (fd > 2) {
        int n = hostfile_write(fd, buf, len);
        return n < 0 ? fail(n) : n;
    }
    /* stdout and stderr both go to the console */
    const char *p = buf;
    for (size_t i = 0; i < len; i++)
        board_console_putc(p[i]);
    return (int)len;
}

/* The console: wait for one byte, then take whatever else has already arrived. */
int _read(int fd, void *buf, size_t len)
{
    if (fd > 2) {
        int n = hostfile_read(fd, buf, len);
        return n < 0 ? fail(n) : n;
    }
    char *p = buf;
    size_t n = 0;
    if (len == 0)
        return 0;
    p[n++] = (char)board_console_getc();
    while (n < len && board_console_rx_ready())
        p[n++] = (char)board_console_getc();
    return (int)n;
}

/*
 * Current end of the heap. Owned by _sbrk; newlib serialises calls through
 * __malloc_lock, so no other locking here.
 */
static char *heap_end = __heap_start;

void *_sbrk(ptrdiff_t increment)
{
    char *prev = heap_end;
    if (increment > __heap_end - prev || increment < __heap_start - prev) {
        errno = ENOMEM;
        return (void *)-1;
    }
    heap_end = prev + increment;
    return prev;
}

/*
 * Time since reset: there is no calendar clock, so time() counts from the epoch at reset.
 * clock() is newlib's times() based one: CLOCKS_PER_SEC (newlib: 100 on ARM) ticks of the
 * board clock, all of it user time (the firmware is the only process).
 */
int _gettimeofday(struct timeval *tv, void *tz)
{
    (void)tz;
    if (tv) {
        uint64_t us = board_clock_us();
        tv->tv_sec = (time_t)(us / 1000000u);
        tv->tv_usec = (suseconds_t)(us % 1000000u);
    }
    return 0;
}

clock_t _times(struct tms *buf)
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
_Static_assert(1000000 % CLOCKS_PER_SEC == 0, "_times() wants whole microseconds per clock tick");

void _exit(int status)
{
    /* SYS_EXIT_EXTENDED: unlike SYS_EXIT on AArch32, it carries the status. */
    uintptr_t block[2] = { SEMIHOSTING_ADP_STOPPED_APPLICATION_EXIT, (uintptr_t)status };
    hal_semihosting_call(SEMIHOSTING_SYS_EXIT_EXTENDED, (uintptr_t)block);
    /* Without a semihosting host, stop here. */
    for (;;)
        ;
}

int _fstat(int fd, struct stat *st)
{
    memset(st, 0, sizeof *st);
    if (fd >= 0 && fd <= 2) {
        st->st_mode = S_IFCHR; /* a terminal: newlib line-buffers stdout */
        return 0;
    }
    int rc = hostfile_fstat(fd, st);
    return rc < 0 ? fail(rc) : 0;
}

int _isatty(int fd)
{
    if (fd >= 0 && fd <= 2)
        return 1;
    errno = hostfile_is_open(fd) ? ENOTTY : EBADF;
    return 0;
}

off_t _lseek(int fd, off_t offset, int whence)
{
    if (fd >= 0 && fd <= 2)
        return fail(-ESPIPE);
    off_t to = hostfile_lseek(fd, offset, whence);
    return to < 0 ? fail((int)to) : to;
}

int _kill(int pid, int sig)
{
    (void)pid;
    (void)sig;
    errno = EINVAL;
    return -1;
}

int _getpid(void)
{
    return 1;
}
