/* Unit tests of the portable core (target/src) compiled for the host. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <cyg/profile/gmon.h>
#include <cyg/profile/profile.h>
#include "../../target/src/profile_priv.h"
#include "fake_hal.h"

#define LOW   ((uintptr_t)0x100000)

static void *at(uintptr_t a) { return (void *)a; }

static int setup(void **state)
{
    (void)state;
    memset(&fake_hal, 0, sizeof fake_hal);
    hal_host_irq_enabled_hook = NULL;
    hal_host_in_interrupt = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    profile_off();
    assert_int_equal(hal_host_irq_depth, 0);  /* every critical section was left */
    return 0;
}

static struct profile_stats stats(void)
{
    struct profile_stats st;
    assert_int_equal(profile_get_stats(&st), 0);
    return st;
}

static void gdb_reset(void);

/* n samples in bucket b at once, as n timer samples would leave them (a pending reset
 * first): a bucket past 0xFFFF without n calls (each one a window for the hooks). BURST:
 * past 0xFFFF with overflow entries; without, a few that leave the 8-bit bin room. */
#define BURST (PROFILE_OVF_CAPACITY ? 0x18000u : 4u)
static void burst(uint32_t b, uint32_t n)
{
    struct profile_state *s = &profile_state;
    hal_profile_irq_state irq = profile_lock();
    if (profile_slow_path(s)) {
        profile_bin_store(s, b, (uint64_t)profile_bin_count(s, b) + n,
                          s->bins[b] == PROFILE_BIN_MAX);
        s->samples += n;
    }
    profile_unlock(irq);
}

/* The buckets' true counts summed (bins and overflow entries). */
static uint32_t bins_true_sum(void)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < profile_state.nbins; i++)
        sum += profile_bin_count(&profile_state, i);
    return sum;
}

/* What the linker script's __profile_text_start/__profile_text_end would have told
 * profile_on (the host has no such run: overhead classification is off until this). */
static void set_profiler_text(uintptr_t low, uintptr_t span)
{
    profile_state.profiler_low = low;
    profile_state.profiler_span = span;
}

static void test_bucket_rounded_up_to_power_of_two(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 5, 1000), 0);
    assert_int_equal(profile_state.bucket_shift, 3);
    assert_int_equal(profile_state.nbins, 0x1000 / 8);
    __profile_hit(LOW + 15);
    __profile_hit(LOW + 16);
    assert_int_equal(profile_state.bins[1], 1);
    assert_int_equal(profile_state.bins[2], 1);
    assert_int_equal(stats().samples, 2);
}

static void test_range_not_multiple_of_bucket(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 100), 16, 1000), 0);
    assert_int_equal(profile_state.nbins, 7);
    assert_int_equal(profile_state.high_pc, LOW + 7 * 16);
    __profile_hit(LOW + 99);
    assert_int_equal(profile_state.bins[6], 1);
}

/* A bucket is 2 bytes at least, gprof's unit (a 1-byte one would make the one-bucket
 * records of a bucket past 0xFFFF a scale gprof refuses: gmon.c). */
static void test_bucket_one_and_exact_power(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 64), 1, 1000), 0);
    assert_int_equal(profile_state.bucket_shift, 1);
    assert_int_equal(profile_state.nbins, 32);
    assert_int_equal(profile_on(at(LOW), at(LOW + 63), 2, 1000), 0);
    assert_int_equal(profile_state.bucket_shift, 1);
    assert_int_equal(profile_state.nbins, 32);
    assert_int_equal(profile_on(at(LOW), at(LOW + 64), 16, 1000), 0);
    assert_int_equal(profile_state.bucket_shift, 4);
    assert_int_equal(profile_state.nbins, 4);
}

/* The overflow entry of bucket b in the live set, or NULL. */
static const struct profile_ovf *ovf_entry(uint32_t b)
{
    for (uint32_t i = 0; i < profile_state.ovf_used; i++)
        if (profile_state.ovf[i].bin == b)
            return &profile_state.ovf[i];
    return NULL;
}

/* The overflow entries are in bin order, each for a bucket of PROFILE_BIN_MAX (a full
 * 8-bit bin) or more, none beyond 2^32-1 - PROFILE_BIN_MAX; no more than the table holds. */
static void check_ovf_table(const struct profile_state *s)
{
    assert_true(s->ovf_used <= PROFILE_OVF_CAPACITY);
    for (uint32_t i = 0; i < s->ovf_used; i++) {
        assert_true(s->ovf[i].bin < s->nbins);
        assert_true(i == 0 || s->ovf[i - 1].bin < s->ovf[i].bin);
        assert_true(s->ovf[i].high >= 1 && s->ovf[i].high <= UINT32_MAX - PROFILE_BIN_MAX);
        assert_true(s->ovf[i].high + s->bins[s->ovf[i].bin] >= PROFILE_BIN_MAX);
    }
}

/* A bucket counts on past what its 8-bit bin holds: exact up to 2^32-1
 * while an overflow entry is free (CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS; with 0 the bin
 * sticks at PROFILE_BIN_MAX, as below when the table is full). Every carry of the bin into
 * the entry is checked: the true count after each sample is the samples so far. */
static void test_bucket_counts_past_ffff(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x100), 16, 1000), 0);
    for (uint32_t i = 0; i < PROFILE_BIN_MAX - 1; i++)
        __profile_hit(LOW + 4);
    assert_int_equal(profile_state.bins[0], PROFILE_BIN_MAX - 1);
    assert_int_equal(profile_state.ovf_used, 0);
    __profile_hit(LOW + 4);               /* the 255th: the bin would be full */
    struct profile_stats st = stats();
    if (PROFILE_OVF_CAPACITY == 0) {
        assert_int_equal(profile_state.bins[0], PROFILE_BIN_MAX);
        assert_int_equal(st.buckets_saturated, 1);
        skip();
    }
    assert_int_equal(profile_state.bins[0], 0);
    assert_non_null(ovf_entry(0));
    assert_int_equal(ovf_entry(0)->high, PROFILE_BIN_MAX);
    assert_int_equal(profile_bin_count(&profile_state, 0), PROFILE_BIN_MAX);
    assert_int_equal(st.buckets_saturated, 0);
    for (uint32_t i = PROFILE_BIN_MAX; i < 3 * 0x10000; i++) {
        __profile_hit(LOW + 4);
        if (profile_bin_count(&profile_state, 0) != i + 1)
            fail_msg("bucket 0 holds %u after %u samples", profile_bin_count(&profile_state, 0),
                     i + 1);
    }
    for (uint32_t i = 3 * 0x10000; i < 200000; i++)
        __profile_hit(LOW + 4);
    for (uint32_t i = 0; i < 70000; i++)
        __profile_hit(LOW + 0xF4);        /* another, the last bucket */
    st = stats();
    assert_int_equal(st.samples, 270000);
    assert_int_equal(st.buckets_saturated, 0);
    assert_int_equal(profile_bin_count(&profile_state, 0), 200000);
    assert_int_equal(profile_bin_count(&profile_state, 0xF), 70000);
    assert_int_equal(profile_state.ovf_used, 2);
    check_ovf_table(&profile_state);
    assert_int_equal(bins_true_sum(), 270000);
}

/* At 2^32-1 a bucket sticks: its bin at PROFILE_BIN_MAX, counted once in buckets_saturated, every
 * further sample refused (in samples, in no bin). */
static void test_bucket_sticks_at_2_32(void **state)
{
    (void)state;
    if (PROFILE_OVF_CAPACITY == 0)
        skip();
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x100), 16, 1000), 0);
    struct profile_state *s = &profile_state;
    hal_profile_irq_state irq = profile_lock();
    profile_bin_store(s, 3, UINT32_MAX - 3, 0);   /* as if counted that far */
    profile_unlock(irq);
    assert_int_equal(profile_bin_count(s, 3), UINT32_MAX - 3);
    check_ovf_table(s);
    for (int i = 0; i < 2; i++)
        __profile_hit(LOW + 0x30);
    assert_int_equal(profile_bin_count(s, 3), UINT32_MAX - 1);
    assert_int_equal(stats().buckets_saturated, 0);
    __profile_hit(LOW + 0x30);
    assert_int_equal(profile_bin_count(s, 3), UINT32_MAX);
    assert_int_equal(s->bins[3], PROFILE_BIN_MAX);
    assert_int_equal(stats().buckets_saturated, 1);
    for (int i = 0; i < 5; i++)
        __profile_hit(LOW + 0x30);
    assert_int_equal(profile_bin_count(s, 3), UINT32_MAX);
    struct profile_stats st = stats();
    assert_int_equal(st.buckets_saturated, 1);  /* counted once per bucket */
    assert_int_equal(st.samples, 8);
    check_ovf_table(s);
}

/* With every overflow entry taken, a further bucket sticks at PROFILE_BIN_MAX as without the table:
 * counted once, its further samples refused; the buckets with entries count on. */
static void test_overflow_table_full(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x10000), 16, 1000), 0);
    const uint32_t k = PROFILE_OVF_CAPACITY;
    /* k + 2 buckets brought to PROFILE_BIN_MAX + n, filled from the highest (entries are
     * inserted in bin order); the last samples of each the usual way (the second fills the
     * bin) */
    for (uint32_t n = 0; n < k + 2; n++) {
        uint32_t b = (k + 1 - n) * 3;
        burst(b, PROFILE_BIN_MAX - 2);
        for (uint32_t i = 0; i < 2 + n; i++)
            __profile_hit(LOW + 16 * b + 2);
        check_ovf_table(&profile_state);
    }
    struct profile_stats st = stats();
    assert_int_equal(profile_state.ovf_used, k);
    assert_int_equal(st.buckets_saturated, 2);
    uint32_t refused = 0;
    for (uint32_t n = 0; n < k + 2; n++) {
        uint32_t b = (k + 1 - n) * 3;
        if (n < k) {
            assert_int_equal(profile_bin_count(&profile_state, b), PROFILE_BIN_MAX + n);
        } else {
            assert_int_equal(profile_state.bins[b], PROFILE_BIN_MAX);
            refused += n;       /* (PROFILE_BIN_MAX + n samples, PROFILE_BIN_MAX kept) */
        }
    }
    assert_int_equal(st.samples, bins_true_sum() + refused);
    uint32_t hot = 3 * (k + 1), before = profile_bin_count(&profile_state, hot);
    __profile_hit(LOW + 16 * hot);          /* a bucket with an entry counts on */
    __profile_hit(LOW + 16 * 3);            /* a stuck one refuses */
    st = stats();
    assert_int_equal(profile_bin_count(&profile_state, hot), before + (k ? 1 : 0));
    refused += 1 + (k ? 0 : 1);
    assert_int_equal(st.buckets_saturated, 2);
    assert_int_equal(st.samples, bins_true_sum() + refused);
    /* A reset gives the entries back. */
    profile_reset();
    assert_int_equal(profile_state.ovf_used, 0);
    assert_int_equal(bins_true_sum(), 0);
    for (uint32_t i = 0; i < profile_state.ovf_capacity; i++)
        assert_int_equal(profile_state.ovf[i].bin + profile_state.ovf[i].high, 0);
    for (uint32_t i = 0; i < PROFILE_BIN_MAX + 1; i++)
        __profile_hit(LOW + 16 * 3);
    assert_int_equal(stats().buckets_saturated, k ? 0 : 1);
    assert_int_equal(profile_bin_count(&profile_state, 3), k ? PROFILE_BIN_MAX + 1 : PROFILE_BIN_MAX);
}

