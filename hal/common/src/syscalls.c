/*
 * newlib's system calls for every newlib board: stdin/stdout/stderr on the board's console,
 * the heap between the end of .bss and the stack (the linker script's __heap_start and
 * __heap_end), time from the board's monotonic clock (time(), clock(), gettimeofday(),
 * times()), files on the host through semihosting (open(), read(), write(), lseek(),
 * fstat(), close(), and so fopen() and the rest of stdio), and exit through semihosting, so
 * that QEMU (run-qemu enables semihosting) ends with the firmware's exit status.
 *
 * Files need a semihosting host: QEMU with -semihosting-config enable=on (run-qemu), or a
 * debug probe with semihosting on (OpenOCD: arm semihosting enable; pyOCD: -S). Paths are
 * the host's, relative to its current directory. Without a host the trap faults or is
 * ignored, depending on the core (see <cyg/hal/semihosting.h>).
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

#undef errno
extern int errno;

/* Linker script symbols: the heap is [__heap_start, __heap_end). */
extern char __heap_start[], __heap_end[];

/* ---- files on the host (semihosting, "Semihosting for AArch32 and AArch64" v2.0) ----- */

#define SYS_OPEN   0x01    /* {name, mode 0..11, strlen(name)} -> handle or -1 */
#define SYS_CLOSE  0x02    /* {handle} -> 0 or -1 */
#define SYS_WRITE  0x05    /* {handle, buffer, length} -> bytes NOT written */
#define SYS_READ   0x06    /* {handle, buffer, length} -> bytes NOT read */
#define SYS_SEEK   0x0A    /* {handle, absolute position} -> 0 or negative */
#define SYS_FLEN   0x0C    /* {handle} -> length or -1 */
#define SYS_ERRNO  0x13    /* -> the host's errno after the last failed request */

/* SYS_OPEN's modes are fopen()'s strings, numbered: always binary ("b": the host does no
 * newline translation), so the file holds exactly the bytes written. */
#define MODE_RB       1    /* "rb":  read; the file must exist */
#define MODE_RPLUS_B  3    /* "r+b": read and write; the file must exist, is kept */
#define MODE_WB       5    /* "wb":  write; created or truncated */
#define MODE_WPLUS_B  7    /* "w+b": read and write; created or truncated */
#define MODE_AB       9    /* "ab":  append; created if missing */
#define MODE_APLUS_B 11    /* "a+b": read and append; created if missing */

/* Host files open at once (fds FIRST_FILE_FD ..); 0, 1 and 2 are the console. */
#define MAX_FILES     4
#define FIRST_FILE_FD 3

struct host_file {
    uintptr_t handle;       /* the host's handle */
    off_t pos;              /* the position as the host has it; -1: at the end (append) */
    unsigned char open;
    unsigned char append;   /* every write goes to the end */
};

/*
 * The open host files, by fd - FIRST_FILE_FD. Owned by _open (takes a free entry) and
 * _close (frees it); _read, _write and _lseek keep pos up to date. Like the C library's
 * streams, not locked: an RTOS whose threads share files serialises them itself.
 */
static struct host_file host_files[MAX_FILES];

static struct host_file *host_file(int fd)
{
    if (fd < FIRST_FILE_FD || fd >= FIRST_FILE_FD + MAX_FILES || !host_files[fd - FIRST_FILE_FD].open)
        return NULL;
    return &host_files[fd - FIRST_FILE_FD];
}

/*
 * errno after a failed request: the host's, when it is one of the numbers 1..34 that every
 * C library shares with Unix V7 (ENOENT, EACCES, EISDIR, ENOSPC, ...); otherwise EIO, as the
 * numbers above differ between hosts (Linux, Windows, GDB's File-I/O protocol).
 */
static int host_errno(void)
{
    uintptr_t e = hal_semihosting_call(SYS_ERRNO, 0);
    return e >= 1 && e <= 34 ? (int)e : EIO;
}

/* SYS_OPEN's mode for open()'s flags; -1 if none has their meaning. */
static int open_mode(int flags)
{
    int rw = (flags & O_ACCMODE) == O_RDWR;
    if ((flags & O_ACCMODE) == O_RDONLY)
        return flags & (O_TRUNC | O_APPEND) ? -1 : MODE_RB;
    if (flags & O_APPEND)
        return flags & O_CREAT ? (rw ? MODE_APLUS_B : MODE_AB) : -1;
    if (flags & O_TRUNC)
        return flags & O_CREAT ? (rw ? MODE_WPLUS_B : MODE_WB) : -1;
    return MODE_RPLUS_B;    /* write without truncating: the file must exist (see _open) */
}

static uintptr_t host_open(const char *path, int mode)
{
    uintptr_t block[3] = { (uintptr_t)path, (uintptr_t)mode, (uintptr_t)strlen(path) };
    return hal_semihosting_call(SYS_OPEN, (uintptr_t)block);
}

/*
 * open(): O_RDONLY "rb"; O_WRONLY or O_RDWR with O_CREAT|O_TRUNC "wb"/"w+b", with
 * O_CREAT|O_APPEND "ab"/"a+b", with neither "r+b" (the file must exist) -- or, with O_CREAT
 * alone, "r+b" and, if the file does not exist, "wb"/"w+b". Flags without a mode (O_EXCL,
 * O_TRUNC or O_APPEND without O_CREAT, O_RDONLY with O_TRUNC or O_APPEND): EINVAL. The
 * permission bits are the host's choice (QEMU: 0644).
 */
