/*
 * newlib's system calls for every newlib board: stdin/stdout/stderr on the board's console,
 * the heap between the end of .bss and the stack (the linker script's __heap_start and
 * __heap_end), time from the board's monotonic clock (time(), clock(), gettimeofday(),
 * times()), and exit through semihosting, so that QEMU (run-qemu enables semihosting) ends
 * with the firmware's exit status. Files are not supported: open() and friends fail.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <cyg/hal/board.h>
#include <cyg/hal/semihosting.h>

#undef errno
extern int errno;

/* Linker script symbols: the heap is [__heap_start, __heap_end). */
extern char __heap_start[], __heap_end[];

int _write(int fd, const void *buf, size_t len)
{
    (void)fd; /* stdout and stderr both go to the console */
    const char *p = buf;
    for (size_t i = 0; i < len; i++)
        board_console_putc(p[i]);
    return (int)len;
}

/* Wait for one byte, then take whatever else has already arrived. */
int _read(int fd, void *buf, size_t len)
{
    (void)fd;
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

int _close(int fd)
{
    (void)fd;
    errno = EBADF;
    return -1;
}

int _open(const char *path, int flags, ...)
{
    (void)path;
    (void)flags;
    errno = ENOSYS;
    return -1;
}

int _fstat(int fd, struct stat *st)
{
    (void)fd;
    st->st_mode = S_IFCHR; /* a terminal: newlib line-buffers stdout */
    return 0;
}

int _isatty(int fd)
{
    return fd >= 0 && fd <= 2;
}

off_t _lseek(int fd, off_t offset, int whence)
{
    (void)fd;
    (void)offset;
    (void)whence;
    errno = ESPIPE;
    return -1;
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