/* A reset gdb asks for clears the overflow entries too, before the next sample counts. */
static void test_gdb_reset_clears_overflow(void **state)
{
    (void)state;
    if (PROFILE_OVF_CAPACITY == 0)
        skip();
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x100), 16, 1000), 0);
    for (uint32_t i = 0; i < 0x20000; i++)
        __profile_hit(LOW + 0x20);
    assert_int_equal(profile_state.ovf_used, 1);
    gdb_reset();
    __profile_hit(LOW + 0x20);
    assert_int_equal(profile_state.ovf_used, 0);
    assert_int_equal(profile_bin_count(&profile_state, 2), 1);
    assert_int_equal(stats().samples, 1);
}

static void test_out_of_range_samples_counted(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x100), 16, 1000), 0);
    __profile_hit(LOW - 1);
    __profile_hit(LOW + 0x100);
    __profile_hit(0);
    __profile_hit(LOW);
    struct profile_stats st = stats();
    assert_int_equal(st.samples, 4);
    assert_int_equal(st.samples_out_of_range, 3);
    uint32_t sum = 0;
    for (uint32_t i = 0; i < profile_state.nbins; i++)
        sum += profile_state.bins[i];
    assert_int_equal(sum, 1);
}

/* The record of the arc from -> self in the live table, or NULL; there is at most one. */
static struct profile_arc *arc_record(uintptr_t from, uintptr_t self)
{
    const struct profile_state *s = &profile_state;
    struct profile_arc *found = NULL;
    for (uint32_t i = 0; i < s->nslots; i++)
        if (s->arcs[i].from == (uint32_t)from && s->arcs[i].from && s->arcs[i].self == (uint32_t)self) {
            assert_null(found);
            found = &s->arcs[i];
        }
    return found;
}

/* The histogram's sum: the samples in bins. */
static uint32_t bins_sum(void)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < profile_state.nbins; i++)
        sum += profile_state.bins[i];
    return sum;
}

/* A sample in the package's own code is profiler overhead: counted, in no bin, whether the
 * package lies inside the profiled range or not; every sample is in a bin, outside the
 * range or overhead. */
static void test_overhead_samples_not_binned(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    set_profiler_text(LOW + 0x800, 0x100);
    __profile_hit(LOW + 4);
    __profile_hit(LOW + 0x7FF);       /* just below the package */
    __profile_hit(LOW + 0x800);       /* its first byte */
    __profile_hit(LOW + 0x8FF);       /* its last byte */
    __profile_hit(LOW + 0x900);       /* just past it */
    __profile_hit(LOW + 0x2000);      /* outside the range */
    struct profile_stats st = stats();
    assert_int_equal(st.samples, 6);
    assert_int_equal(st.samples_overhead, 2);
    assert_int_equal(st.samples_out_of_range, 1);
    assert_int_equal(bins_sum(), 3);
    assert_int_equal(profile_state.bins[0x800 / 16] + profile_state.bins[0x8F0 / 16], 0);
    /* The package outside the profiled range: still overhead, not "outside the range". */
    set_profiler_text(LOW + 0x10000, 0x40);
    __profile_hit(LOW + 0x10000);
    __profile_hit(LOW + 0x1003F);
    __profile_hit(LOW + 0x10040);
    st = stats();
    assert_int_equal(st.samples, 9);
    assert_int_equal(st.samples_overhead, 4);
    assert_int_equal(st.samples_out_of_range, 2);
    assert_int_equal(st.samples, bins_sum() + st.samples_overhead + st.samples_out_of_range);
    /* A reset clears it; a reset gdb asked for is performed before an overhead sample. */
    profile_reset();
    assert_int_equal(stats().samples_overhead, 0);
    __profile_hit(LOW + 0x10004);
    gdb_reset();
    __profile_hit(LOW + 0x10008);
    st = stats();
    assert_int_equal(st.samples, 1);
    assert_int_equal(st.samples_overhead, 1);
}

/* Without the linker script's run (weak symbols absent, as here on the host and in a
 * bring-your-own-board linker script without them) nothing is overhead. */
static void test_no_profiler_text_nothing_is_overhead(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    assert_int_equal(profile_state.profiler_span, 0);
    __profile_hit(LOW);
    __profile_hit(0);
    __profile_hit(UINTPTR_MAX);
    struct profile_stats st = stats();
    assert_int_equal(st.samples_overhead, 0);
    assert_int_equal(st.samples, 3);
    assert_int_equal(bins_sum(), 1);
}

static uint32_t arc_count(uintptr_t from, uintptr_t self)
{
    struct profile_arc *a = arc_record(from, self);
    return a ? a->count : 0;
}

/* The home slot of the arc from -> self, as <cyg/profile/hal.h> defines it (in 64 bits
 * here): one of all slots but the last. */
static uint32_t home_slot(uintptr_t from, uintptr_t self)
{
    uint32_t h = ((uint32_t)from + ((uint32_t)self << 16)) * (uint32_t)PROFILE_ARC_HASH_MUL;
    return (uint32_t)(((uint64_t)h * (profile_state.nslots - 1)) >> 32);
}

static uint32_t slot_of(const struct profile_arc *a)
{
    return (uint32_t)(a - profile_state.arcs);
}

static void test_arcs_near_each_other(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x10000), 16, 1000), 0);
    /* 30 call sites 4 bytes apart (one function calling 30 callees), one of which calls
     * two callees (a call through a pointer): each arc counted apart. */
    uintptr_t f = LOW + 0x8000, g = LOW + 0x9000;
    for (int round = 0; round < 3; round++)
        for (uintptr_t i = 0; i < 30; i++)
            for (uintptr_t n = 0; n <= i % 4; n++)
                __profile_mcount(LOW + 0x10 + 4 * i, f + 0x10 * i);
    for (int i = 0; i < 2; i++) __profile_mcount(LOW + 0x10, g);
    for (uintptr_t i = 0; i < 30; i++)
        assert_int_equal(arc_count(LOW + 0x10 + 4 * i, f + 0x10 * i), 3 * (i % 4 + 1));
    assert_int_equal(arc_count(LOW + 0x10, g), 2);
    assert_int_equal(arc_count(LOW + 0x14, g), 0);
    assert_int_equal(stats().arcs, 31);
    /* Every record lies within probe_max of its home slot. */
    const struct profile_state *s = &profile_state;
    for (uint32_t i = 0; i < s->nslots; i++)
        if (s->arcs[i].from)
            assert_true((i + s->nslots - home_slot(s->arcs[i].from, s->arcs[i].self)) % s->nslots <= s->probe_max);
}

/* Two call sites with the same home slot: the second goes to the next free slot, and both
 * are found (the second through the slow path, as an mcount stub's lookup misses it). */
static void test_arcs_share_a_home_slot(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x10000), 16, 1000), 0);
    uintptr_t f = LOW + 0x8000;
    uintptr_t a = LOW + 0x10, b = a + 2;
    while (home_slot(b, f) != home_slot(a, f))
        b += 2;
    for (int i = 0; i < 4; i++) {
        __profile_mcount(a, f);
        __profile_mcount(b, f);
        __profile_mcount(b, f);
    }
    assert_int_equal(arc_count(a, f), 4);
    assert_int_equal(arc_count(b, f), 8);
    assert_int_equal(slot_of(arc_record(a, f)), home_slot(a, f));
    assert_int_equal(slot_of(arc_record(b, f)), (home_slot(a, f) + 1) % profile_state.nslots);
    assert_int_equal(profile_state.probe_max, 1);
}

/* The last slot is nobody's home but the last home's neighbour; the slot after it is the
 * first: probing wraps around. Three call sites with the last home: the second lands in
 * the last slot (where the fast paths look too), the third in slot 0. */
static void test_arc_probe_wraps_around(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    uint32_t last_home = profile_state.nslots - 2;
    uintptr_t site[3], f = LOW + 0x800;
    uintptr_t a = LOW;
    for (int i = 0; i < 3; i++) {
        while (home_slot(a, f) != last_home)
            a += 2;
        site[i] = a;
        a += 2;
    }
    for (int i = 0; i < 3; i++)
        __profile_mcount(site[i], f);
    assert_int_equal(slot_of(arc_record(site[0], f)), last_home);
    assert_int_equal(slot_of(arc_record(site[1], f)), last_home + 1);
    assert_int_equal(slot_of(arc_record(site[2], f)), 0);
    assert_int_equal(profile_state.probe_max, 2);
    /* Found two slots past its home and counted more than the two records there (a tie:
     * the one after the home), the third trades places with the second: it is called
     * again where the fast paths look, and the second is still found. */
    __profile_mcount(site[2], f);
    assert_int_equal(slot_of(arc_record(site[2], f)), last_home + 1);
    assert_int_equal(slot_of(arc_record(site[1], f)), 0);
    /* The second, counted more than the first, takes the home slot, the least counted of
     * the two; the first goes along, still found. */
    __profile_mcount(site[1], f);
    assert_int_equal(slot_of(arc_record(site[1], f)), last_home);
    assert_int_equal(slot_of(arc_record(site[0], f)), 0);
    /* The first, counted no more than either, stays where it is. */
    __profile_mcount(site[0], f);
    assert_int_equal(slot_of(arc_record(site[0], f)), 0);
    assert_int_equal(arc_count(site[0], f), 2);
    assert_int_equal(arc_count(site[1], f), 2);
    assert_int_equal(arc_count(site[2], f), 2);
    assert_int_equal(profile_state.probe_max, 2);
}

/* Would an mcount stub's own lookup (<cyg/profile/hal.h>) find the arc from -> self, at
 * its home slot or the one after it, without the slow path? */
static int stub_finds(uintptr_t from, uintptr_t self)
{
    const struct profile_arc *a = &profile_state.armed_arcs[home_slot(from, self)];
    for (int i = 0; i < 2; i++, a++)
        if (a->from == (uint32_t)from && a->self == (uint32_t)self)
            return 1;
    return 0;
}

/* Calls of n arcs in turn, rounds times; returns how many an mcount stub would have sent
 * to the slow path, and checks every count. */
static uint32_t arc_rounds(const uintptr_t *from, const uintptr_t *self, uint32_t n,
                           uint32_t rounds)
{
    uint32_t misses = 0;
    for (uint32_t r = 0; r < rounds; r++)
        for (uint32_t i = 0; i < n; i++) {
            misses += !stub_finds(from[i], self[i]);
            __profile_mcount(from[i], self[i]);
        }
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(arc_count(from[i], self[i]), rounds);
    return misses;
}

/* One call site, several hot callees (a call through a pointer; the tail calls of -O2,
 * whose callees' mcount all see the caller's call site; interrupt handlers entered from
 * one EXC_RETURN value): each arc is found by the stub's lookup after its first call.
 * (Homed by call site alone, they shared two fast slots, and two calls in three of four
 * callees called in turn went to the slow path.) */
static void test_arcs_of_one_call_site_stay_fast(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x10000), 16, 1000), 0);
    uintptr_t from[4], self[4];
    for (int i = 0; i < 4; i++) {
        from[i] = LOW + 0x100;
        self[i] = LOW + 0x8000 + 0x40 * (uintptr_t)i;
    }
    assert_true(arc_rounds(from, self, 4, 1000) <= 4);
}

/* Three hot arcs with one home slot, called in turn: two keep the fast slots and the third
 * stays further along, one slow call a round, not a record moved on every call (where the
 * last called took the slot after the home, two calls of three were slow). */
