/*
 * profile_on's size arithmetic, under ASan: ranges near 2^31, 2^32 and the top of the
 * address space, bucket sizes from 1 to INT_MAX. Built in the configurations at the edges
 * (arc percentage 1, 5 and 100, and call graph off;
 * tests/tests.mk). For every combination, profile_on either refuses (-EINVAL, -ENOMEM;
 * profiling off, nothing allocated that stays) or sets up a histogram that covers
 * [start, high_pc) exactly and an arc table of the configured size, allocated
 * whole: samples and calls at the first and last addresses it admits write inside the
 * allocation (ASan checks). What it asks malloc for is compared with sizes computed here
 * in 128 bits.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <cyg/profile/gmon.h>
#include <cyg/profile/profile.h>
#include "../../target/src/profile_priv.h"
#include "fake_hal.h"

typedef unsigned __int128 u128;

/* A small target's heap: what profile_on may not get. */
#define HEAP_LIMIT ((size_t)8 << 20)

static int setup(void **state)
{
    (void)state;
    memset(&fake_hal, 0, sizeof fake_hal);
    fake_hal.malloc_limit = HEAP_LIMIT;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    profile_off();
    assert_int_equal(hal_host_irq_depth, 0);
    return 0;
}

static uint32_t ceil_log2(uint64_t v)
{
    uint32_t s = 0;
    while (((uint64_t)1 << s) < v)
        s++;
    return s;
}

/* What a correct profile_on must have allocated at least, in 128 bits. */
struct expect {
    u128 nbins, span, nslots, min_bytes, open_span;
    int representable;   /* counts fit 32 bits, high_pc does not wrap, bytes fit 32 bits */
};

static struct expect expect_for(uintptr_t start, u128 len, int bucket)
{
    struct expect e;
    uint32_t shift = ceil_log2((uint64_t)bucket);
    if (shift == 0)
        shift = 1;      /* 2 bytes at least: gprof's unit */
    u128 b = (u128)1 << shift;
    e.nbins = (len + b - 1) / b;
    e.span = e.nbins * b;
    /* The eCos formula's arc records (at most 65535), and one free slot. */
    u128 cap = (u128)CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE * (len / 100) / 12 + 50;
    if (cap > 0xFFFF)
        cap = 0xFFFF;
    e.nslots = PROFILE_CALLGRAPH ? cap + 1 : 0;
    e.min_bytes = e.nbins * CYGNUM_PROFILE_HIST_BIN_BYTES + e.nslots * 12 +
                  8 * CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS;
    e.open_span = e.span;
    /* The largest gmon.out: every overflow entry at 2^32-1, 65537 records of one bin each,
     * and a record of the bins around each; the arc table full. */
    const u128 A = sizeof(uintptr_t), K = CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS;
    u128 hist_hdr = 1 + 2 * A + 4 + 4 + 16;
    u128 gmon_max = 20 + (1 + K) * hist_hdr + e.nbins * 2 + K * 65537 * (hist_hdr + 2) +
                    (e.nslots ? e.nslots - 1 : 0) * (1 + 2 * A + 4);
    e.representable = e.nbins <= UINT32_MAX && gmon_max <= UINT32_MAX &&
                      (u128)start + e.span <= (u128)UINTPTR_MAX + 1 &&
                      e.min_bytes * (1 + PROFILE_SNAPSHOT) <= UINT32_MAX;
    return e;
}

#if PROFILE_CALLGRAPH
/* Can the arc table hold a call from this call site (to callee_of(start))? Its addresses
 * are kept mod 2^32 (a call site at 0 would mark a free slot): on a 64-bit target in the
 * 4 GiB window of the range's start. */
static int table_holds(uintptr_t start, uintptr_t from)
{
    return (uint32_t)from != 0 && ((uint64_t)(from ^ start) >> 32) == 0;
}

/* A callee for the edge calls: near start, never 0 (no callee returns to address 0). */
static uintptr_t callee_of(uintptr_t start)
{
    return start ^ 4;
}
#endif

