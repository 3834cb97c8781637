/*
 * Stack-profiling mode (CYGPKG_PROFILE_STACKS): real call stacks, measured.
 *
 * The hook source is GCC's -finstrument-functions, which the build adds to -pg code in
 * this mode: every instrumented function calls __cyg_profile_func_enter(fn, call_site)
 * after its prologue and __cyg_profile_func_exit(fn, call_site) before each return. (The
 * -pg hook cannot do it on ARM: GCC emits the mcount call after the prologue, so the
 * return address mcount sees is a copy of the one the function returns through; on
 * RISC-V _mcount cannot reach it at all.) -pg's mcount still counts gmon.out's arcs.
 *
 * A shadow stack of frames mirrors the calls; each frame has its node in a
 * calling-context tree: one node per distinct call path (parent node, function, call
 * site), with its calls and the timer samples taken while it was the innermost frame
 * (profile_stack_sample, from __profile_hit, O(1)). The tree leaves the target as
 * gmon.stacks (doc/format.md; gdb/gprof.gdb writes it).
 *
 * Nothing here holds a return address: if the shadow stack and the real one disagree, a
 * count is off, never the firmware. The cases a firmware meets:
 *   - interrupt handlers: frames entered at another exception level
 *     (HAL_PROFILE_STACK_LEVEL: the active exception on Cortex-M) go on the handlers'
 *     shadow stack, the first of each level as a root of its own; nested handlers
 *     likewise. A sample goes to the innermost handler frame if a handler with
 *     instrumented frames was interrupted, else to the thread's innermost frame;
 *   - threads: profile_stack_switch(id), called by the RTOS when it switches, selects the
 *     thread's shadow stack, whose tree hangs from a context node of that id;
 *   - longjmp (and a thread switched without the hook): frames left without their exit
 *     are found when a new frame's stack pointer lies at or above theirs (same level), or
 *     when an outer frame exits: dropped, counted in frames_repaired;
 *   - recursion: a node per depth (a path), as the tree is of paths;
 *   - the tree full: the call gets no node, its frame keeps its parent's (the deepest node
 *     kept), counted in calls_unrecorded; samples there in samples_truncated;
 *   - a shadow stack full: the frame is counted (calls_unhooked) and its exit matched by
 *     depth; its samples stay with the deepest frame kept.
 * The frames follow the calls whether profiling is on or off; counts change only while it
 * runs, and a reset (profile_clear) zeroes them but keeps the tree, whose nodes live
 * frames point at.
 */
#include <errno.h>
#include "profile_priv.h"

#if PROFILE_STACKS

#define NODES    ((uint32_t)CYGNUM_PROFILE_STACKS_NODES)
#define DEPTH    ((uint32_t)CYGNUM_PROFILE_STACKS_DEPTH)
#define THREADS  ((uint32_t)CYGNUM_PROFILE_STACKS_THREADS)
#define NO_NODE  0xFFFFFFFFu
#define FRAME_TRUNCATED 1u      /* the call got no node (tree full): its parent's */

/* The exception level code runs at: 0 in thread mode. A HAL that can tell nested
 * handlers apart says so in <cyg/hal/profile_arch.h>; else a handler is level 1. */
#ifndef HAL_PROFILE_STACK_LEVEL
#define HAL_PROFILE_STACK_LEVEL() ((uint32_t)(hal_profile_in_interrupt() != 0))
#endif

/*
 * The tree and the shadow stacks: static (no allocation; they follow the calls while
 * profiling is off). Owned by this file; changed only in profile_lock sections (enter,
 * exit, switch, sample, clear); read by gdb/gprof.gdb, which writes gmon.stacks from them.
 * Node 0 is the context node of the thread the firmware started on (id 0); stacks[0] is
 * the handlers' shadow stack, stacks[1 ..] the threads'.
 */