static void test_hot_arcs_sharing_a_home_keep_their_slots(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x10000), 16, 1000), 0);
    uintptr_t from[3], self[3], a = LOW + 0x10, f = LOW + 0x8000;
    for (int i = 0; i < 3; i++) {
        while (i && home_slot(a, f) != home_slot(from[0], f))
            a += 2;
        from[i] = a;
        self[i] = f;
        a += 2;
    }
    uint32_t misses = arc_rounds(from, self, 3, 1000);
    assert_true(misses <= 1000 + 3);
    /* A fourth, colder, does not take a hot one's slot. */
    while (home_slot(a, f) != home_slot(from[0], f))
        a += 2;
    uint32_t hot_misses = 0;
    for (int r = 0; r < 100; r++) {
        __profile_mcount(a, f);
        hot_misses += !stub_finds(from[0], f) + !stub_finds(from[1], f);
    }
    assert_int_equal(hot_misses, 0);
    assert_int_equal(arc_count(a, f), 100);
    /* Once counted more than one in a fast slot, it takes its place. */
    for (int r = 0; r < 2000; r++)
        __profile_mcount(a, f);
    assert_true(stub_finds(a, f));
}

static void test_callee_outside_range_is_kept(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    __profile_mcount(LOW + 8, 0x42);
    assert_int_equal(arc_count(LOW + 8, 0x42), 1);
}

/* On a 64-bit target the table keeps addresses mod 2^32: an arc whose callee lies more than
 * 2 GiB from the range cannot be kept, and is counted as not recorded, never mixed up. */
static void test_arc_too_far_for_the_table_counted(void **state)
{
    (void)state;
    if (sizeof(uintptr_t) < 8)
        skip();
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    uintptr_t far = LOW + (uintptr_t)(sizeof(uintptr_t) > 4 ? 0x100000000ull : 0);
    __profile_mcount(LOW + 8, far + 0x100);
    __profile_mcount(LOW + 8, LOW + 0x100);
    struct profile_stats st = stats();
    assert_int_equal(st.arcs, 1);
    assert_int_equal(st.arcs_out_of_range, 1);
    assert_int_equal(arc_count(LOW + 8, LOW + 0x100), 1);
}

static void test_caller_outside_range_counted(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    __profile_mcount(LOW - 4, LOW + 8);
    __profile_mcount(LOW + 0x1000, LOW + 8);
    struct profile_stats st = stats();
    assert_int_equal(st.arcs, 0);
    assert_int_equal(st.arcs_out_of_range, 2);
}

static void test_arc_table_overflow_counted(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    uint32_t cap = stats().arcs_capacity;
    /* eCos formula: 5% of 4096 bytes in 12/16-byte records, plus 50. */
    assert_int_equal(cap, CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE * (0x1000 / 100) /
                              sizeof(struct profile_arc) + 50);
    for (uint32_t i = 0; i < cap; i++)
        __profile_mcount(LOW + 2 * i, LOW + 0x800);
    assert_int_equal(stats().arcs_dropped, 0);
    __profile_mcount(LOW + 2 * cap, LOW + 0x800);
    __profile_mcount(LOW + 2 * cap, LOW + 0x800);
    __profile_mcount(LOW, LOW + 0x804);
    __profile_mcount(LOW, LOW + 0x800);  /* existing arcs still count */
    struct profile_stats st = stats();
    assert_int_equal(st.arcs, cap);
    assert_int_equal(st.arcs_dropped, 3);
    assert_int_equal(arc_count(LOW, LOW + 0x800), 2);
    /* Full, every arc is still found (within probe_max of its home), one slot free. */
    for (uint32_t i = 0; i < cap; i++)
        __profile_mcount(LOW + 2 * i, LOW + 0x800);
    for (uint32_t i = 1; i < cap; i++)
        assert_int_equal(arc_count(LOW + 2 * i, LOW + 0x800), 2);
    assert_int_equal(stats().arcs_dropped, 3);
    uint32_t free_slots = 0;
    for (uint32_t i = 0; i < profile_state.nslots; i++)
        free_slots += profile_state.arcs[i].from == 0;
    assert_int_equal(free_slots, 1);
}

/*
 * The class, not instances: a stream of calls over a pool of arcs larger than the table
 * (hot and cold arcs, call sites sharing home slots, promotions, wrap-around, the table
 * filling up), checked against a model after every phase: an arc is in the table with its
 * exact count if its first call found room, else every call of it is counted as dropped;
 * nothing else is in the table.
 */
#define MODEL_ARCS 400
static void test_arc_table_matches_a_model(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x4000), 16, 1000), 0);
    const uint32_t cap = stats().arcs_capacity;
    assert_true(cap < MODEL_ARCS);
    static uintptr_t from[MODEL_ARCS], self[MODEL_ARCS];
    static uint32_t count[MODEL_ARCS];
    static int in_table[MODEL_ARCS];   /* 1: recorded, -1: dropped, 0: not called yet */
    for (uint32_t i = 0; i < MODEL_ARCS; i++) {
        from[i] = LOW + 2 * ((i * 7919u) % 0x2000);      /* distinct, spread, even */
        self[i] = LOW + 0x2000 + 16 * (i % 37);           /* callees shared by many sites */
        count[i] = 0;
        in_table[i] = 0;
    }
    uint32_t used = 0, dropped = 0, x = 2463534242u;
    for (int phase = 0; phase < 8; phase++) {
        for (int n = 0; n < 20000; n++) {
            x ^= x << 13; x ^= x >> 17; x ^= x << 5;
            /* skewed: low indices (hot arcs) far more often than high ones */
            uint32_t i = (x % MODEL_ARCS) % (1 + (x >> 20) % MODEL_ARCS);
            if (phase < 2)
                i = x % (MODEL_ARCS / 4);                /* a first set, before the rest */
            __profile_mcount(from[i], self[i]);
            if (!in_table[i])
                in_table[i] = used < cap ? (used++, 1) : -1;
            if (in_table[i] > 0)
                count[i]++;
            else
                dropped++;
        }
        struct profile_stats st = stats();
        assert_int_equal(st.arcs, used);
        assert_int_equal(st.arcs_dropped, dropped);
        uint32_t records = 0;
        for (uint32_t k = 0; k < profile_state.nslots; k++)
            records += profile_state.arcs[k].from != 0;
        assert_int_equal(records, used);
        for (uint32_t i = 0; i < MODEL_ARCS; i++) {
            if (in_table[i] > 0)
                assert_int_equal(arc_count(from[i], self[i]), count[i]);
            else
                assert_null(arc_record(from[i], self[i]));
        }
    }
    assert_int_equal(used, cap);     /* it did fill up */
    assert_true(dropped > 0);
}

static void test_arc_count_sticks_at_max(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    __profile_mcount(LOW + 8, LOW + 0x100);
    arc_record(LOW + 8, LOW + 0x100)->count = UINT32_MAX - 1;
    __profile_mcount(LOW + 8, LOW + 0x100);
    __profile_mcount(LOW + 8, LOW + 0x100);
    assert_int_equal(arc_count(LOW + 8, LOW + 0x100), UINT32_MAX);
}

static void test_profile_on_again_discards(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    __profile_hit(LOW + 4);
    __profile_mcount(LOW + 8, LOW + 0x100);
    assert_int_equal(profile_on(at(LOW + 0x2000), at(LOW + 0x3000), 32, 2000), 0);
    assert_int_equal(fake_hal.disable_calls, 1);
    assert_int_equal(fake_hal.enable_calls, 2);
    struct profile_stats st = stats();
    assert_int_equal(st.samples, 0);
    assert_int_equal(st.samples_out_of_range, 0);
    assert_int_equal(st.arcs, 0);
    assert_int_equal(profile_state.low_pc, LOW + 0x2000);
    /* the data itself is gone, not only its counters: every bin and every arc slot empty */
    for (uint32_t i = 0; i < profile_state.nbins; i++)
        assert_int_equal(profile_bin_count(&profile_state, i), 0);
    for (uint32_t i = 0; i < profile_state.nslots; i++)
        assert_int_equal(profile_state.arcs[i].from | profile_state.arcs[i].count, 0);
    assert_int_equal(profile_state.arcs_used, 0);
    __profile_hit(LOW + 4);  /* the old range is now out of range */
    assert_int_equal(stats().samples_out_of_range, 1);
    __profile_hit(LOW + 0x2000 + 40);
    assert_int_equal(profile_state.bins[1], 1);
}

static void test_profile_off_stops_and_resets(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    __profile_hit(LOW + 4);
    profile_off();
    assert_int_equal(fake_hal.disable_calls, 1);
    struct profile_stats st;
    assert_int_equal(profile_get_stats(&st), -ENODATA);
    __profile_hit(LOW + 4);            /* ignored, no crash */
    __profile_mcount(LOW + 4, LOW + 8);
    assert_null(profile_state.bins);
    profile_off();                     /* twice is harmless */
    assert_int_equal(fake_hal.disable_calls, 1);
}

/* profile_off forgets every field of the state but what lasts (struct profile_lasting: the
 * generation moves on, one per profile_on and profile_off, and no section is open), and
 * leaves the gates closed: the mcount gate on the free records, with its hash constant. */
static void test_profile_off_keeps_only_what_lasts(void **state)
{
    (void)state;
    uint32_t generation = profile_state.lasting.generation;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    __profile_hit(LOW + 4);
    __profile_mcount(LOW + 8, LOW + 0x100);
    profile_off();
    assert_int_equal(profile_state.lasting.generation, generation + 2);
    assert_int_equal(profile_state.lasting.busy, 0);
    static struct profile_state off;    /* (static: padding zero, as in profile_state) */
    memset(&off, 0, sizeof off);
    profile_disarm(&off);
    off.lasting = profile_state.lasting;
    assert_ptr_equal(profile_state.armed_arcs, profile_arcs_none);
    assert_int_equal(profile_state.hash_mul, PROFILE_ARC_HASH_MUL);
    assert_memory_equal(&profile_state, &off, sizeof off);
}

static void test_profile_reset(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    __profile_hit(LOW + 4);
    __profile_hit(0);
    __profile_mcount(LOW + 8, LOW + 0x100);
    profile_reset();
    struct profile_stats st = stats();
    assert_int_equal(st.samples + st.samples_out_of_range + st.arcs, 0);
    assert_int_equal(profile_state.bins[0], 0);
    __profile_mcount(LOW + 8, LOW + 0x100);
    assert_int_equal(arc_count(LOW + 8, LOW + 0x100), 1);
}

/* What gdb's gprof_reset does while the target is halted. */
static void gdb_reset(void)
{
    profile_state.reset_pending = 1;
    profile_state.armed_span = 0;
    profile_state.armed_homes = 0;
    profile_state.armed_arcs = (struct profile_arc *)profile_arcs_none;
}

static void test_pending_reset_applied_by_next_sample(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    __profile_hit(LOW + 4);
    __profile_mcount(LOW + 8, LOW + 0x100);
    gdb_reset();
    __profile_hit(LOW + 20);  /* resets first, then counts */
    struct profile_stats st = stats();
    assert_int_equal(st.samples, 1);
    assert_int_equal(st.arcs, 0);
    assert_int_equal(profile_state.bins[0], 0);
    assert_int_equal(profile_state.bins[1], 1);
    assert_int_equal(profile_state.reset_pending, 0);
}

/* gdb asks for a reset again while the target is performing one (it halted the target
 * in the middle of profile_clear): the target must not leave the gate open with a reset
 * still pending, or a later out-of-range event would wipe data not yet extracted. */