static void check_one(uintptr_t start, uint64_t len, int bucket)
{
    char what[128];
    snprintf(what, sizeof what, "start 0x%jx len 0x%jx bucket %d", (uintmax_t)start,
             (uintmax_t)len, bucket);
    struct expect e = expect_for(start, len, bucket);
    fake_hal.last_malloc_size = 0;
    int rc = profile_on((void *)start, (void *)(start + len), bucket, 1000);
    struct profile_stats st;
    if (rc != 0) {
        if (rc != -EINVAL && rc != -ENOMEM)
            fail_msg("%s: profile_on returned %d", what, rc);
        if (profile_get_stats(&st) != -ENODATA)
            fail_msg("%s: refused (%d) but profiling is on", what, rc);
        /* Refused for its size (not for the heap): nothing was asked of malloc. */
        if (!e.representable && fake_hal.last_malloc_size != 0)
            fail_msg("%s: unrepresentable, yet malloc(%zu) was tried", what,
                     fake_hal.last_malloc_size);
        return;
    }
    if (!e.representable)
        fail_msg("%s: accepted a layout that cannot be represented in 32 bits", what);
    const struct profile_state *s = &profile_state;
    if (s->nbins != e.nbins || (u128)(s->high_pc - s->low_pc) != e.span ||
        s->nslots != e.nslots || (u128)s->open_span != e.open_span)
        fail_msg("%s: nbins %u slots %u span 0x%jx", what, s->nbins, s->nslots,
                 (uintmax_t)(s->high_pc - s->low_pc));
    if ((u128)fake_hal.last_malloc_size < e.min_bytes)
        fail_msg("%s: malloc(%zu) for at least %ju bytes", what, fake_hal.last_malloc_size,
                 (uintmax_t)e.min_bytes);
    /* The edges the gate admits: the first address, the last of the range, the last of
     * the range rounded up (to the bucket, or to the hash slot if that is less). ASan
     * reports a write outside. */
    uintptr_t edges[] = { start, start + len - 1, start + s->open_span - 1 };
#if PROFILE_CALLGRAPH
    uint32_t unrecordable = 0;   /* call sites the arc table cannot hold */
#endif
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        __profile_hit(edges[i]);
#if PROFILE_CALLGRAPH
        __profile_mcount(edges[i], callee_of(start));
        unrecordable += !table_holds(start, edges[i]) || !table_holds(start, callee_of(start));
#endif
    }
    __profile_hit(start - 1);   /* outside (wraps to the top for start 0) */
    int past = s->open_span < s->high_pc - s->low_pc;
    if (past)
        __profile_hit(start + s->open_span);   /* inside the bins, past the gate */
    assert_int_equal(profile_get_stats(&st), 0);
    assert_int_equal(st.samples, 4 + past);
    assert_int_equal(st.samples_out_of_range, 1 + past);
    if (s->bins[0] < 1 || s->bins[s->nbins - 1] < 1)
        fail_msg("%s: edge samples not in the first and last bins", what);
#if PROFILE_CALLGRAPH
    if ((unrecordable < 3 && st.arcs + st.arcs_dropped < 1) || st.arcs_out_of_range != unrecordable)
        fail_msg("%s: edge calls: %u arcs, %u dropped, %u out of range (%u expected)", what,
                 st.arcs, st.arcs_dropped, st.arcs_out_of_range, unrecordable);
#endif
    /* The image's size adds up without wrapping, and its last bytes read. */
    struct profile_gmon_reader r;
    profile_gmon_reader_init(&r);
    size_t size = profile_gmon_size(&r);
    if ((u128)size < 20 + e.nbins * 2)
        fail_msg("%s: gmon.out of %zu bytes for %ju bins", what, size, (uintmax_t)e.nbins);
    uint8_t tail[64];
    assert_int_equal(profile_gmon_read(&r, size - 1, tail, sizeof tail), 1);
}

