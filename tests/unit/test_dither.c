/*
 * The dithered sampling period (<cyg/profile/dither.h>), on the host, with the 16-bit
 * halves' scaling and, built with -DMUL_HIGH, with a multiply-high as the ARM HALs give:
 *   - no period shorter than min, none as long as twice the period;
 *   - the mean period exactly the nominal one (the periods add up to n periods plus the
 *     last offset);
 *   - every offset as likely as every other: each tenth of the slot within 1.5 points of
 *     its 10%, also with min at half the period and with min asked equal to the period
 *     (kept to seven eighths of it), where a period lengthened to min piled the offsets up
 *     at the end of the slot or left them where they were;
 *   - the edges: periods of 1 and 2 ticks, a period past 2^16 ticks (the scale's shift),
 *     min 0;
 *   - a deadline found late steps over whole periods to the first slot still to come, by
 *     additions or by the division, alike.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#ifdef MUL_HIGH
#define HAL_PROFILE_MUL_HIGH(a, b) ((uint32_t)(((uint64_t)(uint32_t)(a) * (uint32_t)(b)) >> 32))
#endif
#include <cyg/profile/dither.h>

#define SAMPLES 200000u

/* Runs SAMPLES periods; checks their bounds and sum, and the offsets' spread. */
static void walk(uint32_t period, uint32_t min_asked)
{
    struct profile_dither d;
    profile_dither_start(&d, period, min_asked);
    uint32_t min = min_asked > period - period / 8 ? period - period / 8 : min_asked;
    if (min == 0)
        min = 1;
    uint64_t sum = 0;
    uint32_t tenths[10] = { 0 };
    for (uint32_t i = 0; i < SAMPLES; i++) {
        uint32_t next = profile_dither_next(&d);
        assert_true(next >= min);
        assert_true(next < 2 * (uint64_t)period + (period == 1));
        assert_true(d.offset < period);
        sum += next;
        tenths[(uint64_t)d.offset * 10 / period]++;
    }
    assert_true(sum == (uint64_t)SAMPLES * period + d.offset);
    if (period < 20)
        return;
    for (int t = 0; t < 10; t++) {
        double share = 100.0 * tenths[t] / SAMPLES;
        if (share < 8.5 || share > 11.5)
            fail_msg("period %u, min %u: tenth %d of the slot has %.2f%% of the offsets",
                     period, min_asked, t, share);
    }
}

static void test_offsets_uniform_with_a_small_min(void **state)
{
    (void)state;
    walk(1000, 100);
    walk(25000, 250);
}

static void test_offsets_uniform_with_min_half_the_period(void **state)
{
    (void)state;
    walk(1000, 500);
    walk(160, 80);
}

static void test_min_equal_to_the_period_still_dithers(void **state)
{
    (void)state;
    walk(250, 250);
    walk(10, 10);
}

static void test_edges(void **state)
{
    (void)state;
    walk(1, 1);
    walk(2, 1);
    walk(3, 0);
    walk(0x7FFFFFFFu, 250);       /* the scale's shift */
    walk(100000, 2500);
}

static void test_catch_up_reaches_the_next_slot(void **state)
{
    (void)state;
    static const uint32_t periods[] = { 1, 2, 7, 250, 1000, 0x40000000u, 0x7FFFFFFFu };
    for (size_t i = 0; i < sizeof periods / sizeof periods[0]; i++) {
        struct profile_dither d;
        uint32_t p = periods[i];
        profile_dither_start(&d, p, p / 10);
        uint64_t q = p;
        const uint64_t lates[] = { 0, 1, q - 1, q, q + 1, 2 * q, 3 * q + 1, 4 * q - 1, 4 * q,
                                   4 * q + 1, 1000 * q, 0xFFFFFFFFu };
        for (size_t j = 0; j < sizeof lates / sizeof lates[0]; j++) {
            uint64_t late = lates[j];
            if (late > 0xFFFFFFFFu)
                continue;
            uint64_t want = (late / p + 1) * p;
            if (want > 0xFFFFFFFFu)
                continue;
            assert_int_equal(profile_dither_catch_up(&d, (uint32_t)late), want);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offsets_uniform_with_a_small_min),
        cmocka_unit_test(test_offsets_uniform_with_min_half_the_period),
        cmocka_unit_test(test_min_equal_to_the_period_still_dithers),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_catch_up_reaches_the_next_slot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