static void test_reset_requested_during_reset(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    __profile_hit(LOW + 4);
    gdb_reset();
    fake_memset_hook = gdb_reset;   /* gdb halts the target inside the reset */
    __profile_hit(LOW + 20);        /* performs the pending reset(s), then counts */
    assert_int_equal(profile_state.reset_pending, 0);
    assert_int_equal(profile_state.armed_span, 0x1000);
    __profile_hit(LOW + 36);
    __profile_hit(LOW + 0x2000);    /* out of range: the slow path again, no reset now */
    struct profile_stats st = stats();
    assert_int_equal(st.samples, 3);  /* out-of-range samples count too */
    assert_int_equal(profile_state.bins[1], 1);
    assert_int_equal(profile_state.bins[2], 1);
    assert_int_equal(st.samples_out_of_range, 1);
}

static void test_pending_reset_applied_by_next_call(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    __profile_hit(LOW + 4);
    __profile_mcount(LOW + 8, LOW + 0x100);
    gdb_reset();
    __profile_mcount(LOW + 8, LOW + 0x100);
    assert_int_equal(arc_count(LOW + 8, LOW + 0x100), 1);
    assert_int_equal(stats().samples, 0);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    struct profile_stats st;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    assert_int_equal(profile_on(at(LOW + 0x1000), at(LOW), 16, 1000), -EINVAL);
    assert_int_equal(profile_get_stats(&st), -ENODATA);  /* left off */
    assert_int_equal(profile_on(at(LOW), at(LOW), 16, 1000), -EINVAL);
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 0, 1000), -EINVAL);
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), -16, 1000), -EINVAL);
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 0), -EINVAL);
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, -5), -EINVAL);
    assert_int_equal(profile_on(at(UINTPTR_MAX - 10), at(UINTPTR_MAX), 64, 1000), -EINVAL);
    assert_int_equal(profile_get_stats(&st), -ENODATA);
    __profile_hit(LOW);
    __profile_mcount(LOW, LOW);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    struct profile_stats st;
    fake_hal.fail_malloc = 1;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), -ENOMEM);
    fake_hal.fail_malloc = 0;
    assert_int_equal(profile_get_stats(&st), -ENODATA);
    assert_int_equal(fake_hal.enable_calls, 0);
}

static void test_timer_failure(void **state)
{
    (void)state;
    struct profile_stats st;
    fake_hal.timer_result = -ERANGE;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), -ERANGE);
    assert_int_equal(profile_get_stats(&st), -ENODATA);
    /* The largest interval a HAL can return: no overflow in the rate, which rounds to
     * 0 Hz, and so is refused. */
    fake_hal.timer_result = 0x7fffffff;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), -EINVAL);
    assert_int_equal(profile_get_stats(&st), -ENODATA);
}

static void test_prof_rate_from_hal_interval(void **state)
{
    (void)state;
    fake_hal.timer_result = 4000;  /* the HAL could not do 3500 us */
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 3500), 0);
    assert_int_equal(fake_hal.requested_us, 3500);
    assert_int_equal(profile_state.prof_rate, 250);
}

/* gmon.out's prof_rate is whole Hz: an interval it cannot express within 1% is refused
 * (and profiling left off, the timer stopped); exact or near rates are taken. */
static void test_interval_prof_rate_cannot_express(void **state)
{
    (void)state;
    static const struct { int actual_us, ret; uint32_t rate; } cases[] = {
        { 3000000, -EINVAL, 0 },    /* 0.33 Hz: would be written as 0 */
        { 1500000, -EINVAL, 0 },    /* 0.67 Hz: as 1, 50% off */
        { 300000, -EINVAL, 0 },     /* 3.33 Hz: as 3, 10% off */
        { 1000000, 0, 1 },
        { 100000, 0, 10 },
        { 3500, 0, 286 },           /* 285.7 Hz: 0.1% off */
        { 10, 0, 100000 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fake_hal.timer_result = cases[i].actual_us;
        int disabled = fake_hal.disable_calls;
        assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, cases[i].actual_us),
                         cases[i].ret);
        if (cases[i].ret == 0) {
            assert_int_equal(profile_state.prof_rate, cases[i].rate);
        } else {
            assert_int_equal(profile_state.running, 0);
            assert_true(fake_hal.disable_calls > disabled);
            struct profile_stats st;
            assert_int_equal(profile_get_stats(&st), -ENODATA);
        }
    }
}

static void test_allocation_follows_formulas(void **state)
{
    (void)state;
    uintptr_t range = 512 * 1024;
    assert_int_equal(profile_on(at(LOW), at(LOW + range), 16, 1000), 0);
    struct profile_stats st = stats();
    size_t arcs = CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE * (range / 100) /
                  sizeof(struct profile_arc) + 50;
    assert_int_equal(st.arcs_capacity, arcs);
    assert_int_equal(profile_state.nslots, arcs + 1);
    assert_int_equal(sizeof(struct profile_arc), 12);
    assert_int_equal(sizeof(struct profile_ovf), 8);
    assert_int_equal(st.bytes_allocated, (1 + PROFILE_SNAPSHOT) *
                     (((arcs + 1) * 12 + 8 * CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS +
                       range / 16 * sizeof(profile_bin_t) + 7) / 8 * 8));
    /* Both sets' arc records are 8-byte aligned, whatever the bins' count (a set is padded). */
    for (uintptr_t r = 0x1000; r < 0x1000 + 8 * 16; r += 16) {
        assert_int_equal(profile_on(at(LOW), at(LOW + r), 16, 1000), 0);
        assert_int_equal((uintptr_t)profile_state.arcs % 8, 0);
        if (PROFILE_SNAPSHOT)
            assert_int_equal((uintptr_t)profile_state.spare % 8, 0);
    }
}

/* ---- serializer --------------------------------------------------------------------- */

static uint64_t get_uint(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = (v << 8) | p[i];
#else
        v |= (uint64_t)p[i] << (8 * i);
#endif
    return v;
}

static uint8_t *read_image(size_t *size, size_t chunk)
{
    struct profile_gmon_reader r;
    profile_gmon_reader_init(&r);
    *size = profile_gmon_size(&r);
    uint8_t *buf = malloc(*size + 16);
    size_t got = 0, n;
    while ((n = profile_gmon_read(&r, got, buf + got, chunk)) > 0)
        got += n;
    assert_int_equal(got, *size);
    return buf;
}

static void test_gmon_image_parsed_back(void **state)
{
    (void)state;
    const size_t A = sizeof(uintptr_t);
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x400), 16, 1000), 0);
    set_profiler_text(LOW + 0x380, 0x40);
    __profile_hit(LOW + 0x20);
    __profile_hit(LOW + 0x20);
    __profile_hit(LOW + 0x3FF);
    __profile_hit(LOW + 0x390);               /* profiler overhead: in the header */
    __profile_hit(1);
    for (int i = 0; i < 4; i++) __profile_mcount(LOW + 0x110, LOW + 0x200);
    __profile_mcount(LOW + 0x12, LOW + 0x300);
    __profile_mcount(LOW + 0x14, LOW + 0x300);
    __profile_mcount(LOW - 2, LOW + 0x300);   /* out of range: counted in the header */

    size_t size;
    uint8_t *img = read_image(&size, 4096);
    const uint8_t *p = img;
    assert_memory_equal(p, "gmon", 4);
    assert_int_equal(get_uint(p + 4, 4), 1);
    assert_int_equal(get_uint(p + 8, 4), 5);   /* samples */
    assert_int_equal(get_uint(p + 12, 4), 1);  /* profiler overhead */
    /* arcs not recorded (1), under the check byte: 0xA5 ^ (5 ^ 1 ^ 1) (doc/format.md) */
    assert_int_equal(get_uint(p + 16, 4), 0xA0000001u);
    p += 20;
    assert_int_equal(*p++, 0);
    assert_int_equal(get_uint(p, A), LOW); p += A;
    assert_int_equal(get_uint(p, A), LOW + 0x400); p += A;
    assert_int_equal(get_uint(p, 4), 0x40); p += 4;
    assert_int_equal(get_uint(p, 4), 1000); p += 4;
    assert_memory_equal(p, "seconds\0\0\0\0\0\0\0\0", 15); p += 15;
    assert_int_equal(*p++, 's');
    for (uint32_t i = 0; i < 0x40; i++, p += 2)
        assert_int_equal(get_uint(p, 2), i == 2 ? 2 : i == 0x3F ? 1 : 0);
    /* Arcs in file order: table slot order. */
    struct { uintptr_t from, self; uint32_t count; } want[] = {
        { LOW + 0x14, LOW + 0x300, 1 },
        { LOW + 0x12, LOW + 0x300, 1 },
        { LOW + 0x110, LOW + 0x200, 4 },
    };
    uint32_t last_slot = 0;
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(*p++, 1);
        uintptr_t from = (uintptr_t)get_uint(p, A), self = (uintptr_t)get_uint(p + A, A);
        uint32_t count = (uint32_t)get_uint(p + 2 * A, 4);
        p += 2 * A + 4;
        size_t k = 0;
        while (k < 3 && want[k].from != from)
            k++;
        assert_true(k < 3);
        assert_int_equal(self, want[k].self);
        assert_int_equal(count, want[k].count);
        want[k].from = 0;   /* once */
        uint32_t slot = slot_of(arc_record(from, self));
        assert_true(i == 0 || slot > last_slot);
        last_slot = slot;
    }
    assert_int_equal((size_t)(p - img), size);
    free(img);
}

/* A histogram record of an image: its header's fields and its bins. */
struct hist_record {
    uintptr_t low, high;
    uint32_t nbins, rate;
    const uint8_t *bins;
};

/* The histogram records of an image (in file order), up to max; returns how many and
 * sets *arcs_at to where the arcs begin. */
static size_t parse_records(const uint8_t *img, size_t size, struct hist_record *recs,
                            size_t max, size_t *arcs_at)
{
    const size_t A = sizeof(uintptr_t);
    size_t n = 0, p = 20;
    while (p < size && img[p] == 0) {
        assert_true(n < max);
        struct hist_record *r = &recs[n++];
        r->low = (uintptr_t)get_uint(img + p + 1, A);
        r->high = (uintptr_t)get_uint(img + p + 1 + A, A);
        r->nbins = (uint32_t)get_uint(img + p + 1 + 2 * A, 4);
        r->rate = (uint32_t)get_uint(img + p + 5 + 2 * A, 4);
        assert_memory_equal(img + p + 9 + 2 * A, "seconds\0\0\0\0\0\0\0\0s", 16);
        r->bins = img + p + 25 + 2 * A;
        p += 25 + 2 * A + 2 * (size_t)r->nbins;
        assert_true(p <= size);
    }
    *arcs_at = p;
    return n;
}

/* A bucket of 0xFFFF or more goes out as one-bucket records of the same range whose counts
 * add up to its count (65535 each, the last the rest), between records of the bins around
 * it; a bucket past its bin but below 0xFFFF (an overflow entry too) goes out in the
 * record around it, its true count its 16-bit bin; every record has the scale of the
 * histogram, and read back as GNU gprof reads them (adding up identical ranges) they give
 * every bucket its true count. */
