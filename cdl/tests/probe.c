/*
 * Probe firmware for the configuration tests (cdl/tests/test_options.sh), compiled without
 * -pg: profiles a while, then prints what profile_on() allocated and the gmon.out image
 * (hex) on the console, and exits through semihosting.
 */
#include <pkgconf/system.h>
#include <pkgconf/profile_gprof.h>
#include <cyg/profile/profile.h>
#include <cyg/profile/gmon.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

volatile unsigned probe_sink;

/* The work to profile: probe_pg.c's call-graph workload when linked in, else a loop. */
__attribute__((weak)) void probe_work(void)
{
    for (unsigned i = 0; i < 400000; i++)
        probe_sink += i;
}

/* Ranges whose tables cannot exist on a 32-bit target (2^31 bins and more; high_pc past
 * the top of the address space): refused, profiling left off. Prints "huge refused N" with
 * the number refused as they must be, of all tried. */
static void probe_huge_ranges(void)
{
    static const struct { uintptr_t start, end; int bucket; } huge[] = {
        { 0, 0x80000001u, 1 }, { 0, 0xFFFFFFFFu, 1 }, { 0, 0xFFFFFFFFu, 2 },
        { 0x80000000u, 0xFFFFFFFFu, 1 }, { 0xFFFFFFF0u, 0xFFFFFFFFu, 1 << 30 },
        { 0x10000000u, 0xFFFFFFFFu, 4 }, { 0x1000, 0x1100, 1 << 30 },
    };
    unsigned ok = 0, n = sizeof huge / sizeof huge[0];
    for (unsigned i = 0; i < n; i++) {
        int rc = profile_on((void *)huge[i].start, (void *)huge[i].end, huge[i].bucket, 1000);
        struct profile_stats st;
        int off = profile_get_stats(&st) == -ENODATA;
        /* The last one (one bin of 1 GiB over 256 bytes) fits: it must work. */
        if (i == n - 1)
            ok += rc == 0 && profile_get_stats(&st) == 0;
        else
            ok += (rc == -EINVAL || rc == -ENOMEM) && off;
        if (rc != 0 && i == n - 1)
            printf("huge %u: %d\n", i, rc);
        profile_off();
    }
    printf("huge refused %u of %u\n", ok, n);
}

/* profile_on_ranges with as many ranges as CYGNUM_PROFILE_MAX_RANGES allows (pieces of
 * _stext.._etext, 256 bytes apart), and with one more: prints "ranges MAX: rc, MAX+1: rc". */
static void probe_max_ranges(void)
{
    extern char _stext[];
    struct profile_range r[CYGNUM_PROFILE_MAX_RANGES + 1];
    for (int i = 0; i <= CYGNUM_PROFILE_MAX_RANGES; i++)
        r[i] = (struct profile_range){ _stext + 256 * i, _stext + 256 * i + 128 };
    int all = profile_on_ranges(r, CYGNUM_PROFILE_MAX_RANGES, 16, 1000);
    int more = profile_on_ranges(r, CYGNUM_PROFILE_MAX_RANGES + 1, 16, 1000);
    profile_off();
    printf("ranges %d: %d, %d: %d\n", CYGNUM_PROFILE_MAX_RANGES, all,
           CYGNUM_PROFILE_MAX_RANGES + 1, more);
}

int main(void)
{
    extern char _stext[], _etext[];
    probe_huge_ranges();
    probe_max_ranges();
    int rc = profile_on(_stext, _etext, 16, 1000);
    printf("profile_on %d\n", rc);
    if (rc != 0)
        exit(1);
    probe_work();

    struct profile_stats st;
    if (profile_get_stats(&st) != 0)
        exit(1);
    printf("range %lu\n", (unsigned long)(_etext - _stext));
    printf("bytes_allocated %lu\n", (unsigned long)st.bytes_allocated);
    printf("arcs_capacity %lu\n", (unsigned long)st.arcs_capacity);
    printf("arcs %lu\n", (unsigned long)st.arcs);
    printf("samples %lu\n", (unsigned long)st.samples);

    struct profile_gmon_reader r;
    profile_gmon_reader_init(&r);
    size_t size = profile_gmon_size(&r), off = 0;
    printf("gmon_size %lu\n", (unsigned long)size);
    while (off < size) {
        unsigned char buf[32];
        size_t got = profile_gmon_read(&r, off, buf, sizeof buf);
        if (got == 0)
            break;
        printf("gmon ");
        for (size_t i = 0; i < got; i++)
            printf("%02x", buf[i]);
        printf("\n");
        off += got;
    }
    printf("end\n");
    exit(0);
}
