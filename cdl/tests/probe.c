/*
 * Probe firmware for the configuration tests (cdl/tests/test_options.sh), compiled without
 * -pg: profiles a while, then prints what profile_on() allocated and the gmon.out image
 * (hex) on the console, and exits through semihosting.
 */
#include <pkgconf/system.h>
#include <pkgconf/profile_gprof.h>
#include <cyg/profile/profile.h>
#include <cyg/profile/gmon.h>
#include <stdio.h>
#include <stdlib.h>

volatile unsigned probe_sink;

/* The work to profile: probe_pg.c's call-graph workload when linked in, else a loop. */
__attribute__((weak)) void probe_work(void)
{
    for (unsigned i = 0; i < 400000; i++)
        probe_sink += i;
}

int main(void)
{
    extern char _stext[], _etext[];
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