struct profile_stacks profile_stacks = {
    .nodes_used = 1,
    .roots = NO_NODE,
    .thread = 1,
    .threads_used = 2,
    .nodes = { [0] = { .parent = NO_NODE, .first_child = NO_NODE, .next_sibling = NO_NODE } },
    .stacks = { [1] = { .context = 0 } },
};

static inline struct profile_shadow_stack *shadow(struct profile_stacks *t, uint32_t level)
{
    return &t->stacks[level ? 0 : t->thread];
}

/* The innermost frame's node of stack k, or NO_NODE if it has none kept. */
static inline uint32_t top_node(const struct profile_shadow_stack *k)
{
    return k->depth ? k->frames[(k->depth < DEPTH ? k->depth : DEPTH) - 1].node : NO_NODE;
}

/* The child of parent for (fn, site), made if new (NO_NODE: the tree is full). A found
 * child moves to the front of its parent's list: a loop's callee is found at once. */
static uint32_t child_node(struct profile_stacks *t, uint32_t parent, uintptr_t fn,
                           uintptr_t site)
{
    uint32_t *link = parent == NO_NODE ? &t->roots : &t->nodes[parent].first_child;
    for (uint32_t *at = link; *at != NO_NODE; at = &t->nodes[*at].next_sibling) {
        struct profile_stack_node *n = &t->nodes[*at];
        if (n->self == fn && n->from == site) {
            uint32_t i = *at;
            *at = n->next_sibling;
            n->next_sibling = *link;
            *link = i;
            return i;
        }
    }
    if (t->nodes_used == NODES)
        return NO_NODE;
    uint32_t i = t->nodes_used++;
    t->nodes[i] = (struct profile_stack_node){ .parent = parent, .first_child = NO_NODE,
                                               .next_sibling = *link, .self = fn,
                                               .from = site };
    *link = i;
    return i;
}

/* Drops the frames of stack k at level that a new frame's stack pointer sp shows were
 * left without their exit (longjmp): at or below sp. (Enter hooks see comparable stack
 * pointers: a caller's lies above its callee's.) Not while frames past DEPTH, not kept,
 * so not known, are on top. */
static void drop_left_frames(struct profile_stacks *t, struct profile_shadow_stack *k,
                             uint32_t level, uintptr_t sp)
{
    while (k->depth && k->depth <= DEPTH) {
        const struct profile_stack_frame *f = &k->frames[k->depth - 1];
        if (f->level != level || f->sp > sp)
            return;
        k->depth--;
        t->frames_repaired++;
    }
}

static void stack_enter(uintptr_t fn, uintptr_t site, uintptr_t sp)
{
    struct profile_state *s = &profile_state;
    struct profile_stacks *t = &profile_stacks;
    uint32_t level = HAL_PROFILE_STACK_LEVEL();
    struct profile_shadow_stack *k = shadow(t, level);

    drop_left_frames(t, k, level, sp);
    int running = s->armed_span != 0 || profile_slow_path(s);
    uint32_t parent = top_node(k);
    int root = level != 0 && (parent == NO_NODE || k->frames[k->depth - 1].level != level);
    if (!root && parent == NO_NODE)
        parent = k->context_node;
    if (root)
        parent = NO_NODE;
    uint32_t node = child_node(t, parent, fn, site);
    uint32_t flags = 0;
    if (node == NO_NODE) {
        t->calls_unrecorded += running;
        node = parent == NO_NODE ? 0 : parent;
        flags = FRAME_TRUNCATED;
    } else if (running) {
        t->nodes[node].calls++;
    }
    if (k->depth < DEPTH)
        k->frames[k->depth] = (struct profile_stack_frame){ node, (uint16_t)flags,
                                                            (uint16_t)level, fn, site, sp };
    else
        t->calls_unhooked += running;
    k->depth++;
}

/* The exit of (fn, site): its frame is the innermost of this level that names them (the
 * stack pointer cannot tell: GCC may call the exit hook after the epilogue, as a tail
 * call); frames above it were left without their exit (longjmp). None: an exit whose
 * entry was not kept (past DEPTH), matched by depth. */