static void test_gmon_split_records_parsed_back(void **state)
{
    (void)state;
    if (PROFILE_OVF_CAPACITY < 7)
        skip();
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x400), 16, 1000), 0);
    static const struct { uint32_t bin, count; } want[] = {
        { 0, 200000 }, { 3, 7 }, { 5, 65535 }, { 6, 131071 }, { 0x10, 255 }, { 0x11, 300 },
        { 0x12, 65534 }, { 0x20, 9 }, { 0x3F, 70000 },
    };
    uint32_t entries = 0;           /* (7 with 8-bit bins, 4 with 16-bit ones) */
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        burst(want[i].bin, want[i].count - 1);
        __profile_hit(LOW + 16 * want[i].bin + 6);   /* and one sample the usual way */
        entries += want[i].count >= PROFILE_BIN_MAX;
    }
    assert_int_equal(profile_state.ovf_used, entries);
    __profile_hit(0);

    size_t size;
    uint8_t *img = read_image(&size, 4096);
    struct hist_record recs[32];
    size_t arcs_at, n = parse_records(img, size, recs, 32, &arcs_at);
    assert_int_equal(arcs_at, size);   /* no arcs */
    /* [0]: 4 pieces; [1, 5); [5]: 1; [6]: 3; [7, 0x3F); [0x3F]: 2 */
    static const struct { uint32_t bin, nbins, count; } layout[] = {
        { 0, 1, 65535 }, { 0, 1, 65535 }, { 0, 1, 65535 }, { 0, 1, 200000 - 3 * 65535 },
        { 1, 4, 0 }, { 5, 1, 65535 }, { 6, 1, 65535 }, { 6, 1, 65535 }, { 6, 1, 1 },
        { 7, 0x38, 0 }, { 0x3F, 1, 65535 }, { 0x3F, 1, 70000 - 65535 },
    };
    assert_int_equal(n, sizeof layout / sizeof layout[0]);
    uint64_t sum[0x40] = { 0 };
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(recs[i].low, LOW + 16 * layout[i].bin);
        assert_int_equal(recs[i].nbins, layout[i].nbins);
        assert_int_equal(recs[i].high - recs[i].low, 16 * recs[i].nbins);  /* the scale */
        assert_int_equal(recs[i].rate, 1000);
        if (layout[i].count)
            assert_int_equal(get_uint(recs[i].bins, 2), layout[i].count);
        for (uint32_t b = 0; b < recs[i].nbins; b++)
            sum[layout[i].bin + b] += get_uint(recs[i].bins + 2 * b, 2);
    }
    uint64_t total = 0;
    for (uint32_t b = 0; b < 0x40; b++) {
        uint32_t expect = 0;
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
            if (want[i].bin == b)
                expect = want[i].count;
        assert_int_equal(sum[b], expect);
        total += sum[b];
    }
    /* The header: samples = the buckets' counts + the sample outside the range. */
    assert_int_equal(get_uint(img + 8, 4), total + 1);
    free(img);

    /* With arcs, read in any pieces, from a snapshot too: the same bytes. */
    __profile_mcount(LOW + 0x10, LOW + 0x200);
    uint8_t *whole = read_image(&size, 1 << 20);
    size_t chunks[] = { 1, 2, 5, 33, 35, 512 };
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        size_t size2;
        uint8_t *again = read_image(&size2, chunks[c]);
        assert_int_equal(size2, size);
        assert_memory_equal(again, whole, size);
        free(again);
    }
    struct profile_gmon_reader r;
    profile_gmon_reader_init(&r);
    uint8_t block[35];
    for (size_t off = size - size % 35;; off -= 35) {   /* backwards, as TFTP may */
        size_t got = profile_gmon_read(&r, off, block, sizeof block);
        assert_memory_equal(block, whole + off, got);
        if (off == 0)
            break;
    }
#if PROFILE_SNAPSHOT
    assert_int_equal(profile_snapshot_take(&r), 0);
    assert_int_equal(profile_gmon_size(&r), size);
    uint8_t *frozen = malloc(size);
    assert_int_equal(profile_gmon_read(&r, 0, frozen, size), size);
    assert_memory_equal(frozen, whole, size);
    /* the live set goes on in the spare, its overflow entries all free */
    assert_int_equal(profile_state.ovf_used, 0);
    for (uint32_t i = 0; i < profile_state.ovf_capacity; i++)
        assert_int_equal(profile_state.ovf[i].bin + profile_state.ovf[i].high, 0);
    profile_snapshot_release(&r, 1);
    free(frozen);
#endif
    free(whole);
}

/* A stuck bucket (no entry free) goes out as what its bin kept (PROFILE_BIN_MAX) in its
 * record, not split. */
static void test_gmon_stuck_bucket_not_split(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x2000), 16, 1000), 0);
    for (uint32_t b = 0; b <= PROFILE_OVF_CAPACITY; b++)
        burst(b, 0x10000 + b);
    assert_int_equal(profile_state.bins[PROFILE_OVF_CAPACITY], PROFILE_BIN_MAX);
    assert_int_equal(stats().buckets_saturated, 1);
    size_t size, arcs_at;
    uint8_t *img = read_image(&size, 4096);
    struct hist_record recs[2 * CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS + 4];
    size_t n = parse_records(img, size, recs, sizeof recs / sizeof recs[0], &arcs_at);
    assert_int_equal(n, 2 * PROFILE_OVF_CAPACITY + 1);   /* two pieces each, then the rest */
    assert_int_equal(recs[n - 1].low, LOW + 16 * PROFILE_OVF_CAPACITY);
    assert_int_equal(recs[n - 1].nbins, 0x200 - PROFILE_OVF_CAPACITY);
    assert_int_equal(get_uint(recs[n - 1].bins, 2), PROFILE_BIN_MAX);
    free(img);
}

static void test_gmon_read_in_any_chunks(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x4000), 4, 1000), 0);
    for (uint32_t i = 0; i < 300; i++) {
        __profile_hit(LOW + (i * 37) % 0x4000);
        __profile_mcount(LOW + (i * 53) % 0x4000, LOW + (i % 7) * 0x100);
    }
    size_t size, size2;
    uint8_t *whole = read_image(&size, 1 << 20);
    size_t chunks[] = { 1, 3, 7, 13, 512 };
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        uint8_t *again = read_image(&size2, chunks[c]);
        assert_int_equal(size2, size);
        assert_memory_equal(again, whole, size);
        free(again);
    }
    /* Random access, backwards too: a TFTP block sent again after a lost ACK. */
    struct profile_gmon_reader r;
    profile_gmon_reader_init(&r);
    uint8_t block[512];
    for (size_t off = size - size % 512; ; off -= 512) {
        size_t n = profile_gmon_read(&r, off, block, sizeof block);
        assert_int_equal(n, off + 512 <= size ? 512 : size - off);
        assert_memory_equal(block, whole + off, n);
        if (off == 0) break;
    }
    assert_int_equal(profile_gmon_read(&r, size, block, sizeof block), 0);
    free(whole);
}

static void test_gmon_empty_when_off(void **state)
{
    (void)state;
    struct profile_gmon_reader r;
    uint8_t b[4];
    profile_gmon_reader_init(&r);
    assert_int_equal(profile_gmon_size(&r), 0);
    assert_int_equal(profile_gmon_read(&r, 0, b, sizeof b), 0);
}

/* ---- snapshots (double buffering for TFTP) ----------------------------------------- */
#if PROFILE_SNAPSHOT

static void test_snapshot_freezes_and_recording_goes_on(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    __profile_hit(LOW + 4);
    __profile_mcount(LOW + 8, LOW + 0x100);
    size_t before_size;
    uint8_t *before = read_image(&before_size, 4096);

    struct profile_gmon_reader r;
    assert_int_equal(profile_snapshot_take(&r), 0);
    struct profile_gmon_reader r2;
    assert_int_equal(profile_snapshot_take(&r2), -EBUSY);
    /* Recorded during the transfer: goes to the live set, not the snapshot. */
    __profile_hit(LOW + 4);
    __profile_hit(LOW + 4);
    __profile_mcount(LOW + 8, LOW + 0x100);
    __profile_mcount(LOW + 12, LOW + 0x100);
    uint8_t frozen[8192];
    size_t n = profile_gmon_read(&r, 0, frozen, sizeof frozen);
    assert_int_equal(n, before_size);
    assert_memory_equal(frozen, before, n);
    struct profile_stats st = stats();
    assert_int_equal(st.samples, 2);
    assert_int_equal(st.arcs, 2);
    assert_int_equal(st.samples_total, 3);

    profile_snapshot_release(&r, 1);  /* delivered: dropped, live data stays */
    st = stats();
    assert_int_equal(st.samples, 2);
    assert_int_equal(st.samples_total, 3);
    assert_int_equal(profile_state.bins[0], 2);
    assert_int_equal(arc_count(LOW + 8, LOW + 0x100), 1);
    /* The spare is usable again, and zeroed. */
    assert_int_equal(profile_snapshot_take(&r), 0);
    __profile_hit(LOW + 4);
    assert_int_equal(profile_state.bins[0], 1);
    profile_snapshot_release(&r, 1);
    assert_int_equal(stats().samples_total, 4);
    free(before);
}

static void test_abandoned_snapshot_merges_back(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    for (uint32_t i = 0; i < PROFILE_BIN_MAX - 0x10; i++)
        __profile_hit(LOW + 4);
    __profile_hit(LOW + 40);
    __profile_hit(0);
    set_profiler_text(LOW + 0x2000, 0x10);
    __profile_hit(LOW + 0x2000);
    __profile_mcount(LOW + 8, LOW + 0x100);
    __profile_mcount(LOW + 8, LOW + 0x100);
    __profile_mcount(LOW + 0x300, LOW + 0x200);
    struct profile_gmon_reader r;
    assert_int_equal(profile_snapshot_take(&r), 0);
    assert_int_equal(stats().samples_overhead, 0);
    __profile_hit(LOW + 0x2004);
    for (int i = 0; i < 0x20; i++)
        __profile_hit(LOW + 4);
    __profile_mcount(LOW + 8, LOW + 0x100);
    __profile_mcount(LOW + 0x500, LOW + 0x200);
    profile_snapshot_release(&r, 0);  /* transfer failed */
    struct profile_stats st = stats();
    assert_int_equal(st.samples, PROFILE_BIN_MAX - 0x10 + 2 + 0x20 + 2);
    assert_int_equal(st.samples_total, st.samples);
    assert_int_equal(st.samples_out_of_range, 1);
    assert_int_equal(st.samples_overhead, 2);
    if (PROFILE_OVF_CAPACITY) {
        /* the sum counts on past its bin in an overflow entry of the live set */
        assert_int_equal(profile_bin_count(&profile_state, 0), PROFILE_BIN_MAX - 0x10 + 0x20);
        assert_int_equal(st.buckets_saturated, 0);
    } else {
        assert_int_equal(profile_state.bins[0], PROFILE_BIN_MAX);
        assert_int_equal(st.buckets_saturated, 1);
    }
    assert_int_equal(profile_state.bins[2], 1);
    assert_int_equal(arc_count(LOW + 8, LOW + 0x100), 3);
    assert_int_equal(arc_count(LOW + 0x300, LOW + 0x200), 1);
    assert_int_equal(arc_count(LOW + 0x500, LOW + 0x200), 1);
    assert_int_equal(st.arcs, 3);
}

/* What a reader sees whenever interrupts are enabled during profile_snapshot_release():
 * gdb (gdb/gprof.gdb) reports the live set's counters and, while profile_frozen.bins is
 * set, the frozen samples as "in that transfer"; profile_get_stats() sums samples_retired,
 * the live set and the frozen set. Neither may count a sample (or a call) twice. */
static struct {
    uint32_t samples, in_range, calls;  /* what was recorded since profile_on */
    int windows;                        /* how many times the hook looked */
} merge_expect;

