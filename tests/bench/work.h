/*
 * The bench's call-heavy workload (make bench: its cost with and without -pg). Included
 * twice into the bench firmware, by work_pg.c (compiled with -pg) and work_plain.c (without),
 * each defining WORK(name) to give its copy names of its own: the same code, measured both
 * ways under QEMU -icount in the same run.
 *
 * What it is like: many small functions doing a little real work each (records, strings,
 * a checksum, a list), called from few functions with many call sites (work_round has over
 * 30 calls, to 14 callees, through one function), and recursion (fibonacci, a tree walk). In
 * the spirit of Dhrystone, written for this bench; at -O2, 30 to 40 instructions a call.
 */
#include <stdint.h>

#define WORK_ROUNDS 16

#ifndef WORK_TYPES
#define WORK_TYPES
struct work_rec {
    int32_t id, kind, value;
    char name[12];
    struct work_rec *next;
};
#endif

#define WORK_NOINLINE __attribute__((noinline, noclone))

/* The data both copies work on: their own, so that the two runs are alike. */
static struct work_rec WORK(recs)[8];
static char WORK(buf)[12];

WORK_NOINLINE static int32_t WORK(clamp)(int32_t x, int32_t lo, int32_t hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

WORK_NOINLINE static int32_t WORK(scale)(int32_t x, int32_t num, int32_t den)
{
    return den ? x * num / den : x;
}

WORK_NOINLINE static int WORK(classify)(int32_t x)
{
    switch (x & 7) {
    case 0: return 3;
    case 1: case 2: return x > 100 ? 1 : 2;
    case 5: return 4;
    default: return 0;
    }
}

WORK_NOINLINE static uint32_t WORK(name_hash)(const char *s)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < 12 && s[i]; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

WORK_NOINLINE static int WORK(name_eq)(const char *a, const char *b)
{
    for (int i = 0; i < 12; i++) {
        if (a[i] != b[i])
            return 0;
        if (!a[i])
            return 1;
    }
    return 1;
}

WORK_NOINLINE static void WORK(name_set)(char *d, const char *s)
{
    int i = 0;
    for (; i < 11 && s[i]; i++)
        d[i] = s[i];
    d[i] = 0;
}

WORK_NOINLINE static void WORK(rec_copy)(struct work_rec *d, const struct work_rec *s)
{
    d->id = s->id;
    d->kind = s->kind;
    d->value = s->value;
    WORK(name_set)(d->name, s->name);
}

WORK_NOINLINE static int32_t WORK(rec_update)(struct work_rec *r, int32_t delta)
{
    r->value = WORK(clamp)(r->value + delta, -1000, 1000);
    r->kind = WORK(classify)(r->value);
    return r->value;
}

WORK_NOINLINE static int32_t WORK(list_sum)(const struct work_rec *r)
{
    int32_t sum = 0;
    for (; r; r = r->next)
        sum += r->value ^ r->kind;
    return sum;
}

WORK_NOINLINE static uint32_t WORK(fib)(uint32_t n)
{
    return n < 2 ? n : WORK(fib)(n - 1) + WORK(fib)(n - 2);
}

/* A walk of an implicit binary tree of depth d: recursion with two call sites. */
WORK_NOINLINE static uint32_t WORK(tree)(uint32_t node, uint32_t depth)
{
    if (depth == 0)
        return node & 15;
    return WORK(tree)(2 * node, depth - 1) + WORK(tree)(2 * node + 1, depth - 1) + 1;
}

WORK_NOINLINE static void WORK(setup)(void)
{
    static const char *const names[8] = { "alpha", "bravo", "charlie", "delta", "echo",
                                          "foxtrot", "golf", "hotel" };
    for (int i = 0; i < 8; i++) {
        struct work_rec *r = &WORK(recs)[i];
        r->id = i;
        r->value = i * 37 - 100;
        r->kind = WORK(classify)(r->value);
        WORK(name_set)(r->name, names[i]);
        r->next = i < 7 ? &WORK(recs)[i + 1] : 0;
    }
}

/* One round: over 30 call sites in one function, to 14 callees. */
WORK_NOINLINE static uint32_t WORK(round)(uint32_t seed)
{
    struct work_rec *a = &WORK(recs)[seed & 7], *b = &WORK(recs)[(seed + 3) & 7];
    uint32_t acc = 0;
    acc += (uint32_t)WORK(rec_update)(a, (int32_t)(seed & 31) - 15);
    acc += (uint32_t)WORK(rec_update)(b, 7);
    acc += WORK(name_hash)(a->name);
    acc += WORK(name_hash)(b->name);
    acc += (uint32_t)WORK(name_eq)(a->name, b->name);
    acc += (uint32_t)WORK(name_eq)(a->name, a->name);
    WORK(rec_copy)(&WORK(recs)[7], a);
    acc += (uint32_t)WORK(scale)(a->value, 3, 7);
    acc += (uint32_t)WORK(scale)(b->value, 5, (int32_t)(seed & 3));
    acc += (uint32_t)WORK(clamp)((int32_t)acc, 0, 5000);
    acc += (uint32_t)WORK(classify)((int32_t)seed);
    acc += (uint32_t)WORK(classify)((int32_t)acc);
    acc += (uint32_t)WORK(list_sum)(&WORK(recs)[0]);
    acc += (uint32_t)WORK(list_sum)(&WORK(recs)[4]);
    WORK(name_set)(WORK(buf), b->name);
    acc += WORK(name_hash)(WORK(buf));
    acc += (uint32_t)WORK(name_eq)(WORK(buf), b->name);
    acc += (uint32_t)WORK(rec_update)(&WORK(recs)[(seed + 5) & 7], -3);
    acc += (uint32_t)WORK(rec_update)(&WORK(recs)[(seed + 6) & 7], 11);
    acc += (uint32_t)WORK(scale)((int32_t)acc, 9, 11);
    acc += (uint32_t)WORK(clamp)(b->value, -50, 50);
    acc += (uint32_t)WORK(clamp)(a->value, -20, 20);
    acc += WORK(fib)(7 + (seed & 1));
    acc += WORK(tree)(seed, 3);
    acc += (uint32_t)WORK(classify)(a->kind + b->kind);
    WORK(rec_copy)(&WORK(recs)[6], b);
    acc += WORK(name_hash)(WORK(recs)[6].name);
    acc += (uint32_t)WORK(list_sum)(&WORK(recs)[2]);
    acc += (uint32_t)WORK(rec_update)(b, (int32_t)(acc & 15));
    acc += (uint32_t)WORK(name_eq)(WORK(recs)[6].name, WORK(recs)[7].name);
    acc += (uint32_t)WORK(scale)((int32_t)acc, 2, 3);
    return acc;
}

/* Fan-out: one function with 30 call sites to 30 callees against one with a single call
 * site in a loop, 30 calls each: what a call costs should not depend on how many call
 * sites its function has (make bench prints both). */
#define WORK_FAN 30
#define WORK_FAN_REPS 64
#define WORK_LEAF(n)                                                                          \
    WORK_NOINLINE static uint32_t WORK(leaf##n)(uint32_t x) { return x * (2 * n + 1) + n; }
WORK_LEAF(0) WORK_LEAF(1) WORK_LEAF(2) WORK_LEAF(3) WORK_LEAF(4) WORK_LEAF(5) WORK_LEAF(6)
WORK_LEAF(7) WORK_LEAF(8) WORK_LEAF(9) WORK_LEAF(10) WORK_LEAF(11) WORK_LEAF(12)
WORK_LEAF(13) WORK_LEAF(14) WORK_LEAF(15) WORK_LEAF(16) WORK_LEAF(17) WORK_LEAF(18)
WORK_LEAF(19) WORK_LEAF(20) WORK_LEAF(21) WORK_LEAF(22) WORK_LEAF(23) WORK_LEAF(24)
WORK_LEAF(25) WORK_LEAF(26) WORK_LEAF(27) WORK_LEAF(28) WORK_LEAF(29)

WORK_NOINLINE static uint32_t WORK(fan30)(uint32_t x)
{
    x = WORK(leaf0)(x); x = WORK(leaf1)(x); x = WORK(leaf2)(x); x = WORK(leaf3)(x);
    x = WORK(leaf4)(x); x = WORK(leaf5)(x); x = WORK(leaf6)(x); x = WORK(leaf7)(x);
    x = WORK(leaf8)(x); x = WORK(leaf9)(x); x = WORK(leaf10)(x); x = WORK(leaf11)(x);
    x = WORK(leaf12)(x); x = WORK(leaf13)(x); x = WORK(leaf14)(x); x = WORK(leaf15)(x);
    x = WORK(leaf16)(x); x = WORK(leaf17)(x); x = WORK(leaf18)(x); x = WORK(leaf19)(x);
    x = WORK(leaf20)(x); x = WORK(leaf21)(x); x = WORK(leaf22)(x); x = WORK(leaf23)(x);
    x = WORK(leaf24)(x); x = WORK(leaf25)(x); x = WORK(leaf26)(x); x = WORK(leaf27)(x);
    x = WORK(leaf28)(x); x = WORK(leaf29)(x);
    return x;
}

WORK_NOINLINE static uint32_t WORK(fan1)(uint32_t x)
{
    for (volatile int i = 0; i < WORK_FAN; i++)
        x = WORK(leaf0)(x);
    return x;
}

WORK_NOINLINE uint32_t WORK(run_fan30)(void)
{
    uint32_t x = 1;
    for (int i = 0; i < WORK_FAN_REPS; i++)
        x = WORK(fan30)(x);
    return x;
}

WORK_NOINLINE uint32_t WORK(run_fan1)(void)
{
    uint32_t x = 1;
    for (int i = 0; i < WORK_FAN_REPS; i++)
        x = WORK(fan1)(x);
    return x;
}

/*
 * The small functions called in a pseudo-random order with pseudo-random arguments (after a
 * WORK(run), which sets the records up): no period in the instruction stream, which a
 * profile timer of fixed period could lock onto (tests/qemu/test_overhead.py compares the
 * samples' shares with the instructions' shares; QEMU -icount has no jitter to break such
 * a lock, as a real core's buses and caches do).
 */
WORK_NOINLINE uint32_t WORK(run_mixed)(uint32_t n, uint32_t seed)
{
    uint32_t acc = 0;
    for (uint32_t i = 0; i < n; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        struct work_rec *r = &WORK(recs)[seed >> 8 & 7];
        int32_t x = (int32_t)(seed >> 12 & 1023) - 512;
        switch (seed % 12) {
        case 0: acc += WORK(name_hash)(r->name); break;
        case 1: acc += (uint32_t)WORK(rec_update)(r, x & 31); break;
        case 2: acc += WORK(fib)(2 + (seed >> 20 & 3)); break;
        case 3: acc += WORK(tree)(seed, 1 + (seed >> 20 & 1)); break;
        case 4: acc += (uint32_t)WORK(name_eq)(r->name, WORK(recs)[seed >> 4 & 7].name); break;
        case 5: acc += (uint32_t)WORK(list_sum)(r); break;
        case 6: acc += (uint32_t)WORK(clamp)(x, -100, 100); break;
        case 7: acc += (uint32_t)WORK(scale)(x, 7, (int32_t)(seed >> 24 & 3)); break;
        case 8: acc += (uint32_t)WORK(classify)(x); break;
        case 9: WORK(rec_copy)(&WORK(recs)[7], r); break;
        case 10: acc += WORK(leaf3)(seed); break;
        default: WORK(name_set)(WORK(buf), r->name); break;
        }
        /* and a pause of pseudo-random length (up to about a 10 us sample interval): no
         * call is sampled at a fixed distance from another */
        for (volatile uint32_t n = seed >> 26; n; n--)
            ;
    }
    return acc;
}

/* The workload: WORK_ROUNDS rounds; the same result with and without -pg. */
WORK_NOINLINE uint32_t WORK(run)(void)
{
    uint32_t acc = 0;
    WORK(setup)();
    for (uint32_t i = 0; i < WORK_ROUNDS; i++)
        acc = acc * 31 + WORK(round)(i * 2654435761u >> 20);
    return acc;
}
