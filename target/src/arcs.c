/*
 * Call-graph arcs, recorded by __profile_mcount from the HAL's mcount stub.
 *
 * The table is open addressing over nslots 12-byte records (arcs_capacity + 1, so one is
 * always free), keyed on the exact call site and callee: an arc's home slot (one of the
 * first nslots - 1) is a Fibonacci hash of its call site's return address plus its callee's
 * shifted up 16 bits (<cyg/profile/hal.h>), and a record that finds its home taken goes to the next free slot
 * after it (linear probing, wrapping around; records are never removed, only the whole
 * table cleared). The callee is in the hash because one call site often has several:
 * a call through a pointer, the tail calls of -O2 (the callee's mcount sees the return
 * address into its caller's caller), and every interrupt handler on Cortex-M (all entered
 * from the same EXC_RETURN value); hashed by call site alone, all of them shared two fast
 * slots and the rest went to C on every call. The fast paths look at the home slot and
 * the one after it; an arc found further along takes the place of the less counted of
 * those two records if it has been counted more (arc_promote). So an arc called often
 * sits where it is cheap to count, and two hot arcs that meet do not trade places on
 * every call. The cost of finding an arc does not grow with the number of call sites near
 * it: calls from one function to 30 callees find their arcs as fast as calls from 30
 * functions. probe_max, the farthest any record lies from its home, bounds every search,
 * also when the table is full.
 */
#include "profile_priv.h"

#if PROFILE_CALLGRAPH

/* The home slot of the arc from -> self:
 * ((((from + (self << 16)) * PROFILE_ARC_HASH_MUL) mod 2^32) * homes) >> 32, computed in
 * 32-bit halves (no 64-bit multiply, which some cores do not have; exact for homes <=
 * 2^16). The key is from + (self << 16), not from + self: two arcs of a range under 64 KiB
 * never have the same key (with from + self, a call site further on calling a callee
 * further back did, a group of arcs that no table size separates). An mcount stub computes
 * the same with its own instructions. */
static inline uint32_t arc_home(uint32_t from, uint32_t self, uint32_t homes)
{
    uint32_t h = (from + (self << 16)) * (uint32_t)PROFILE_ARC_HASH_MUL;
    return ((h >> 16) * homes + (((h & 0xFFFFu) * homes) >> 16)) >> 16;
}
_Static_assert((uint64_t)PROFILE_ARC_CAPACITY_MAX <= 0x10000u, "arc_home needs homes <= 2^16");

/* The record of the arc from -> self at the home slot a or the one after it (the fast
 * paths' lookup), or NULL. */
static inline struct profile_arc *arc_near(struct profile_arc *a, uint32_t from, uint32_t self)
{
    if (a->from == from && a->self == self)
        return a;
    a++;
    return a->from == from && a->self == self ? a : 0;
}

/* A new arc in the free slot a, d slots past its home. Interrupts masked. */
static void arc_insert(struct profile_state *s, struct profile_arc *a, uint32_t d,
                       uint32_t from, uint32_t self, uint32_t count)
{
    if (s->arcs_used >= s->arcs_capacity) {
        s->arcs_dropped += count;
        return;
    }
    a->self = self;
    a->count = count;
    /* Publish last: a lookup (or a debugger) sees either a free slot or a whole record. */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    a->from = from;
    s->arcs_used++;
    if (d > s->probe_max)
        s->probe_max = d;
}

/* Where the record now in slot i lies from its home slot (its probe distance). */
static uint32_t arc_distance(const struct profile_state *s, uint32_t i)
{
    const struct profile_arc *a = &s->arcs[i];
    return (i + s->nslots - arc_home(a->from, a->self, s->nslots - 1)) % s->nslots;
}

/*
 * The record a, found d >= 2 slots past its home, trades places with the less counted of
 * the two records the fast paths look at, b (its home slot or the one after it; the one
 * after on a tie), if a has been counted more than b. Both stay where a search finds them:
 * a nearer its home, b further along a run of records in use that starts at or before b's
 * home. Counts, not the last call, decide: hot arcs that meet keep the fast slots and do
 * not evict each other on every call; an arc that becomes hot later takes a slot once it
 * has been counted more than the one there.
 */
