/*
 * newlib system calls for mps2-an385: the console on CMSDK UART0 (polled), the heap
 * between the end of .bss and the stack, and exit through ARM semihosting so that QEMU
 * (run with -semihosting-config enable=on,target=native, as run-qemu does) ends with the
 * firmware's exit status.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cyg/hal/board.h>
#include "an385_regs.h"

#undef errno
extern int errno;

/* Linker script symbols: the heap is [__heap_start, __heap_end). */
extern char __heap_start[], __heap_end[];

/* Semihosting operations (ARM "Semihosting for AArch32 and AArch64", v2.0). */
#define SEMIHOSTING_SYS_EXIT_EXTENDED 0x20
#define SEMIHOSTING_ADP_STOPPED_APPLICATION_EXIT 0x20026

#define CONSOLE_BAUD 115200u

void an385_console_init(void)
{
    /* QEMU ignores the divider but refuses to transmit with a nonsensical one (< 16). */
    CMSDK_UART_BAUDDIV(CMSDK_UART0_BASE) = BOARD_APB_CLOCK_HZ / CONSOLE_BAUD;
    CMSDK_UART_CTRL(CMSDK_UART0_BASE) = CMSDK_UART_CTRL_TXEN | CMSDK_UART_CTRL_RXEN;
}

void board_console_putc(char c)
{
    while (CMSDK_UART_STATE(CMSDK_UART0_BASE) & CMSDK_UART_STATE_TXFULL)
        ;
    CMSDK_UART_DATA(CMSDK_UART0_BASE) = (uint8_t)c;
}

int board_console_getc(void)
{
    while (!(CMSDK_UART_STATE(CMSDK_UART0_BASE) & CMSDK_UART_STATE_RXFULL))
        ;
    return (int)(CMSDK_UART_DATA(CMSDK_UART0_BASE) & 0xFFu);
}

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
    while (n < len && (CMSDK_UART_STATE(CMSDK_UART0_BASE) & CMSDK_UART_STATE_RXFULL))
        p[n++] = (char)(CMSDK_UART_DATA(CMSDK_UART0_BASE) & 0xFFu);
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

void _exit(int status)
{
    /* SYS_EXIT_EXTENDED: unlike SYS_EXIT on AArch32, it carries the status. */
    uint32_t block[2] = { SEMIHOSTING_ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status };
    register uint32_t r0 __asm__("r0") = SEMIHOSTING_SYS_EXIT_EXTENDED;
    register uint32_t *r1 __asm__("r1") = block;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    /* Without semihosting the bkpt faults or is ignored; either way, stop here. */
    for (;;)
        __asm__ volatile("cpsid i\n\twfi");
}

int _close(int fd)
{
    (void)fd;
    errno = EBADF;
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
