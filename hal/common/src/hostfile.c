/*
 * Files on the host through semihosting ("Semihosting for AArch32 and AArch64" v2.0; the
 * RISC-V semihosting specification takes its requests as they are), shared by every C
 * library's glue (hostfile.h). Each function returns a negative errno where the glue sets
 * errno: the host's, when it is one of the numbers 1..34 every C library shares.
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
#include <unistd.h>

#include <cyg/hal/semihosting.h>
#include "hostfile.h"

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

struct host_file {
    uintptr_t handle;       /* the host's handle */
    off_t pos;              /* the position as the host has it; -1: at the end (append) */
    unsigned char open;
    unsigned char append;   /* every write goes to the end */
};

/*
 * The open host files, by fd - HOSTFILE_FIRST_FD. Owned by hostfile_open (takes a free
 * entry) and hostfile_close (frees it); read, write and lseek keep pos up to date.
 */
static struct host_file host_files[HOSTFILE_MAX];

static struct host_file *host_file(int fd)
{
    if (fd < HOSTFILE_FIRST_FD || fd >= HOSTFILE_FIRST_FD + HOSTFILE_MAX ||
        !host_files[fd - HOSTFILE_FIRST_FD].open)
        return NULL;
    return &host_files[fd - HOSTFILE_FIRST_FD];
}

int hostfile_is_open(int fd)
{
    return host_file(fd) != NULL;
}

/*
 * -errno after a failed request: the host's, when it is one of the numbers 1..34 that
 * every C library shares with Unix V7 (ENOENT, EACCES, EISDIR, ENOSPC, ...); otherwise EIO,
 * as the numbers above differ between hosts (Linux, Windows, GDB's File-I/O protocol).
 */
static int host_errno(void)
{
    uintptr_t e = hal_semihosting_call(SYS_ERRNO, 0);
    return -(e >= 1 && e <= 34 ? (int)e : EIO);
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
    return MODE_RPLUS_B;    /* write without truncating: the file must exist (see below) */
}

static uintptr_t host_open(const char *path, int mode)
{
    uintptr_t block[3] = { (uintptr_t)path, (uintptr_t)mode, (uintptr_t)strlen(path) };
    return hal_semihosting_call(SYS_OPEN, (uintptr_t)block);
}

/*
 * O_RDONLY "rb"; O_WRONLY or O_RDWR with O_CREAT|O_TRUNC "wb"/"w+b", with O_CREAT|O_APPEND
 * "ab"/"a+b", with neither "r+b" (the file must exist) -- or, with O_CREAT alone, "r+b"
 * and, if the file does not exist, "wb"/"w+b". Flags without a mode (O_EXCL, O_TRUNC or
 * O_APPEND without O_CREAT, O_RDONLY with O_TRUNC or O_APPEND): -EINVAL. The permission
 * bits are the host's choice (QEMU: 0644).
 */
int hostfile_open(const char *path, int flags)
{
    int mode = open_mode(flags);
    if (mode < 0 || (flags & O_EXCL))
        return -EINVAL;
    int slot = 0;
    while (slot < HOSTFILE_MAX && host_files[slot].open)
        slot++;
    if (slot == HOSTFILE_MAX)
        return -EMFILE;
    uintptr_t handle = host_open(path, mode);
    if ((intptr_t)handle == -1 && mode == MODE_RPLUS_B && (flags & O_CREAT))
        handle = host_open(path, (flags & O_ACCMODE) == O_RDWR ? MODE_WPLUS_B : MODE_WB);
    if ((intptr_t)handle == -1)
        return host_errno();
    host_files[slot].handle = handle;
    host_files[slot].pos = 0;
    host_files[slot].append = (flags & O_APPEND) != 0;
    host_files[slot].open = 1;
    return HOSTFILE_FIRST_FD + slot;
}

int hostfile_close(int fd)
{
    struct host_file *f = host_file(fd);
    if (!f)
        return -EBADF;
    f->open = 0;    /* gone whatever the host says: the handle is not used again */
    uintptr_t block[1] = { f->handle };
    if (hal_semihosting_call(SYS_CLOSE, (uintptr_t)block) != 0)
        return host_errno();
    return 0;
}

/* SYS_READ or SYS_WRITE of len bytes, in one request whatever the size (through a debug
 * probe each request costs a halt and a resume, so fewer is faster). */
static int host_transfer(int fd, int op, const void *buf, size_t len)
{
    struct host_file *f = host_file(fd);
    if (!f)
        return -EBADF;
    uintptr_t block[3] = { f->handle, (uintptr_t)buf, (uintptr_t)len };
    uintptr_t left = hal_semihosting_call((uintptr_t)op, (uintptr_t)block);
    if (left > len)
        return -EIO;
    size_t done = len - left;
    if (done == 0 && len != 0 && op == SYS_WRITE)
        return host_errno();    /* nothing written: an error (a full disk, ...) */
    if (f->append && op == SYS_WRITE)
        f->pos = -1;            /* the host appended: at the end, wherever that is */
    else if (f->pos >= 0)
        f->pos += (off_t)done;
    return (int)done;
}

int hostfile_read(int fd, void *buf, size_t len)
{
    return host_transfer(fd, SYS_READ, buf, len);
}

int hostfile_write(int fd, const void *buf, size_t len)
{
    return host_transfer(fd, SYS_WRITE, buf, len);
}

/* The length of a host file, or a negative errno. */
static off_t host_length(struct host_file *f)
{
    uintptr_t block[1] = { f->handle };
    intptr_t len = (intptr_t)hal_semihosting_call(SYS_FLEN, (uintptr_t)block);
    return len < 0 ? host_errno() : (off_t)len;
}

int hostfile_fstat(int fd, struct stat *st)
{
    memset(st, 0, sizeof *st);
    struct host_file *f = host_file(fd);
    if (!f)
        return -EBADF;
    off_t len = host_length(f);
    if (len < 0)
        return (int)len;
    st->st_mode = S_IFREG | 0644;
    st->st_size = len;
    return 0;
}

/* SYS_SEEK takes an absolute position: SEEK_CUR adds to the position kept here, SEEK_END to
 * the host's length of the file. */
off_t hostfile_lseek(int fd, off_t offset, int whence)
{
    struct host_file *f = host_file(fd);
    if (!f)
        return -EBADF;
    off_t base = 0;
    if (whence == SEEK_END || (whence == SEEK_CUR && f->pos < 0)) {
        base = host_length(f);
        if (base < 0)
            return base;
        if (whence == SEEK_CUR)
            f->pos = base;  /* after an append: the end is where the host stands */
    } else if (whence == SEEK_CUR) {
        base = f->pos;
    } else if (whence != SEEK_SET) {
        return -EINVAL;
    }
    /* (positions are a word in the requests) */
    if (offset > 0 ? base > (off_t)INTPTR_MAX - offset : base + offset < 0)
        return -EINVAL;
    off_t to = base + offset;
    if (whence == SEEK_CUR && offset == 0)
        return to;          /* ftell(): no request */
    uintptr_t block[2] = { f->handle, (uintptr_t)to };
    if ((intptr_t)hal_semihosting_call(SYS_SEEK, (uintptr_t)block) < 0)
        return host_errno();
    f->pos = to;
    return to;
}