static void arc_promote(struct profile_state *s, struct profile_arc *a, uint32_t home)
{
    struct profile_arc *b = &s->arcs[home + 1];   /* (a home is never the last slot) */
    if (s->arcs[home].count < b->count)
        b = &s->arcs[home];
    if (a->count <= b->count)
        return;
    struct profile_arc t = *a;
    *a = *b;
    *b = t;
    uint32_t b_dist = arc_distance(s, (uint32_t)(a - s->arcs));
    if (b_dist > s->probe_max)
        s->probe_max = b_dist;
}

void profile_arc_add(struct profile_state *s, uint32_t from, uint32_t self, uint32_t count)
{
    uint32_t home = arc_home(from, self, s->nslots - 1), i = home;
    for (uint32_t d = 0;; d++) {
        struct profile_arc *a = &s->arcs[i];
        if (a->from == from && a->self == self) {
            a->count = a->count > UINT32_MAX - count ? UINT32_MAX : a->count + count;
            if (d >= 2)
                arc_promote(s, a, home);
            return;
        }
        if (a->from == 0) {
            arc_insert(s, a, d, from, self, count);   /* the first free slot: a new arc */
            return;
        }
        if (d >= s->probe_max && s->arcs_used >= s->arcs_capacity) {
            /* Every record lies within probe_max of its home: not there, and no room. */
            s->arcs_dropped += count;
            return;
        }
        if (++i == s->nslots)
            i = 0;
    }
}

/*
 * Everything but an arc found at its home slot: a pending reset, a call site outside the
 * ranges, an arc further along, a new arc. Entered with interrupts masked; restores them.
 * Kept out of line so that the common path needs no stack frame.
 */
static __attribute__((noinline)) void mcount_miss(struct profile_state *s, uintptr_t from,
                                                  uintptr_t self, hal_profile_irq_state irq)
{
    profile_set_busy(1);  /* entered masked: a profile_lock section from here */
    if (s->armed_span == 0 && !profile_slow_path(s))
        goto out;         /* off */
    /* Recorded: a call site in a range (the fast path's first), or an interrupt entry's
     * mark (HAL_PROFILE_FROM_EXCEPTION), whose addresses the table can hold (always, on a 32-bit target, but for a call site at 0, which marks a free
     * slot). */
    if ((from - s->low_pc >= s->armed_span && profile_range_bin(s, from) == UINT32_MAX &&
         !HAL_PROFILE_FROM_EXCEPTION(from)) ||
        (uint32_t)from == 0 || !profile_arc_fits(s, from) || !profile_arc_fits(s, self)) {
        s->arcs_out_of_range++;
        goto out;
    }
    profile_arc_add(s, (uint32_t)from, (uint32_t)self, 1);
out:
    profile_unlock(irq);
}

void __profile_mcount(uintptr_t from, uintptr_t self)
{
    struct profile_state *s = &profile_state;
    if (!s->mcount_gate)
        return;           /* profiling off (a stub without a gate of its own gets here) */
    /* Every priority that may run -pg code is masked, so a nested mcount can neither see
     * a half-made record nor lose an increment, and no snapshot can swap the table away
     * meanwhile. A debugger that halts the target between the load and the store of a
     * count runs it out of this function (and out of the stub) before it reads
     * (gdb/gprof.gdb). The HAL's stub may do this lookup itself and call here only when
     * it misses (<cyg/profile/hal.h>). */
    hal_profile_irq_state irq = hal_profile_irq_save();
    struct profile_arc *a = arc_near(&s->armed_arcs[arc_home((uint32_t)from, (uint32_t)self,
                                                               s->armed_homes)],
                                     (uint32_t)from, (uint32_t)self);

    /* (On a 64-bit target the addresses must also lie in the table's window, so that no
     * call elsewhere matches a record mod 2^32; on a 32-bit one that test folds away.) */
    if (__builtin_expect(a && profile_arc_fits(s, from) && profile_arc_fits(s, self), 1)) {
        /* Sticks at the maximum rather than wrapping; readers flag such counts. */
        uint32_t c = a->count + 1;
        if (__builtin_expect(c != 0, 1))
            a->count = c;
        hal_profile_irq_restore(irq);
        return;
    }
    mcount_miss(s, from, self, irq);
}

#else /* !PROFILE_CALLGRAPH: no mcount support is linked; -pg code fails to link. */
void profile_arc_add(struct profile_state *s, uint32_t from, uint32_t self, uint32_t count)
{
    (void)s; (void)from; (void)self; (void)count;
}
#endif
