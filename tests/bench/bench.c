/*
 * Benchmark firmware (compiled with -pg). The bench script drives it with gdb:
 *  - counts instructions of one mcount path by single-stepping empty() (new arc, then an
 *    existing arc) and one timer sample by single-stepping the profile timer's handler,
 *  - reads the memory profile_on allocated for several ranges (alloc_bytes[]),
 *  - times gprof_fetch of a 64 KiB histogram with 1000 arcs.
 */
#include <cyg/profile/profile.h>
#include <stdint.h>
#include <stdio.h>

/* Written by the code under test so that it is kept; read by nobody. */
volatile uint32_t bench_sink;

/* Filled in main for the bench script: bytes profile_on allocated for each range. */
const uint32_t alloc_ranges[] = { 16 * 1024, 64 * 1024, 256 * 1024, 512 * 1024, 1024 * 1024 };
uint32_t alloc_bytes[sizeof alloc_ranges / sizeof alloc_ranges[0]];
uint32_t alloc_arcs[sizeof alloc_ranges / sizeof alloc_ranges[0]];

__attribute__((noinline)) void empty(void) { __asm__ volatile(""); }
/* One call site, run twice: the first call makes the arc, the second finds it at the head
 * of its chain (nothing else is recorded in between). */
volatile int bench_twice = 2;
__attribute__((noinline, noipa)) void call_empty(void)
{
    for (int i = 0; i < bench_twice; i++)
        empty();
}
__attribute__((noinline)) void leaf(void) { bench_sink++; }

/* 1000 distinct call sites of leaf(): 1000 arcs. */
#define C1 leaf();
#define C10 C1 C1 C1 C1 C1 C1 C1 C1 C1 C1
#define C100 C10 C10 C10 C10 C10 C10 C10 C10 C10 C10
__attribute__((noinline)) void thousand_sites(void) { C100 C100 C100 C100 C100 C100 C100 C100 C100 C100 }

__attribute__((noinline)) void bench_mark(int step) { __asm__ volatile("" : : "r"(step) : "memory"); }

__attribute__((noinline)) void spin(uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        bench_sink += i;
}

int main(void)
{
    extern char _stext[];
    for (unsigned i = 0; i < sizeof alloc_ranges / sizeof alloc_ranges[0]; i++) {
        struct profile_stats st;
        if (profile_on(_stext, _stext + alloc_ranges[i], 16, 1000) == 0 &&
            profile_get_stats(&st) == 0) {
            alloc_bytes[i] = st.bytes_allocated;
            alloc_arcs[i] = st.arcs_capacity;
        }
        profile_off();
    }
    /* 512 KiB at 16 bytes a bucket: a 64 KiB histogram; a board with little RAM gets the
     * largest of 64 KiB and 16 KiB that fits. */
    static const uint32_t fetch_ranges[] = { 512 * 1024, 64 * 1024, 16 * 1024 };
    unsigned f = 0;
    while (f < sizeof fetch_ranges / sizeof fetch_ranges[0] &&
           profile_on(_stext, _stext + fetch_ranges[f], 16, 100) != 0)
        f++;
    if (f == sizeof fetch_ranges / sizeof fetch_ranges[0])
        printf("bench: profile_on failed\n");
    else
        printf("bench: profiling %u KiB\n", (unsigned)(fetch_ranges[f] / 1024));
    bench_mark(1);   /* the script single-steps the two calls below */
    call_empty();
    bench_mark(2);
    thousand_sites();
    spin(200000);    /* timer samples */
    bench_mark(3);   /* the script steps one timer interrupt, then times gprof_fetch */
    spin(2000000);
    return 0;
}