int _open(const char *path, int flags, ...)
{
    int mode = open_mode(flags);
    if (mode < 0 || (flags & O_EXCL)) {
        errno = EINVAL;
        return -1;
    }
    int slot = 0;
    while (slot < MAX_FILES && host_files[slot].open)
        slot++;
    if (slot == MAX_FILES) {
        errno = EMFILE;
        return -1;
    }
    uintptr_t handle = host_open(path, mode);
    if ((intptr_t)handle == -1 && mode == MODE_RPLUS_B && (flags & O_CREAT))
        handle = host_open(path, (flags & O_ACCMODE) == O_RDWR ? MODE_WPLUS_B : MODE_WB);
    if ((intptr_t)handle == -1) {
        errno = host_errno();
        return -1;
    }
    host_files[slot].handle = handle;
    host_files[slot].pos = 0;
    host_files[slot].append = (flags & O_APPEND) != 0;
    host_files[slot].open = 1;
    return FIRST_FILE_FD + slot;
}

int _close(int fd)
{
    struct host_file *f = host_file(fd);
    if (!f) {
        errno = EBADF;
        return -1;
    }
    f->open = 0;    /* gone whatever the host says: the handle is not used again */
    uintptr_t block[1] = { f->handle };
    if (hal_semihosting_call(SYS_CLOSE, (uintptr_t)block) != 0) {
        errno = host_errno();
        return -1;
    }
    return 0;
}

/* SYS_READ or SYS_WRITE of len bytes, in one request whatever the size (through a debug
 * probe each request costs a halt and a resume, so fewer is faster). */
static int host_transfer(struct host_file *f, int op, const void *buf, size_t len)
{
    uintptr_t block[3] = { f->handle, (uintptr_t)buf, (uintptr_t)len };
    uintptr_t left = hal_semihosting_call((uintptr_t)op, (uintptr_t)block);
    if (left > len) {
        errno = EIO;
        return -1;
    }
    size_t done = len - left;
    if (done == 0 && len != 0 && op == SYS_WRITE) {
        errno = host_errno();   /* nothing written: an error (a full disk, ...) */
        return -1;
    }
    if (f->append && op == SYS_WRITE)
        f->pos = -1;            /* the host appended: at the end, wherever that is */
    else if (f->pos >= 0)
        f->pos += (off_t)done;
    return (int)done;
}

int _write(int fd, const void *buf, size_t len)
{
    if (fd > 2) {
        struct host_file *f = host_file(fd);
        if (!f) {
            errno = EBADF;
            return -1;
        }
        return host_transfer(f, SYS_WRITE, buf, len);
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
        struct host_file *f = host_file(fd);
        if (!f) {
            errno = EBADF;
            return -1;
        }
        return host_transfer(f, SYS_READ, buf, len);
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

/* The length of a host file, or -1 (errno set). */
static off_t host_length(struct host_file *f)
{
    uintptr_t block[1] = { f->handle };
    intptr_t len = (intptr_t)hal_semihosting_call(SYS_FLEN, (uintptr_t)block);
    if (len < 0) {
        errno = host_errno();
        return -1;
    }
    return (off_t)len;
}

int _fstat(int fd, struct stat *st)
{
    memset(st, 0, sizeof *st);
    if (fd >= 0 && fd <= 2) {
        st->st_mode = S_IFCHR; /* a terminal: newlib line-buffers stdout */
        return 0;
    }
    struct host_file *f = host_file(fd);
    if (!f) {
        errno = EBADF;
        return -1;
    }
    off_t len = host_length(f);
    if (len < 0)
        return -1;
    st->st_mode = S_IFREG | 0644;
    st->st_size = len;
    return 0;
}

int _isatty(int fd)
{
    if (fd >= 0 && fd <= 2)
        return 1;
    errno = host_file(fd) ? ENOTTY : EBADF;
    return 0;
}

/* SYS_SEEK takes an absolute position: SEEK_CUR adds to the position kept here, SEEK_END to
 * the host's length of the file. */
off_t _lseek(int fd, off_t offset, int whence)
{
    struct host_file *f = host_file(fd);
    if (!f) {
        errno = fd >= 0 && fd <= 2 ? ESPIPE : EBADF;
        return -1;
    }
    off_t base = 0;
    if (whence == SEEK_END || (whence == SEEK_CUR && f->pos < 0)) {
        base = host_length(f);
        if (base < 0)
            return -1;
        if (whence == SEEK_CUR)
            f->pos = base;  /* after an append: the end is where the host stands */
    } else if (whence == SEEK_CUR) {
        base = f->pos;
    } else if (whence != SEEK_SET) {
        errno = EINVAL;
        return -1;
    }
    /* (positions are a word in the requests) */
    if (offset > 0 ? base > (off_t)INTPTR_MAX - offset : base + offset < 0) {
        errno = EINVAL;
        return -1;
    }
    off_t to = base + offset;
    if (whence == SEEK_CUR && offset == 0)
        return to;          /* ftell(): no request */
    uintptr_t block[2] = { f->handle, (uintptr_t)to };
    if ((intptr_t)hal_semihosting_call(SYS_SEEK, (uintptr_t)block) < 0) {
        errno = host_errno();
        return -1;
    }
    f->pos = to;
    return to;
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