/* The samples in a set's buckets: their true counts (bins and overflow entries). */
static uint32_t set_bins(const struct profile_state *s)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; s->bins && i < s->nbins; i++)
        sum += profile_bin_count(s, i);
    return sum;
}

static uint32_t set_calls(const struct profile_state *s)
{
    uint32_t sum = 0;
    for (uint32_t slot = 0; s->arcs && slot < s->nslots; slot++)
        if (s->arcs[slot].from)
            sum += s->arcs[slot].count;
    return sum;
}

static void check_merge_window(void)
{
    const struct profile_state *s = &profile_state, *f = &profile_frozen;
    void (*hook)(void) = hal_host_irq_enabled_hook;
    hal_host_irq_enabled_hook = NULL;  /* profile_get_stats masks interrupts too */
    merge_expect.windows++;
    uint32_t frozen_samples = f->bins ? f->samples : 0;  /* as gprof.gdb reads it */
    assert_int_equal(s->samples + frozen_samples, merge_expect.samples);
    assert_int_equal(s->samples_retired, 0);
    struct profile_stats st = stats();
    assert_int_equal(st.samples_total, merge_expect.samples);
    assert_int_equal(set_bins(s) + (f->bins ? set_bins(f) : 0), merge_expect.in_range);
    assert_int_equal(set_calls(s) + (f->bins ? set_calls(f) : 0), merge_expect.calls);
    hal_host_irq_enabled_hook = hook;
}

static void test_merge_back_counts_nothing_twice(void **state)
{
    (void)state;
    /* 256 bins: the merge takes several masked sections (MERGE_CHUNK), and one per arc. */
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    for (uint32_t b = 0; b < 256; b += 3)
        __profile_hit(LOW + b * 16);
    __profile_hit(0);
    __profile_mcount(LOW + 8, LOW + 0x100);
    __profile_mcount(LOW + 0x300, LOW + 0x200);
    __profile_mcount(LOW + 0x300, LOW + 0x200);
    struct profile_gmon_reader r;
    assert_int_equal(profile_snapshot_take(&r), 0);
    __profile_hit(LOW + 4);
    __profile_hit(LOW + 0xF00);
    __profile_mcount(LOW + 8, LOW + 0x100);
    __profile_mcount(LOW + 0x500, LOW + 0x200);

    merge_expect.samples = 86 + 1 + 2;
    merge_expect.in_range = 86 + 2;
    merge_expect.calls = 5;
    merge_expect.windows = 0;
    check_merge_window();  /* before: the snapshot is still outstanding */
    hal_host_irq_enabled_hook = check_merge_window;
    profile_snapshot_release(&r, 0);  /* abandoned: merged back */
    hal_host_irq_enabled_hook = NULL;
    assert_true(merge_expect.windows > 1 + 4);
    check_merge_window();  /* after */
    assert_null(profile_frozen.bins);
    assert_int_equal(arc_count(LOW + 8, LOW + 0x100), 2);
    assert_int_equal(arc_count(LOW + 0x300, LOW + 0x200), 2);
    assert_int_equal(arc_count(LOW + 0x500, LOW + 0x200), 1);
}

/* Merge-back of buckets past their bin: true counts add up whichever set held an overflow
 * entry; a bucket stuck on either side stays stuck; no window shows a sample twice or not
 * at all (check_merge_window, in true counts). */
static void test_merge_back_overflow(void **state)
{
    (void)state;
    if (PROFILE_OVF_CAPACITY < 4)
        skip();
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    struct profile_state *s = &profile_state;
    burst(1, 100000);                 /* frozen: an entry */
    burst(2, PROFILE_BIN_MAX - 0x10); /* frozen: none, the sum will need one */
    burst(3, 0x10);
    burst(5, 0xFFFF + 10);            /* frozen: stuck below */
    hal_profile_irq_state irq = profile_lock();
    profile_bin_store(s, 5, profile_bin_count(s, 5), 1);
    profile_unlock(irq);
    assert_int_equal(s->bins[5], PROFILE_BIN_MAX);
    struct profile_gmon_reader r;
    assert_int_equal(profile_snapshot_take(&r), 0);
    burst(1, 70000);                  /* live: an entry of its own */
    burst(2, 0x20);
    burst(4, 80000);
    burst(5, 3);
    __profile_hit(LOW + 0x5C);        /* one the usual way */

    merge_expect.samples = 100000 + PROFILE_BIN_MAX - 0x10 + 0x10 + 0xFFFF + 10 + 70000 + 0x20 + 80000 + 4;
    merge_expect.in_range = merge_expect.samples;
    merge_expect.calls = 0;
    merge_expect.windows = 0;
    check_merge_window();
    hal_host_irq_enabled_hook = check_merge_window;
    profile_snapshot_release(&r, 0);
    hal_host_irq_enabled_hook = NULL;
    assert_true(merge_expect.windows > 1 + 4 + 4);
    check_merge_window();
    check_ovf_table(s);
    assert_int_equal(profile_bin_count(s, 1), 170000);
    assert_int_equal(profile_bin_count(s, 2), PROFILE_BIN_MAX - 0x10 + 0x20);
    assert_int_equal(profile_bin_count(s, 3), 0x10);
    assert_int_equal(profile_bin_count(s, 4), 80000);
    assert_int_equal(profile_bin_count(s, 5), 0xFFFF + 10 + 4);
    assert_int_equal(s->bins[5], PROFILE_BIN_MAX); /* still stuck */
    assert_int_equal(stats().buckets_saturated, 1);
    /* The frozen set is the spare again, all zero. */
    assert_non_null(s->spare);
    for (size_t i = 0; i < s->set_bytes; i++)
        assert_int_equal(((uint8_t *)s->spare)[i], 0);
}

/* Merge-back into a live set whose overflow entries are all taken: a bucket that needs one
 * sticks at PROFILE_BIN_MAX (counted), the rest refused; every sample is still in the header. */
static void test_merge_back_overflow_table_full(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x2000), 16, 1000), 0);
    struct profile_state *s = &profile_state;
    const uint32_t hot = 0x1F0;
    burst(hot, 100000);
    struct profile_gmon_reader r;
    assert_int_equal(profile_snapshot_take(&r), 0);
    for (uint32_t b = 0; b + 1 <= PROFILE_OVF_CAPACITY; b++)   /* (no warning with 0) */
        burst(b, 0x10000);
    burst(hot, 5);
    profile_snapshot_release(&r, 0);
    struct profile_stats st = stats();
    assert_int_equal(s->bins[hot], PROFILE_BIN_MAX);
    assert_int_equal(st.buckets_saturated, 1);
    assert_int_equal(st.samples, 100000 + 5 + 0x10000 * PROFILE_OVF_CAPACITY);
    assert_int_equal(set_bins(s), PROFILE_BIN_MAX + 0x10000 * PROFILE_OVF_CAPACITY);
    check_ovf_table(s);
}

static void test_snapshot_ended_by_profile_off(void **state)
{
    (void)state;
    struct profile_gmon_reader r;
    assert_int_equal(profile_snapshot_take(&r), -ENODATA);
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    assert_int_equal(profile_snapshot_take(&r), 0);
    profile_off();
    uint8_t b[16];
    assert_int_equal(profile_gmon_read(&r, 0, b, sizeof b), 0);
    profile_snapshot_release(&r, 1);  /* harmless */
}

/*
 * gdb halting the target wherever interrupts are enabled (gdb/gprof.gdb runs it out of the
 * package's sections first, so those are the places it reads at) and dumping: it reads the
 * live counters and arrays as GprofData does, then asks for a reset. One run per window:
 * over a run with snapshots taken, delivered and abandoned, dumps + delivered snapshots +
 * what remains = everything recorded, exactly; every dump's header agrees with its bins.
 */
static struct {
    int at, windows;                     /* dump at window number `at` (and at + 7) */
    uint32_t samples, in_range, calls, overhead;   /* dumped */
} gdb_dumped;

static void gdb_dump_here(void)
{
    const struct profile_state *s = &profile_state;
    assert_int_equal(s->lasting.busy, 0);        /* no section is open where interrupts are on */
    gdb_dumped.windows++;
    if (gdb_dumped.windows != gdb_dumped.at && gdb_dumped.windows != gdb_dumped.at + 7)
        return;
    if (!s->running || s->reset_pending)
        return;                          /* gprof.gdb: empty data */
    uint32_t bins = set_bins(s);
    assert_int_equal(s->samples, bins + s->samples_out_of_range + s->samples_overhead);
    gdb_dumped.samples += s->samples;
    gdb_dumped.overhead += s->samples_overhead;
    gdb_dumped.in_range += bins;
    gdb_dumped.calls += set_calls(s);
    gdb_reset();
}

static void record_some(uint32_t seed)
{
    for (uint32_t i = 0; i < 20; i++) {
        __profile_hit(LOW + ((seed + i) * 52) % 0x1000);
        __profile_mcount(LOW + ((seed * 7 + i) * 36) % 0x1000, LOW + (i % 5) * 0x100);
    }
    __profile_hit(0);
    __profile_hit(LOW + 0x2000);   /* profiler overhead (test_gdb_dump_at_any_window_is_exact) */
    burst(3, BURST);               /* one bucket past 0xFFFF (with entries), in every set */
}

struct totals { uint32_t samples, in_range, calls, overhead; };

static void deliver(struct profile_gmon_reader *r, int delivered, struct totals *t)
{
    if (delivered) {
        const struct profile_state *f = &profile_frozen;
        assert_int_equal(f->samples, set_bins(f) + f->samples_out_of_range + f->samples_overhead);
        t->samples += f->samples;
        t->overhead += f->samples_overhead;
        t->in_range += set_bins(f);
        t->calls += set_calls(f);
    }
    profile_snapshot_release(r, delivered);
}

static void test_gdb_dump_at_any_window_is_exact(void **state)
{
    (void)state;
    int windows = 0;
    for (int first_delivered = 0; first_delivered < 2; first_delivered++) {
        for (int window = 1;; window++) {
            assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
            set_profiler_text(LOW + 0x2000, 0x10);
            memset(&gdb_dumped, 0, sizeof gdb_dumped);
            gdb_dumped.at = window;
            struct totals t = { 0, 0, 0, 0 };
            struct profile_gmon_reader r;
            hal_host_irq_enabled_hook = gdb_dump_here;
            record_some(1);
            assert_int_equal(profile_snapshot_take(&r), 0);
            record_some(2);
            deliver(&r, first_delivered, &t);
            record_some(3);
            assert_int_equal(profile_snapshot_take(&r), 0);
            record_some(4);
            deliver(&r, !first_delivered, &t);
            hal_host_irq_enabled_hook = NULL;
            const struct profile_state *s = &profile_state;
            if (!s->reset_pending) {
                t.samples += s->samples;
                t.overhead += s->samples_overhead;
                t.in_range += set_bins(s);
                t.calls += set_calls(s);
            }
            assert_int_equal(gdb_dumped.samples + t.samples, 4 * (22 + BURST));
            assert_int_equal(gdb_dumped.overhead + t.overhead, 4);
            assert_int_equal(gdb_dumped.in_range + t.in_range, 4 * (20 + BURST));
            assert_int_equal(gdb_dumped.calls + t.calls, 4 * 20);
            profile_off();
            if (window > gdb_dumped.windows)
                break;
            windows = gdb_dumped.windows;
        }
    }
    assert_true(windows > 4 * 40 + 10);
}

