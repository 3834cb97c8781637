/* The profile_write firmware's part compiled without -pg: the count of every profile timer
 * sample (the link wraps __profile_hit, tests/tests.mk), the C library's files through
 * semihosting (hal/common/src/hostfile.c, under newlib's or picolibc's names), and the way out
 * on a failure. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "writes.h"

/* Owned here (the profile timer interrupt increments it); main reads it with interrupts
 * masked, together with the package's counters. */
volatile uint32_t samples_taken;

void __real___profile_hit(uintptr_t pc);
void __wrap___profile_hit(uintptr_t pc)
{
    samples_taken++;
    __real___profile_hit(pc);
}

void firmware_failed(const char *what)
{
    printf("FIRMWARE FAILED: %s\n", what);
    exit(1);
}

/*
 * stdio and the file descriptors on host files: written, appended to, read back, seeked,
 * sized; the errors mapped. The test reads stdio.txt on the host afterwards.
 */
void check_files(void)
{
    char buf[64];
    FILE *f = fopen("stdio.txt", "w");
    if (!f || fprintf(f, "one %d\n", 1) != 6 || fclose(f) != 0)
        firmware_failed("stdio: fopen w, fprintf, fclose");
    f = fopen("stdio.txt", "a");
    if (!f || fputs("two\n", f) < 0 || ftell(f) != 10 || fclose(f) != 0)
        firmware_failed("stdio: fopen a, fputs, ftell");
    f = fopen("stdio.txt", "r+");
    if (!f || fseek(f, 0, SEEK_END) != 0 || ftell(f) != 10 || fseek(f, 4, SEEK_SET) != 0 ||
        fread(buf, 1, sizeof buf, f) != 6 || memcmp(buf, "1\ntwo\n", 6) != 0 || !feof(f))
        firmware_failed("stdio: fopen r+, fseek, ftell, fread");
    if (fseek(f, 0, SEEK_SET) != 0 || fputc('O', f) != 'O' || fclose(f) != 0)
        firmware_failed("stdio: overwrite in place");
    int fd = open("stdio.txt", O_RDONLY);
    struct stat st;
    if (fd < 3 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != 10 ||
        isatty(fd) || lseek(fd, -3, SEEK_END) != 7 || read(fd, buf, 8) != 3 ||
        memcmp(buf, "wo\n", 3) != 0 || read(fd, buf, 8) != 0 || close(fd) != 0)
        firmware_failed("files: open, fstat, isatty, lseek, read, close");
    errno = 0;
    if (open("no/such/dir/x", O_RDONLY) != -1 || errno != ENOENT)
        firmware_failed("files: a missing file is ENOENT");
    errno = 0;
    if (open("stdio.txt", O_WRONLY | O_CREAT | O_EXCL, 0644) != -1 || errno != EINVAL)
        firmware_failed("files: O_EXCL is EINVAL");
    errno = 0;
    if (close(fd) != -1 || errno != EBADF || write(9, buf, 1) != -1 || errno != EBADF)
        firmware_failed("files: a closed or unknown fd is EBADF");
    printf("files: ok\n");
}