static const uint64_t lengths[] = {
    1, 15, 16, 17, 255, 256, 257, 0x10000, (1u << 20) + 3,
    0x7FFFFFFFull, 0x80000000ull, 0x80000001ull, 0xFFFFFFFFull, 0x100000000ull, 0x100000001ull,
};
static const int buckets[] = {
    1, 2, 3, 4, 16, 17, 256, 4096, 65536, 1 << 20, 1 << 30, (1 << 30) + 1, INT_MAX,
};

/* Where ranges start: low memory, around 2^31 and 2^32, and ending at the very top. */
static void check_lengths_at(uintptr_t (*start_for)(uint64_t len))
{
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        if (lengths[i] > UINTPTR_MAX - 1)
            continue;
        uintptr_t start = start_for(lengths[i]);
        if ((u128)start + lengths[i] > UINTPTR_MAX)
            continue;   /* end would not be an address */
        for (size_t j = 0; j < sizeof buckets / sizeof buckets[0]; j++)
            check_one(start, lengths[i], buckets[j]);
    }
}

static uintptr_t at_zero(uint64_t len) { (void)len; return 0; }
static uintptr_t at_low(uint64_t len) { (void)len; return 0x100000; }
static uintptr_t below_2g(uint64_t len) { (void)len; return 0x80000000u - 16; }
static uintptr_t ending_at_4g(uint64_t len) { return (uintptr_t)(0x100000000ull - (len < 0x100000000ull ? len : 0)); }
static uintptr_t across_4g(uint64_t len) { (void)len; return (uintptr_t)0xFFFFFFF8u; }
static uintptr_t ending_at_top(uint64_t len) { return UINTPTR_MAX - len; }

static void test_ranges_from_zero(void **state) { (void)state; check_lengths_at(at_zero); }
static void test_ranges_in_low_memory(void **state) { (void)state; check_lengths_at(at_low); }
static void test_ranges_below_2g(void **state) { (void)state; check_lengths_at(below_2g); }
static void test_ranges_ending_at_4g(void **state) { (void)state; check_lengths_at(ending_at_4g); }
static void test_ranges_across_4g(void **state) { (void)state; check_lengths_at(across_4g); }
static void test_ranges_ending_at_the_top(void **state) { (void)state; check_lengths_at(ending_at_top); }

/* The case found from outside: 2^31 + 1 bins need 4 GiB: refused before any allocation
 * is tried, whatever the heap would give. (It was 2^31 + 1 one-byte buckets; a bucket is 2
 * bytes at least now, and 1 is rounded up to 2.) */
static void test_2g_buckets_refused(void **state)
{
    (void)state;
    fake_hal.malloc_limit = 0;
    uintptr_t end = sizeof(uintptr_t) > 4 ? (uintptr_t)0x100000002ull : UINTPTR_MAX;
    int rc = profile_on((void *)0, (void *)end, 2, 1000);
    assert_true(rc == -ENOMEM || rc == -EINVAL);
    assert_int_equal(fake_hal.last_malloc_size, 0);
    rc = profile_on((void *)0, (void *)end, 1, 1000);
    assert_true(rc == -ENOMEM || rc == -EINVAL);
    assert_int_equal(fake_hal.last_malloc_size, 0);
}

/* A bucket larger than the range: the bins reach far past end. Samples and call sites up
 * to the range rounded up to the bucket are recorded (the call sites in the arc table,
 * whatever their number: counted as dropped when it is full); past it they are outside
 * the range. */
static void test_call_sites_in_bucket_rounding(void **state)
{
    (void)state;
    uintptr_t low = 0x100000;
    assert_int_equal(profile_on((void *)low, (void *)(low + 0x100), 1 << 16, 1000), 0);
    assert_int_equal(profile_state.high_pc, low + 0x10000);
    uintptr_t admitted = 0x10000;
    uint32_t inside = 0, outside = 0;
    for (uintptr_t pc = low; pc < low + 0x20000; pc += 0x3F) {
        __profile_hit(pc);
#if PROFILE_CALLGRAPH
        __profile_mcount(pc, low);
#endif
        if (pc - low < admitted)
            inside++;
        else
            outside++;
    }
    struct profile_stats st;
    assert_int_equal(profile_get_stats(&st), 0);
    assert_int_equal(st.samples_out_of_range, outside);
    assert_int_equal(st.samples, inside + outside);
#if PROFILE_CALLGRAPH
    assert_int_equal(st.arcs_out_of_range, outside);
    assert_int_equal(st.arcs + st.arcs_dropped, inside);
    assert_int_equal(st.arcs, st.arcs_capacity);
#endif
}