/*
 * profile_on() or profile_off() at any point of a snapshot's release (another thread that
 * breaks doc/tftp.md's locking rule; from an interrupt handler they are refused): the
 * release touches nothing of the freed or new sets (ASan reports any write), and the new
 * profile is left as profile_on made it.
 */
static int restart_at_window, restart_window_seen, restart_with_on;

static void restart_here(void)
{
    if (++restart_window_seen != restart_at_window)
        return;
    void (*hook)(void) = hal_host_irq_enabled_hook;
    hal_host_irq_enabled_hook = NULL;
    if (restart_with_on)
        assert_int_equal(profile_on(at(LOW), at(LOW + 0x800), 8, 1000), 0);
    else
        assert_int_equal(profile_off(), 0);
    hal_host_irq_enabled_hook = hook;
}

static void test_profile_on_off_during_release(void **state)
{
    (void)state;
    for (restart_with_on = 0; restart_with_on < 2; restart_with_on++) {
        for (restart_at_window = 1;; restart_at_window++) {
            int reached = 0;
            for (int delivered = 0; delivered < 2; delivered++) {
                assert_int_equal(profile_on(at(LOW), at(LOW + 0x4000), 16, 1000), 0);
                record_some(1);
                struct profile_gmon_reader r;
                assert_int_equal(profile_snapshot_take(&r), 0);
                record_some(2);
                restart_window_seen = 0;
                hal_host_irq_enabled_hook = restart_here;
                profile_snapshot_release(&r, delivered);
                hal_host_irq_enabled_hook = NULL;
                reached |= restart_window_seen >= restart_at_window;
                if (restart_window_seen >= restart_at_window) {
                    /* The new profile (or none) is untouched by the old release. */
                    struct profile_stats st;
                    if (restart_with_on) {
                        assert_int_equal(profile_get_stats(&st), 0);
                        assert_int_equal(st.samples_total, 0);
                        assert_int_equal(set_bins(&profile_state) + set_calls(&profile_state), 0);
                        assert_non_null(profile_state.spare);
                    } else {
                        assert_int_equal(profile_get_stats(&st), -ENODATA);
                    }
                    assert_null(profile_frozen.bins);
                }
                profile_off();
            }
            if (!reached)
                break;   /* past the last window of both kinds of release */
        }
        assert_true(restart_at_window > 20);
    }
}
#else
/* Built without snapshots (a configuration without TFTP): no spare set is allocated, and a
 * snapshot is refused rather than taken from the live data. */
static void test_no_snapshot_without_spare(void **state)
{
    (void)state;
    struct profile_gmon_reader r;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    assert_null(profile_state.spare);
    __profile_hit(LOW + 4);
    assert_int_equal(profile_snapshot_take(&r), -ENOSPC);
    assert_int_equal(stats().samples, 1);
}
#endif

/* ---- several ranges (profile_on_ranges) ------------------------------------------------ */

static int on_ranges(uintptr_t a0, uintptr_t a1, uintptr_t b0, uintptr_t b1, int bucket)
{
    const struct profile_range r[2] = { { at(a0), at(a1) }, { at(b0), at(b1) } };
    return profile_on_ranges(r, 2, bucket, 1000);
}

/* Refused with -EINVAL, profiling left off and nothing allocated: no ranges, too few or too
 * many, a range with start >= end, ranges that overlap (after rounding up to the bucket),
 * on a 64-bit target ranges in two 4 GiB windows; -ENOMEM for tables that would take
 * 4 GiB together. Out of order, or side by side, is fine. */
static void test_ranges_refused(void **state)
{
    (void)state;
    struct profile_stats st;
    struct profile_range many[CYGNUM_PROFILE_MAX_RANGES + 1];
    for (int i = 0; i <= CYGNUM_PROFILE_MAX_RANGES; i++)
        many[i] = (struct profile_range){ at(LOW + 0x1000 * i), at(LOW + 0x1000 * i + 0x100) };
    static const struct { uintptr_t a0, a1, b0, b1; int bucket; } bad[] = {
        { LOW, LOW + 0x100, LOW + 0x200, LOW + 0x200, 16 },     /* empty */
        { LOW, LOW + 0x100, LOW + 0x300, LOW + 0x200, 16 },     /* reversed */
        { LOW, LOW + 0x100, LOW + 0xF0, LOW + 0x200, 16 },      /* overlap */
        { LOW + 0xF0, LOW + 0x200, LOW, LOW + 0x100, 16 },      /* overlap, out of order */
        { LOW, LOW + 0x101, LOW + 0x108, LOW + 0x200, 16 },     /* overlap once rounded */
        { LOW, LOW + 0x100, LOW + 0x40, LOW + 0x80, 16 },       /* one inside the other */
        { LOW, LOW + 0x100, LOW, LOW + 0x100, 16 },             /* the same twice */
        { LOW, LOW + 0x100, LOW + 0x200, LOW + 0x300, 0 },      /* bucket */
    };
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fake_hal.last_malloc_size = 0;
        assert_int_equal(on_ranges(bad[i].a0, bad[i].a1, bad[i].b0, bad[i].b1, bad[i].bucket),
                         -EINVAL);
        assert_int_equal(profile_get_stats(&st), -ENODATA);
        assert_int_equal(fake_hal.last_malloc_size, 0);
    }
    fake_hal.last_malloc_size = 0;
    assert_int_equal(profile_on_ranges(NULL, 1, 16, 1000), -EINVAL);
    assert_int_equal(profile_on_ranges(many, 0, 16, 1000), -EINVAL);
    assert_int_equal(profile_on_ranges(many, -1, 16, 1000), -EINVAL);
    assert_int_equal(profile_on_ranges(many, CYGNUM_PROFILE_MAX_RANGES + 1, 16, 1000), -EINVAL);
    assert_int_equal(profile_on_ranges(many, 1, 16, 0), -EINVAL);
    assert_int_equal(fake_hal.last_malloc_size, 0);
    assert_int_equal(profile_get_stats(&st), -ENODATA);
    /* 2^31 two-byte buckets in two ranges: a gmon.out of 4 GiB */
    assert_int_equal(on_ranges(0x80000000u, 0xFFFFFFFEu, 0, 0x80000000u, 2), -ENOMEM);
    assert_int_equal(fake_hal.last_malloc_size, 0);
    /* the same in one range (doc/profiling.md's example) */
    assert_int_equal(profile_on((void *)0, (void *)(uintptr_t)0xFFFFFFFEu, 2, 1000), -ENOMEM);
    assert_int_equal(fake_hal.last_malloc_size, 0);
    if (sizeof(uintptr_t) > 4) {
        uintptr_t g = (uintptr_t)(sizeof(uintptr_t) > 4 ? 0x100000000ull : 0);
        assert_int_equal(on_ranges(LOW, LOW + 0x100, g + LOW, g + LOW + 0x100, 16), -EINVAL);
        assert_int_equal(on_ranges(g - 0x100, g - 0x80, g - 0x40, g + 0x40, 16), -EINVAL);
        assert_int_equal(fake_hal.last_malloc_size, 0);
        /* in one window, above the first: fine */
        assert_int_equal(on_ranges(g + LOW, g + LOW + 0x100, g + 0x200, g + 0x300, 16), 0);
        /* one range may reach out of its window, as with profile_on */
        assert_int_equal(profile_on(at(g - 0x100), at(g + 0x100), 16, 1000), 0);
    }
    /* Fine: out of order, side by side (rounded), all of them. */
    assert_int_equal(on_ranges(LOW + 0x110, LOW + 0x200, LOW, LOW + 0x101, 16), 0);
    assert_int_equal(profile_on_ranges(many, CYGNUM_PROFILE_MAX_RANGES, 16, 1000), 0);
    assert_int_equal(profile_state.nranges, CYGNUM_PROFILE_MAX_RANGES);
}

/* The layout: ranges in address order, the largest one's bins first (the fast path's),
 * its range in low_pc/open_span; the arc table from the ranges' total size; memory as
 * profile_on's for the same number of bins. */
static void test_ranges_layout(void **state)
{
    (void)state;
    const struct profile_range r[3] = {
        { at(LOW + 0x10000), at(LOW + 0x10100) },   /* B */
        { at(LOW), at(LOW + 0x1000) },              /* A, the largest */
        { at(LOW - 0x800), at(LOW - 0x704) },       /* C, below (rounded up to 0x100) */
    };
    assert_int_equal(profile_on_ranges(r, 3, 16, 1000), 0);
    const struct profile_state *s = &profile_state;
    assert_int_equal(s->nranges, 3);
    assert_int_equal(s->ranges[0].low, LOW - 0x800);
    assert_int_equal(s->ranges[0].span, 0x100);
    assert_int_equal(s->ranges[1].low, LOW);
    assert_int_equal(s->ranges[2].low, LOW + 0x10000);
    assert_int_equal(s->ranges[1].first, 0);        /* the fast path's */
    assert_int_equal(s->ranges[1].nbins, 0x100);
    assert_int_equal(s->ranges[0].first, 0x100);
    assert_int_equal(s->ranges[0].nbins, 0x10);
    assert_int_equal(s->ranges[2].first, 0x110);
    assert_int_equal(s->ranges[2].nbins, 0x10);
    assert_int_equal(s->nbins, 0x120);
    assert_int_equal(s->low_pc, LOW);
    assert_int_equal(s->open_span, 0x1000);
    assert_int_equal(s->high_pc, LOW + 0x1000);
    uint64_t total = 0x1000 + 0x100 + 0xFC;
    uint32_t cap = CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE * (total / 100) / 12 + 50;
    struct profile_stats st = stats();
    assert_int_equal(st.arcs_capacity, cap);
    assert_int_equal(st.bytes_allocated, (1 + PROFILE_SNAPSHOT) *
                     (((cap + 1) * 12 + 8 * CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS +
                       0x120 * sizeof(profile_bin_t) + 7)
                      / 8 * 8));
}

/* Samples and calls in every range: each in its own bins, call sites in any range recorded
 * whatever range the callee is in; outside all of them counted as such. */
