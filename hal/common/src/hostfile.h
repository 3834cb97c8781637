/*
 * Files on the host through semihosting, for every board's C library glue (newlib's
 * syscalls.c, picolibc's picolibc.c): the C libraries name their system calls differently
 * (_open or open) and keep errno differently (newlib's glue sets a global, picolibc's is
 * thread-local), so the requests and the bookkeeping live here once and each glue only
 * sets its errno from the negative value these return.
 *
 * File descriptors HOSTFILE_FIRST_FD .. HOSTFILE_FIRST_FD + HOSTFILE_MAX - 1; 0, 1 and 2
 * are the console, which the glue handles itself. Not locked, like the C library's
 * streams: an RTOS whose threads share files serialises them itself.
 */
#ifndef HAL_COMMON_HOSTFILE_H
#define HAL_COMMON_HOSTFILE_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#define HOSTFILE_MAX      4
#define HOSTFILE_FIRST_FD 3

/** Nonzero if fd is an open host file. */
int hostfile_is_open(int fd);
/** open()'s flags (the permission bits are the host's choice): a file descriptor, or a
 *  negative errno (-EINVAL for flags no semihosting mode has, -EMFILE, the host's). */
int hostfile_open(const char *path, int flags);
/** 0 or a negative errno (-EBADF, the host's). The descriptor is gone either way. */
int hostfile_close(int fd);
/** Bytes read (0 at the end) or written, or a negative errno; one request whatever len. */
int hostfile_read(int fd, void *buf, size_t len);
int hostfile_write(int fd, const void *buf, size_t len);
/** The new position, or a negative errno. */
off_t hostfile_lseek(int fd, off_t offset, int whence);
/** S_IFREG and the size, or a negative errno. */
int hostfile_fstat(int fd, struct stat *st);

#endif