static void stack_exit(uintptr_t fn, uintptr_t site)
{
    struct profile_stacks *t = &profile_stacks;
    uint32_t level = HAL_PROFILE_STACK_LEVEL();
    struct profile_shadow_stack *k = shadow(t, level);

    if (k->depth > DEPTH) {
        k->depth--;
        return;
    }
    for (uint32_t d = k->depth; d > 0; d--) {
        const struct profile_stack_frame *f = &k->frames[d - 1];
        if (f->level != level)
            break;
        if (f->fn == fn && f->site == site) {
            t->frames_repaired += k->depth - d;
            k->depth = d - 1;
            return;
        }
    }
}

/* Both hooks come here: the stack pointer seen at an entry (of a local of this one
 * function) is the instrumented function's less the same amount every time. */
static __attribute__((noinline)) void stack_event(uintptr_t fn, uintptr_t site, int exit)
{
    volatile char here;
    uintptr_t sp = (uintptr_t)&here;
    hal_profile_irq_state irq = profile_lock();
    if (exit)
        stack_exit(fn, site);
    else
        stack_enter(fn, site, sp);
    profile_unlock(irq);
}

/* The hooks GCC's -finstrument-functions calls (the package is never built with it). */
void __cyg_profile_func_enter(void *fn, void *call_site)
{
    stack_event(HAL_PROFILE_PC(fn), HAL_PROFILE_PC(call_site), 0);
}

void __cyg_profile_func_exit(void *fn, void *call_site)
{
    stack_event(HAL_PROFILE_PC(fn), HAL_PROFILE_PC(call_site), 1);
}

int profile_stack_switch(uintptr_t id)
{
    struct profile_stacks *t = &profile_stacks;
    int rc = 0;
    hal_profile_irq_state irq = profile_lock();
    uint32_t i = 1;
    while (i < t->threads_used && t->stacks[i].context != id)
        i++;
    if (i == t->threads_used) {
        uint32_t node = i <= THREADS && t->nodes_used < NODES ? t->nodes_used : NO_NODE;
        if (node == NO_NODE) {
            t->switches_lost++;
            rc = -ENOMEM;
            i = 1;              /* the first thread's stack: counts go on, mixed */
        } else {
            t->nodes_used++;
            t->nodes[node] = (struct profile_stack_node){ .parent = NO_NODE,
                                                          .first_child = NO_NODE,
                                                          .next_sibling = NO_NODE,
                                                          .from = id };
            t->stacks[i] = (struct profile_shadow_stack){ .context = id,
                                                          .context_node = node };
            t->threads_used++;
        }
    }
    t->thread = i;
    profile_unlock(irq);
    return rc;
}

void profile_stack_sample(void)
{
    struct profile_stacks *t = &profile_stacks;
    struct profile_shadow_stack *k = &t->stacks[0];
    if (!k->depth)
        k = &t->stacks[t->thread];
    uint32_t node = top_node(k);
    if (node == NO_NODE)
        node = k->context_node;
    t->nodes[node].samples++;
    if (k->depth && k->depth <= DEPTH && k->frames[k->depth - 1].flags & FRAME_TRUNCATED)
        t->samples_truncated++;
}

void profile_stack_clear(void)
{
    struct profile_stacks *t = &profile_stacks;
    for (uint32_t i = 0; i < t->nodes_used; i++) {
        t->nodes[i].calls = 0;
        t->nodes[i].samples = 0;
    }
    t->samples_truncated = 0;
    t->calls_unrecorded = 0;
    t->frames_repaired = 0;
    t->calls_unhooked = 0;
    t->switches_lost = 0;
}

#else /* !PROFILE_STACKS: an RTOS hook may call it all the same */

int profile_stack_switch(uintptr_t id)
{
    (void)id;
    return 0;
}

#endif /* PROFILE_STACKS */