static void test_ranges_samples_and_arcs(void **state)
{
    (void)state;
    const uintptr_t B = LOW + 0x10000, C = LOW - 0x800;
    const struct profile_range r[3] = {
        { at(B), at(B + 0x100) }, { at(LOW), at(LOW + 0x1000) }, { at(C), at(C + 0x100) },
    };
    assert_int_equal(profile_on_ranges(r, 3, 16, 1000), 0);
    const struct profile_state *s = &profile_state;
    __profile_hit(LOW + 0x24);          /* A: fast path, bin 2 */
    __profile_hit(B + 0x18);            /* B: bin 0x110 + 1 */
    __profile_hit(B + 0xFF);            /* B's last byte */
    __profile_hit(C);                   /* C's first */
    __profile_hit(C + 0x100);           /* just past C: outside */
    __profile_hit(B + 0x100);           /* just past B */
    __profile_hit(LOW - 1);             /* between C and A */
    struct profile_stats st = stats();
    assert_int_equal(st.samples, 7);
    assert_int_equal(st.samples_out_of_range, 3);
    assert_int_equal(profile_bin_count(s, 2), 1);
    assert_int_equal(profile_bin_count(s, 0x111), 1);
    assert_int_equal(profile_bin_count(s, 0x11F), 1);
    assert_int_equal(profile_bin_count(s, 0x100), 1);
    assert_int_equal(bins_true_sum(), 4);
    /* calls: B -> A, C -> B, A -> C, A -> A, from outside -> A */
    for (int i = 0; i < 3; i++)
        __profile_mcount(B + 0x20, LOW + 0x200);
    __profile_mcount(C + 0x10, B + 0x40);
    __profile_mcount(LOW + 0x30, C + 0x80);
    __profile_mcount(LOW + 0x34, LOW + 0x300);
    __profile_mcount(B + 0x100, LOW + 0x300);   /* just past B */
    __profile_mcount(LOW - 4, LOW + 0x300);     /* between C and A */
    st = stats();
    assert_int_equal(arc_count(B + 0x20, LOW + 0x200), 3);
    assert_int_equal(arc_count(C + 0x10, B + 0x40), 1);
    assert_int_equal(arc_count(LOW + 0x30, C + 0x80), 1);
    assert_int_equal(arc_count(LOW + 0x34, LOW + 0x300), 1);
    assert_int_equal(st.arcs, 4);
    assert_int_equal(st.arcs_out_of_range, 2);
    /* A bucket of B past 0xFFFF, one of C, one of A: entries in bin order */
    burst(0x111, 100000);
    burst(0x100, 70000);
    burst(5, 0x10000);
    check_ovf_table(s);
    assert_int_equal(s->ovf_used, PROFILE_OVF_CAPACITY < 3 ? PROFILE_OVF_CAPACITY : 3);
    if (PROFILE_OVF_CAPACITY >= 3)
        assert_int_equal(profile_bin_count(s, 0x111), 100001);
    /* A reset gdb asks for, then a sample in B: performed by the slow path first. */
    gdb_reset();
    __profile_hit(B + 0x18);
    assert_int_equal(stats().samples, 1);
    assert_int_equal(bins_true_sum(), 1);
    assert_int_equal(s->ovf_used, 0);
    __profile_mcount(C + 0x10, B + 0x40);
    assert_int_equal(stats().arcs, 1);
#if PROFILE_SNAPSHOT
    /* A snapshot holds every range's bins; merged back, nothing lost. */
    struct profile_gmon_reader rd;
    __profile_hit(C + 4);
    assert_int_equal(profile_snapshot_take(&rd), 0);
    __profile_hit(C + 4);
    __profile_hit(LOW + 0x24);
    __profile_mcount(C + 0x10, B + 0x40);
    profile_snapshot_release(&rd, 0);
    assert_int_equal(profile_bin_count(s, 0x100), 2);
    assert_int_equal(profile_bin_count(s, 0x111), 1);
    assert_int_equal(profile_bin_count(s, 2), 1);
    assert_int_equal(arc_count(C + 0x10, B + 0x40), 2);
    assert_int_equal(stats().samples, 4);
#endif
}

/* gmon.out: one histogram record per range, in address order, each split for a bucket past
 * 0xFFFF; read back, every bucket of every range has its count; any read pieces give the
 * same bytes. */
static void test_ranges_gmon_records(void **state)
{
    (void)state;
    const uintptr_t B = LOW + 0x10000, C = LOW - 0x800;
    const struct profile_range r[3] = {
        { at(B), at(B + 0x100) }, { at(LOW), at(LOW + 0x1000) }, { at(C), at(C + 0xF8) },
    };
    assert_int_equal(profile_on_ranges(r, 3, 16, 1000), 0);
    __profile_hit(LOW + 0x24);
    __profile_hit(C + 0xF7);
    burst(0x110 + 3, 70000);            /* B's bucket 3 */
    burst(5, 0x10000);                  /* A's bucket 5 (bins before C's in the array) */
    __profile_hit(B);
    __profile_hit(0);
    __profile_mcount(B + 0x20, C + 0x10);
    size_t size, arcs_at;
    uint8_t *img = read_image(&size, 4096);
    struct hist_record recs[12];
    size_t n = parse_records(img, size, recs, 12, &arcs_at);
    const int split = PROFILE_OVF_CAPACITY >= 2;
    assert_int_equal(n, split ? 9 : 3);
    /* C; A: [LOW, LOW+0x50), [LOW+0x50] x 2, [LOW+0x60, LOW+0x1000); B: [B, B+0x30),
     * [B+0x30] x 2, [B+0x40, B+0x100) */
    assert_int_equal(recs[0].low, C);
    assert_int_equal(recs[0].high, C + 0x100);
    assert_int_equal(recs[0].nbins, 0x10);
    assert_int_equal(get_uint(recs[0].bins + 2 * 0xF, 2), 1);
    assert_int_equal(recs[1].low, LOW);
    assert_int_equal(get_uint(recs[1].bins + 2 * 2, 2), 1);
    if (split) {
        assert_int_equal(recs[1].high, LOW + 0x50);
        assert_int_equal(recs[2].low, LOW + 0x50);
        assert_int_equal(recs[3].low, LOW + 0x50);
        assert_int_equal(recs[3].high, LOW + 0x60);
        assert_int_equal(get_uint(recs[2].bins, 2) + get_uint(recs[3].bins, 2), 0x10000);
        assert_int_equal(recs[4].low, LOW + 0x60);
        assert_int_equal(recs[4].high, LOW + 0x1000);
        assert_int_equal(recs[5].low, B);
        assert_int_equal(recs[5].high, B + 0x30);
        assert_int_equal(get_uint(recs[5].bins, 2), 1);
        assert_int_equal(recs[6].low, B + 0x30);
        assert_int_equal(recs[6].high, B + 0x40);
        assert_int_equal(get_uint(recs[6].bins, 2) + get_uint(recs[7].bins, 2), 70000);
        assert_int_equal(recs[7].low, B + 0x30);
        assert_int_equal(recs[8].low, B + 0x40);
        assert_int_equal(recs[8].high, B + 0x100);
    } else {
        assert_int_equal(recs[1].high, LOW + 0x1000);
        assert_int_equal(recs[1].nbins, 0x100);
        assert_int_equal(recs[2].low, B);
        assert_int_equal(recs[2].high, B + 0x100);
    }
    for (size_t i = 0; i < n; i++)
        assert_int_equal(recs[i].high - recs[i].low, 16 * recs[i].nbins);
    /* the one arc, from B to C */
    const size_t A = sizeof(uintptr_t);
    assert_int_equal(size - arcs_at, 1 + 2 * A + 4);
    assert_int_equal(get_uint(img + arcs_at + 1, A), B + 0x20);
    assert_int_equal(get_uint(img + arcs_at + 1 + A, A), C + 0x10);
    for (size_t chunk = 1; chunk < 64; chunk += 7) {
        size_t size2;
        uint8_t *again = read_image(&size2, chunk);
        assert_int_equal(size2, size);
        assert_memory_equal(again, img, size);
        free(again);
    }
    free(img);
}

/* profile_on(start, end) is profile_on_ranges with that one range: the same state, the same
 * memory, the same file. */
static void test_ranges_one_is_profile_on(void **state)
{
    (void)state;
    uint8_t *img[2];
    size_t size[2];
    struct profile_stats st[2];
    for (int k = 0; k < 2; k++) {
        const struct profile_range r = { at(LOW), at(LOW + 0x1234) };
        assert_int_equal(k ? profile_on_ranges(&r, 1, 16, 1000)
                           : profile_on(at(LOW), at(LOW + 0x1234), 16, 1000), 0);
        assert_int_equal(profile_state.nranges, 1);
        assert_int_equal(profile_state.ranges[0].first, 0);
        assert_int_equal(profile_state.ranges[0].span, profile_state.open_span);
        __profile_hit(LOW + 0x40);
        __profile_hit(LOW + 0x2000);
        burst(7, 0x12345);
        __profile_mcount(LOW + 0x10, LOW + 0x800);
        st[k] = stats();
        img[k] = read_image(&size[k], 100);
        profile_off();
    }
    assert_memory_equal(&st[0], &st[1], sizeof st[0]);
    assert_int_equal(size[0], size[1]);
    assert_memory_equal(img[0], img[1], size[0]);
    free(img[0]);
    free(img[1]);
}

/* profile_on() and profile_off() from an interrupt handler are refused and change nothing;
 * profile_reset() and profile_get_stats() work there. */
static void test_on_off_refused_in_interrupt(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + 0x1000), 16, 1000), 0);
    __profile_hit(LOW + 4);
    void *memory = profile_state.memory;
    hal_host_in_interrupt = 1;
    int on = profile_on(at(LOW), at(LOW + 0x2000), 16, 1000);
    int off = profile_off();
    struct profile_stats st;
    int got = profile_get_stats(&st);
    hal_host_in_interrupt = 0;
    assert_int_equal(on, -EPERM);
    assert_int_equal(off, -EPERM);
    assert_int_equal(got, 0);
    assert_int_equal(st.samples, 1);
    assert_ptr_equal(profile_state.memory, memory);
    assert_int_equal(fake_hal.disable_calls, 0);
    hal_host_in_interrupt = 1;
    profile_reset();
    hal_host_in_interrupt = 0;
    assert_int_equal(stats().samples, 0);
    assert_int_equal(profile_off(), 0);
    assert_int_equal(profile_off(), 0);   /* already off */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
        T(test_bucket_rounded_up_to_power_of_two),
        T(test_range_not_multiple_of_bucket),
        T(test_bucket_one_and_exact_power),
        T(test_bucket_counts_past_ffff),
        T(test_bucket_sticks_at_2_32),
        T(test_overflow_table_full),
        T(test_gdb_reset_clears_overflow),
        T(test_out_of_range_samples_counted),
        T(test_overhead_samples_not_binned),
        T(test_no_profiler_text_nothing_is_overhead),
        T(test_arcs_near_each_other),
        T(test_arcs_share_a_home_slot),
        T(test_arc_probe_wraps_around),
        T(test_arcs_of_one_call_site_stay_fast),
        T(test_hot_arcs_sharing_a_home_keep_their_slots),
        T(test_callee_outside_range_is_kept),
        T(test_caller_outside_range_counted),
        T(test_arc_too_far_for_the_table_counted),
        T(test_arc_table_overflow_counted),
        T(test_arc_table_matches_a_model),
        T(test_arc_count_sticks_at_max),
        T(test_profile_on_again_discards),
        T(test_profile_off_stops_and_resets),
        T(test_profile_off_keeps_only_what_lasts),
        T(test_profile_reset),
        T(test_pending_reset_applied_by_next_sample),
        T(test_pending_reset_applied_by_next_call),
        T(test_reset_requested_during_reset),
        T(test_bad_arguments),
        T(test_out_of_memory),
        T(test_timer_failure),
        T(test_prof_rate_from_hal_interval),
        T(test_interval_prof_rate_cannot_express),
        T(test_allocation_follows_formulas),
        T(test_gmon_image_parsed_back),
        T(test_gmon_read_in_any_chunks),
        T(test_gmon_split_records_parsed_back),
        T(test_gmon_stuck_bucket_not_split),
        T(test_gmon_empty_when_off),
        T(test_on_off_refused_in_interrupt),
        T(test_ranges_refused),
        T(test_ranges_layout),
        T(test_ranges_samples_and_arcs),
        T(test_ranges_gmon_records),
        T(test_ranges_one_is_profile_on),
#if PROFILE_SNAPSHOT
        T(test_snapshot_freezes_and_recording_goes_on),
        T(test_abandoned_snapshot_merges_back),
        T(test_snapshot_ended_by_profile_off),
        T(test_merge_back_counts_nothing_twice),
        T(test_merge_back_overflow),
        T(test_merge_back_overflow_table_full),
        T(test_gdb_dump_at_any_window_is_exact),
        T(test_profile_on_off_during_release),
#else
        T(test_no_snapshot_without_spare),
#endif
    };
    return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
