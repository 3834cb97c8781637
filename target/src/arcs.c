/* Call-graph arcs, recorded by __profile_mcount from the HAL's mcount stub. */
#include "profile_priv.h"

#define SLOT_SHIFT CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT
#define SLOT_MASK  ((1u << SLOT_SHIFT) - 1)

#if PROFILE_CALLGRAPH

/* A new arc at the head of its slot's chain. Called with interrupts masked. */
static void arc_insert(struct profile_state *s, uintptr_t off, uintptr_t self_pc, uint32_t count)
{
    if (s->arcs_used >= s->arcs_capacity) {
        s->arcs_dropped += count;
        return;
    }
    uint32_t idx = s->arcs_used + 1;
    uint16_t *head = &s->heads[off >> SLOT_SHIFT];
    struct profile_arc *a = &s->arcs[idx];
    a->self_pc = self_pc;
    a->count = count;
    a->from_low = (uint16_t)(off & SLOT_MASK);
    a->next = *head;
    /* Publish last: a debugger halting the target anywhere sees either no arc or a
     * complete one. */
    s->arcs_used = idx;
    *head = (uint16_t)idx;
}

/*
 * Everything but finding an existing arc: a pending reset, a call site outside the range,
 * a new arc. Entered with interrupts masked; restores them. Kept out of line so that the
 * common path needs no stack frame.
 */
static __attribute__((noinline)) void mcount_miss(struct profile_state *s, uintptr_t off,
                                                  uintptr_t callee_pc, hal_profile_irq_state irq)
{
    profile_set_busy(1);  /* entered masked: a profile_lock section from here */
    if (off >= s->armed_span) {
        if (!profile_slow_path(s))
            goto out;
        if (off >= s->armed_span) {
            s->arcs_out_of_range++;
            goto out;
        }
    }
    profile_arc_add(s, off, callee_pc, 1);
out:
    profile_unlock(irq);
}

void __profile_mcount(uintptr_t caller_pc, uintptr_t callee_pc)
{
    struct profile_state *s = &profile_state;
    /* Every priority that may run -pg code is masked, so a nested mcount can neither see
     * a half-made chain nor lose an increment. A debugger that halts the target between
     * the load and the store of a count runs it out of this function before it reads
     * (gdb/gprof.gdb). */
    hal_profile_irq_state irq = hal_profile_irq_save();
    uintptr_t off = caller_pc - s->low_pc;

    if (__builtin_expect(off < s->armed_span, 1)) {
        uint32_t from_low = off & SLOT_MASK;
        for (uint32_t i = s->heads[off >> SLOT_SHIFT]; i != 0; i = s->arcs[i].next) {
            struct profile_arc *a = &s->arcs[i];
            if (a->from_low == from_low && a->self_pc == callee_pc) {
                /* Sticks at the maximum rather than wrapping; readers flag such counts. */
                uint32_t c = a->count + 1;
                if (__builtin_expect(c != 0, 1))
                    a->count = c;
                hal_profile_irq_restore(irq);
                return;
            }
        }
    }
    mcount_miss(s, off, callee_pc, irq);
}

void profile_arc_add(struct profile_state *s, uintptr_t off, uintptr_t self_pc, uint32_t count)
{
    uint32_t from_low = off & SLOT_MASK;
    for (uint32_t i = s->heads[off >> SLOT_SHIFT]; i != 0; i = s->arcs[i].next) {
        struct profile_arc *a = &s->arcs[i];
        if (a->from_low == from_low && a->self_pc == self_pc) {
            a->count = a->count > UINT32_MAX - count ? UINT32_MAX : a->count + count;
            return;
        }
    }
    arc_insert(s, off, self_pc, count);
}

#else /* !PROFILE_CALLGRAPH: no mcount support is linked; -pg code fails to link. */
void profile_arc_add(struct profile_state *s, uintptr_t off, uintptr_t self_pc, uint32_t count)
{
    (void)s; (void)off; (void)self_pc; (void)count;
}
#endif