/* Several ranges (profile_on_ranges) at the edges: at the top of the address space (a
 * range whose rounded end would wrap is refused), ranges that overlap only once rounded to
 * a large bucket (refused), side by side (taken); whatever is taken, samples and calls at
 * every range's first and last admitted byte write inside the allocation (ASan). */
static void test_ranges_at_the_edges(void **state)
{
    (void)state;
    const uintptr_t top = UINTPTR_MAX;
    struct { uintptr_t a0, a1, b0, b1; int bucket, rc; } c[] = {
        { top - 0x1000, top - 0x800, top - 0xFF, top, 16, -EINVAL },       /* wraps */
        { top - 0x1000, top - 0x800, top - 0x100, top, 16, 0 },            /* to the top */
        { top - 0x1000, top - 0x800, top - 0x100, top - 15, 16, 0 },       /* ends at the top */
        { 0x100000, 0x100100, 0x101000, 0x101100, 1 << 20, -EINVAL },      /* one bucket */
        { 0x100000, 0x100100, 0x200000, 0x200100, 1 << 20, 0 },            /* side by side */
        { 0, 0x10, 0x10, 0x20, 1, 0 },                                     /* 2-byte buckets */
        { 0, 0x11, 0x11, 0x20, 1, -EINVAL },                               /* ... overlap */
        { 0, 0x80000000u, 0x80000000u, 0xFFFFFFFEu, 2, -ENOMEM },          /* 4 GiB of bins */
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        const struct profile_range r[2] = { { (void *)c[i].b0, (void *)c[i].b1 },
                                            { (void *)c[i].a0, (void *)c[i].a1 } };
        fake_hal.last_malloc_size = 0;
        int rc = profile_on_ranges(r, 2, c[i].bucket, 1000);
        if (rc != c[i].rc)
            fail_msg("case %zu: profile_on_ranges returned %d, not %d", i, rc, c[i].rc);
        struct profile_stats st;
        if (rc) {
            assert_int_equal(profile_get_stats(&st), -ENODATA);
            assert_int_equal(fake_hal.last_malloc_size, 0);
            continue;
        }
        const struct profile_state *s = &profile_state;
        uint32_t samples = 0;
        for (uint32_t k = 0; k < s->nranges; k++) {
            uintptr_t first = s->ranges[k].low, last = first + s->ranges[k].span - 1;
            __profile_hit(first);
            __profile_hit(last);
#if PROFILE_CALLGRAPH
            __profile_mcount(first, c[i].a0 | 4);
            __profile_mcount(last, c[i].a0 | 4);
#endif
            samples += 2;
            assert_true(profile_state.bins[s->ranges[k].first] >= 1);
            assert_true(profile_state.bins[s->ranges[k].first + s->ranges[k].nbins - 1] >= 1);
        }
        assert_int_equal(profile_get_stats(&st), 0);
        assert_int_equal(st.samples, samples);
        assert_int_equal(st.samples_out_of_range, 0);
        struct profile_gmon_reader rd;
        profile_gmon_reader_init(&rd);
        uint8_t tail[64];
        size_t size = profile_gmon_size(&rd);
        assert_int_equal(profile_gmon_read(&rd, size - 1, tail, sizeof tail), 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
        T(test_ranges_from_zero),
        T(test_ranges_in_low_memory),
        T(test_ranges_below_2g),
        T(test_ranges_ending_at_4g),
        T(test_ranges_across_4g),
        T(test_ranges_ending_at_the_top),
        T(test_2g_buckets_refused),
        T(test_call_sites_in_bucket_rounding),
        T(test_ranges_at_the_edges),
    };
    return cmocka_run_group_tests_name("layout", tests, NULL, NULL);
}
