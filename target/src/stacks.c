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
 *   - threads: profile_task_switch(id, name) (tasks.c), called by the RTOS when it
 *     switches, selects the thread's shadow stack (profile_stack_select), whose tree hangs
 *     from a context node of that id;
 *   - longjmp (and a thread switched without the hook): frames left without their exit
 *     are found when a new frame's stack pointer lies at or above theirs (same level), or
 *     when an outer frame exits: dropped, counted in frames_repaired;
 *   - a hooked function inlined into its caller (GCC keeps the hooks at any -O level):
 *     its enter hook sees its caller's stack pointer and call site (the hook's call site is
 *     the enclosing function's return address), so a frame with the top frame's stack
 *     pointer and call site but another function is a frame inlined into it, not a sign
 *     that the top frame was left;
 *   - the hooks' windows: a function's first instructions run before its enter hook (the
 *     prologue, the mcount call) and its last after its exit hook (the epilogue), while
 *     the shadow stack still, or again, names its caller. A sample in such a window is
 *     moved to the function's node: the last sample, if its PC lies between the
 *     function's address and the enter hook's return address, when the enter hook runs;
 *     a sample in the few bytes after the exit hook's return address (EPILOGUE_BYTES)
 *     until the next hook;
 *   - recursion: a node per depth (a path), as the tree is of paths;
 *   - the tree full: the call gets no node, its frame keeps its parent's (the deepest node
 *     kept), counted in calls_unrecorded; samples there in samples_truncated;
 *   - a shadow stack full: the frame is counted (calls_unhooked) and its exit matched by
 *     depth; its samples stay with the deepest frame kept.
 * The common case, a call from the innermost frame into a path the tree has, and its
 * return, takes a fast path: the child is found by a hint (a slot per hash of parent and
 * call site, naming the node found or made last there, checked against it), not by a
 * search of the parent's children; everything else goes the general way.
 * The frames follow the calls whether profiling is on or off; counts change only while it
 * runs, and a reset (profile_clear) zeroes them but keeps the tree, whose nodes live
 * frames point at.
 */
#include <errno.h>
#include <string.h>
#include <cyg/profile/gmon.h>
#include "profile_priv.h"

#if PROFILE_STACKS

#define NODES    ((uint32_t)CYGNUM_PROFILE_STACKS_NODES)
#define DEPTH    ((uint32_t)CYGNUM_PROFILE_STACKS_DEPTH)
#define THREADS  ((uint32_t)CYGNUM_PROFILE_STACKS_THREADS)
#define NO_NODE  0xFFFFFFFFu
#define FRAME_TRUNCATED 1u      /* the call got no node (tree full): its parent's */
#define FRAME_INLINED   2u      /* a hooked function inlined into the frame below */
/* The longest epilogue after an exit hook's call: the restores and the return. */
#define EPILOGUE_BYTES  24u

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
    .running = &profile_stacks.stacks[1],
    .threads_used = 2,
    .nodes = { [0] = { .parent = NO_NODE, .first_child = NO_NODE, .next_sibling = NO_NODE } },
    .stacks = { [0] = { .window = { .sample_node = NO_NODE, .exited_node = NO_NODE } },
                [1] = { .context = 0,
                        .window = { .sample_node = NO_NODE, .exited_node = NO_NODE } } },
};

static inline struct profile_shadow_stack *shadow(struct profile_stacks *t, uint32_t level)
{
    return level ? &t->stacks[0] : t->running;
}

/* The stack a sample is charged to now: the handlers' if one with hooked frames was
 * interrupted, else the running thread's. */
static inline struct profile_shadow_stack *charged_stack(struct profile_stacks *t)
{
    return t->stacks[0].depth ? &t->stacks[0] : t->running;
}

static inline void window_close(struct profile_stack_window *w)
{
    w->sample_node = w->exited_node = NO_NODE;
}

/* Every context's window (the tree's indices change, or a count is cleared). */
static void windows_close(struct profile_stacks *t)
{
    for (uint32_t i = 0; i < t->threads_used; i++)
        window_close(&t->stacks[i].window);
}

/* The innermost frame kept of stack k (frames past DEPTH are not), or NULL if none. */
static inline const struct profile_stack_frame *top_frame(const struct profile_shadow_stack *k)
{
    return k->depth ? &k->frames[(k->depth < DEPTH ? k->depth : DEPTH) - 1] : NULL;
}

/* The innermost frame's node of stack k, or NO_NODE if it has none kept. */
static inline uint32_t top_node(const struct profile_shadow_stack *k)
{
    const struct profile_stack_frame *f = top_frame(k);
    return f ? f->node : NO_NODE;
}

/* The hint slot of a child of parent called from site: a Fibonacci hash of key, the call
 * site (for a function inlined into the parent's frame, whose call site is the parent's,
 * the function: two helpers inlined into one function would otherwise share a slot and
 * take turns in the general path), with the parent in its high half (where a small
 * firmware's call sites differ least), its top bits the slot. The multiplier is hidden from the optimizer, which would spell a
 * multiply by a constant in some twenty shifts and adds on v6-M, whose MULS is one
 * instruction. */
#define HINT_SHIFT (32u - (uint32_t)__builtin_ctz(PROFILE_STACK_HINTS))
static inline profile_stack_hint *hint_slot(struct profile_stacks *t, uint32_t parent,
                                             uintptr_t key)
{
    uint32_t golden = 0x9E3779B1u;
    __asm__("" : "+r"(golden));
    return &t->hints[(((uint32_t)key ^ (parent << 16)) * golden) >> HINT_SHIFT];
}

/* The child of parent for (fn, site), made if new (NO_NODE: the tree is full), and left
 * in its hint slot (by key: hint_slot) for the fast path. A found child moves to the front of its parent's
 * list: a loop's callee is found at once. */
static uint32_t child_node(struct profile_stacks *t, uint32_t parent, uintptr_t fn,
                           uintptr_t site, uintptr_t key)
{
    uint32_t *link = parent == NO_NODE ? &t->roots : &t->nodes[parent].first_child;
    for (uint32_t *at = link; *at != NO_NODE; at = &t->nodes[*at].next_sibling) {
        struct profile_stack_node *n = &t->nodes[*at];
        if (n->self == fn && n->from == site) {
            uint32_t i = *at;
            if (at != link) {
                *at = n->next_sibling;
                n->next_sibling = *link;
                *link = i;
            }
            *hint_slot(t, parent, key) = (profile_stack_hint)i;
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
    *hint_slot(t, parent, key) = (profile_stack_hint)i;
    return i;
}

/* Is the new frame (fn, site, sp) a function inlined into frame f? */
static inline int inlined_into(const struct profile_stack_frame *f, uint32_t level, uintptr_t fn,
                               uintptr_t site, uintptr_t sp)
{
    return f->level == level && f->sp == sp && f->site == site && f->fn != fn;
}

/* Drops the frames of stack k at level that a new frame (fn, site, sp) shows were left
 * without their exit (longjmp): at or below sp, but for one it is inlined into. (Enter
 * hooks see comparable stack pointers: a caller's lies above its callee's.) Not while
 * frames past DEPTH, not kept, so not known, are on top. */
static void drop_left_frames(struct profile_stacks *t, struct profile_shadow_stack *k,
                             uint32_t level, uintptr_t fn, uintptr_t site, uintptr_t sp)
{
    while (k->depth && k->depth <= DEPTH) {
        const struct profile_stack_frame *f = &k->frames[k->depth - 1];
        if (f->level != level || f->sp > sp || inlined_into(f, level, fn, site, sp))
            return;
        k->depth--;
        t->frames_repaired++;
    }
}

/* The node a sample goes to now: the innermost handler frame's if a handler with hooked
 * frames was interrupted, else the thread's innermost frame's (its context if none). */
static inline uint32_t charged_node(struct profile_stacks *t)
{
    const struct profile_shadow_stack *k = charged_stack(t);
    uint32_t node = top_node(k);
    return node == NO_NODE ? k->context_node : node;
}

/* A new frame's node: the last sample of window w, if it fell in the function's first
 * instructions (its address up to the enter hook's return address ret), was charged to the
 * node before it; it moves there, and the window is closed. Not for an inlined frame (its
 * address is its copy's, elsewhere). */
static inline void entry_window(struct profile_stacks *t, struct profile_stack_window *w,
                                uint32_t before, uint32_t node, uintptr_t fn, uintptr_t ret)
{
    if (w->sample_node == before && node != before && w->sample_pc - fn < ret - fn) {
        t->nodes[before].samples--;
        t->nodes[node].samples++;
        w->sample_node = NO_NODE;
    }
}

/* A new frame for the child its hint slot names of parent for (fn, site), the frame on top
 * of stack k (d frames, fewer than DEPTH): the fast paths' end (enter_fast,
 * enter_inlined_fast, enter_root_fast). 0: no such hint, nothing changed. */
static inline int enter_hinted(struct profile_stacks *t, struct profile_shadow_stack *k,
                               uint32_t d, uint32_t parent, uint32_t flags, uint32_t level,
                               uintptr_t fn, uintptr_t site, uintptr_t sp)
{
    uint32_t node = *hint_slot(t, parent, flags & FRAME_INLINED ? fn : site);
    struct profile_stack_node *n = &t->nodes[node];
    if (n->parent != parent || n->self != fn || n->from != site)
        return 0;
    n->calls++;
    k->window.exited_node = NO_NODE;
    k->frames[d] = (struct profile_stack_frame){ node, (uint16_t)flags, (uint16_t)level, fn,
                                                 site, sp };
    k->depth = d + 1;
    return 1;
}

/* The innermost frame of the running level's stack (*K, at *LEVEL), where a fast path may
 * add a frame after it: a frame free, profiling running, no sample since the last hook (no
 * entry window); NULL: not so. */
static inline __attribute__((always_inline)) const struct profile_stack_frame *
fast_top(struct profile_stacks *t, struct profile_shadow_stack **kp, uint32_t *levelp)
{
    uint32_t level = HAL_PROFILE_STACK_LEVEL();
    struct profile_shadow_stack *k = shadow(t, level);
    uint32_t d = k->depth;
    if (d - 1u >= DEPTH - 1u || k->window.sample_node != NO_NODE || !profile_state.armed_span)
        return NULL;
    const struct profile_stack_frame *top = &k->frames[d - 1];
    if (top->level != level)
        return NULL;
    *kp = k;
    *levelp = level;
    return top;
}

/* The enter hook's common case, which stack_enter would handle the same way: a call from
 * the innermost frame of this level (below its stack pointer: nothing left, nothing
 * inlined) into a child its hint slot names, profiling running, no sample since the last
 * hook (no entry window), a frame free. 0: not that case, nothing changed. */
static inline int enter_fast(struct profile_stacks *t, uintptr_t fn, uintptr_t site,
                             uintptr_t sp)
{
    struct profile_shadow_stack *k;
    uint32_t level;
    const struct profile_stack_frame *top = fast_top(t, &k, &level);
    if (!top || top->sp <= sp)
        return 0;
    return enter_hinted(t, k, k->depth, top->node, 0, level, fn, site, sp);
}

/* The next most common cases, as enter_fast's (stack_enter would handle them the same way),
 * kept out of it so that it pays nothing for them:
 *   - a function inlined into the innermost frame (its stack pointer and call site,
 *     another function): GCC hooks inlined copies too, and a small static helper inlined
 *     in a loop is entered more often than anything else;
 *   - a handler's first frame (a root: no frame of its level on the handlers' stack below
 *     it), entered once an interrupt (FreeRTOS's PendSV and SysTick handlers on Cortex-M
 *     call the kernel's hooked functions), with no sample to move to it from the stack it
 *     interrupted (its entry window).
 * 0: neither, nothing changed. */
static inline int enter_inlined_fast(struct profile_stacks *t, uintptr_t fn, uintptr_t site,
                                     uintptr_t sp)
{
    struct profile_shadow_stack *k;
    uint32_t level;
    const struct profile_stack_frame *top = fast_top(t, &k, &level);
    if (!top || top->sp != sp || top->site != site || top->fn == fn)
        return 0;   /* (else left without its exit, or recursion: stack_enter decides) */
    return enter_hinted(t, k, k->depth, top->node, FRAME_INLINED, level, fn, site, sp);
}

static inline int enter_root_fast(struct profile_stacks *t, uintptr_t fn, uintptr_t site,
                                  uintptr_t sp)
{
    uint32_t level = HAL_PROFILE_STACK_LEVEL();
    struct profile_shadow_stack *k = &t->stacks[0];
    uint32_t d = k->depth;
    if (!level || d >= DEPTH || (d && k->frames[d - 1].level == level) ||
        charged_stack(t)->window.sample_node != NO_NODE || !profile_state.armed_span)
        return 0;
    k->window.sample_node = NO_NODE;    /* (closed: enter_hinted closes the rest) */
    return enter_hinted(t, k, d, NO_NODE, 0, level, fn, site, sp);
}

static void stack_enter(uintptr_t fn, uintptr_t site, uintptr_t sp, uintptr_t ret);

/* Every entry enter_fast does not take (ret: the enter hook's return address). */
static __attribute__((noinline)) void enter_other(uintptr_t fn, uintptr_t site, uintptr_t sp,
                                                  uintptr_t ret)
{
    struct profile_stacks *t = &profile_stacks;
    if (!enter_inlined_fast(t, fn, site, sp) && !enter_root_fast(t, fn, site, sp))
        stack_enter(fn, site, sp, ret);
}

static __attribute__((noinline)) void stack_enter(uintptr_t fn, uintptr_t site, uintptr_t sp,
                                                  uintptr_t ret)
{
    struct profile_state *s = &profile_state;
    struct profile_stacks *t = &profile_stacks;
    uint32_t level = HAL_PROFILE_STACK_LEVEL();
    struct profile_shadow_stack *k = shadow(t, level);

    drop_left_frames(t, k, level, fn, site, sp);
    uint32_t before = charged_node(t);
    struct profile_stack_window *sw = &charged_stack(t)->window, *w = &k->window;
    /* (counted only while profiling runs; the frame is kept either way, for its exit) */
    uint32_t counted = s->armed_span != 0 || profile_slow_path(s) ? 1 : 0;
    const struct profile_stack_frame *top = top_frame(k);
    int inlined = top && inlined_into(top, level, fn, site, sp);
    uint32_t parent = top ? top->node : NO_NODE;
    int root = level != 0 && (!top || top->level != level);
    if (!root && parent == NO_NODE)
        parent = k->context_node;
    if (root)
        parent = NO_NODE;
    uint32_t node = child_node(t, parent, fn, site, inlined ? fn : site);
    uint32_t flags = 0;
    if (node == NO_NODE) {
        t->calls_unrecorded += counted;
        node = parent == NO_NODE ? 0 : parent;
        flags = FRAME_TRUNCATED;
    } else {
        t->nodes[node].calls += counted;
    }
    if (inlined)
        flags |= FRAME_INLINED;
    else
        entry_window(t, sw, before, node, fn, ret);
    /* (this context's window closes; a handler's first frame leaves the thread's open) */
    window_close(w);
    if (k->depth < DEPTH)
        k->frames[k->depth] = (struct profile_stack_frame){ node, (uint16_t)flags,
                                                            (uint16_t)level, fn, site, sp };
    else
        t->calls_unhooked += counted;
    k->depth++;
}

/* The exit hook's common case, which stack_exit would handle the same way: the exit of the
 * innermost frame of this level, with a frame kept below it on its stack (what a sample in
 * its epilogue window is then charged to: no handler's frames above, for a thread's exit).
 * 0: not that case, nothing changed. */
static inline int exit_fast(struct profile_stacks *t, uintptr_t fn, uintptr_t site,
                            uintptr_t ret)
{
    uint32_t level = HAL_PROFILE_STACK_LEVEL();
    struct profile_shadow_stack *k = shadow(t, level);
    uint32_t d = k->depth;
    if (d - 2u >= DEPTH - 1u || (!level && t->stacks[0].depth))
        return 0;
    const struct profile_stack_frame *f = &k->frames[d - 1];
    if (f->fn != fn || f->site != site || f->level != level)
        return 0;
    k->depth = d - 1;
    struct profile_stack_window *w = &k->window;
    w->sample_node = NO_NODE;
    if (!(f->flags & FRAME_INLINED) && ret != site) {
        w->exited_node = f->node;
        w->exited_parent = f[-1].node;
        w->exited_ret = ret;
    } else {
        w->exited_node = NO_NODE;
    }
    return 1;
}

/* The next most common case, as exit_fast's, kept out of it: the exit of a handler's first
 * frame, the only one on the handlers' stack (once an interrupt). A sample in its epilogue
 * window is charged to the thread it interrupted (after a switch, the new one). 0: not that
 * case, nothing changed. */
static inline int exit_root_fast(struct profile_stacks *t, uintptr_t fn, uintptr_t site,
                                 uintptr_t ret)
{
    uint32_t level = HAL_PROFILE_STACK_LEVEL();
    struct profile_shadow_stack *k = &t->stacks[0];
    if (!level || k->depth != 1)    /* (a nested handler's: exit_fast's) */
        return 0;
    const struct profile_stack_frame *f = &k->frames[0];
    if (f->fn != fn || f->site != site || f->level != level)
        return 0;
    k->depth = 0;
    window_close(&k->window);
    if (!(f->flags & FRAME_INLINED) && ret != site) {
        struct profile_stack_window *w = &charged_stack(t)->window;
        w->exited_node = f->node;
        w->exited_parent = charged_node(t);
        w->exited_ret = ret;
    }
    return 1;
}

/* The exit of (fn, site): its frame is the innermost of this level that names them (the
 * stack pointer cannot tell: GCC may call the exit hook after the epilogue, as a tail
 * call); frames above it were left without their exit (longjmp). None: an exit whose
 * entry was not kept (past DEPTH), matched by depth. The frame ended is the epilogue
 * window's (ret: the exit hook's return address), unless it was inlined (its epilogue is
 * its caller's code) or the hook was a tail call (ret is the call site: no epilogue). */
static __attribute__((noinline)) void stack_exit(uintptr_t fn, uintptr_t site, uintptr_t ret)
{
    struct profile_stacks *t = &profile_stacks;
    uint32_t level = HAL_PROFILE_STACK_LEVEL();
    struct profile_shadow_stack *k = shadow(t, level);
    struct profile_stack_window *w = &k->window;

    window_close(w);
    if (k->depth > DEPTH) {
        k->depth--;
        return;
    }
    for (uint32_t d = k->depth; d > 0; d--) {
        const struct profile_stack_frame *f = &k->frames[d - 1];
        if (f->level != level)
            break;
        if (f->fn == fn && f->site == site) {
            if (d != k->depth)
                t->frames_repaired += k->depth - d;
            k->depth = d - 1;
            if (!(f->flags & FRAME_INLINED) && ret != site) {
                /* (where a sample in its epilogue will be charged: a handler's last
                 * frame's, in the thread's window) */
                struct profile_stack_window *ew = &charged_stack(t)->window;
                ew->exited_node = f->node;
                ew->exited_parent = charged_node(t);
                ew->exited_ret = ret;
            }
            return;
        }
    }
}

/* Every exit exit_fast does not take. */
static __attribute__((noinline)) void exit_other(uintptr_t fn, uintptr_t site, uintptr_t ret)
{
    if (!exit_root_fast(&profile_stacks, fn, site, ret))
        stack_exit(fn, site, ret);
}

/* The hooks GCC's -finstrument-functions calls (the package is never built with it), each
 * a masked section of its own: the common case inline (enter_fast, exit_fast: one call per
 * hook), the rest in stack_enter/stack_exit.
 * The stack pointer an entry sees (a local of this one function) is the instrumented
 * function's less the same amount every time. */
void __cyg_profile_func_enter(void *fn, void *call_site)
{
    volatile char here;
    uintptr_t sp = (uintptr_t)&here;
    uintptr_t f = HAL_PROFILE_PC(fn), site = HAL_PROFILE_PC(call_site);
    hal_profile_irq_state irq = profile_lock();
    if (!enter_fast(&profile_stacks, f, site, sp))
        enter_other(f, site, sp, HAL_PROFILE_PC(__builtin_return_address(0)));
    profile_unlock(irq);
}

void __cyg_profile_func_exit(void *fn, void *call_site)
{
    uintptr_t ret = HAL_PROFILE_PC(__builtin_return_address(0));
    uintptr_t f = HAL_PROFILE_PC(fn), site = HAL_PROFILE_PC(call_site);
    hal_profile_irq_state irq = profile_lock();
    if (!exit_fast(&profile_stacks, f, site, ret))
        exit_other(f, site, ret);
    profile_unlock(irq);
}

int profile_stack_select(uintptr_t id)
{
    struct profile_stacks *t = &profile_stacks;
    int rc = 0;
    uint32_t i = 1;
    while (i < t->threads_used && t->stacks[i].context != id)
        i++;
    if (i == t->threads_used) {
        uint32_t node = i <= THREADS && t->nodes_used < NODES ? t->nodes_used : NO_NODE;
        if (node == NO_NODE) {
            t->switches_lost++;
            rc = -ENOMEM;
            i = 1;              /* the first thread's stack: counts go on, mixed */
            window_close(&t->stacks[1].window);     /* (another thread's window) */
        } else {
            t->nodes_used++;
            t->nodes[node] = (struct profile_stack_node){ .parent = NO_NODE,
                                                          .first_child = NO_NODE,
                                                          .next_sibling = NO_NODE,
                                                          .from = id };
            t->stacks[i] = (struct profile_shadow_stack){ .context = id,
                                                          .context_node = node };
            window_close(&t->stacks[i].window);
            t->threads_used++;
        }
    }
    /* (each thread keeps its window while others run: a sample in its prologue before
     * the switch still moves to the function when its enter hook runs after) */
    t->thread = i;
    t->running = &t->stacks[i];
    return rc;
}

void profile_stack_end(uintptr_t id, uintptr_t ended_id)
{
    struct profile_stacks *t = &profile_stacks;
    for (uint32_t i = 1; i < t->threads_used; i++)
        if (t->stacks[i].context == id) {
            t->stacks[i].context = ended_id;
            t->nodes[t->stacks[i].context_node].from = ended_id;
            return;
        }
}

void profile_stack_sample(uintptr_t pc)
{
    struct profile_stacks *t = &profile_stacks;
    struct profile_shadow_stack *k = charged_stack(t);
    struct profile_stack_window *w = &k->window;
    uint32_t node = charged_node(t);
    if (w->exited_node != NO_NODE && node == w->exited_parent && pc - w->exited_ret < EPILOGUE_BYTES)
        node = w->exited_node;      /* in the epilogue of the frame that just ended */
    t->nodes[node].samples++;
    w->sample_node = node;
    w->sample_pc = pc;
    const struct profile_stack_frame *f = top_frame(k);
    if (f && f->flags & FRAME_TRUNCATED)
        t->samples_truncated++;
}

/* A copy of the tree's counts at one moment, with what gmon.stacks's header says of it.
 * The nodes themselves are the live tree's: they are only ever added (until
 * profile_on/profile_off compact the tree, which drops every copy), so the first
 * nodes_used of them are the copy's too. */
struct tree_counts {
    uint32_t valid;
    uint32_t nodes_used;
    uint32_t prof_rate, samples_total, samples_overhead;   /* of the gmon.out it goes with */
    uint32_t samples_truncated, calls_unrecorded, frames_repaired, calls_unhooked,
             switches_lost;
    union {
        uint32_t calls[NODES];
        /* profile_stack_compact's map from a node's old index to its new one: compaction
         * drops every copy first, so the frozen copy's calls lend it their room (NODES
         * words of RAM that a small target would otherwise spend twice) */
        uint32_t compact_map[NODES];
    };
    uint32_t samples[NODES];
};

/* The memory of frozen and kept (below): when the daemon keeps a delivered snapshot's
 * counts, the two pointers swap (in the release's masked section: nothing is copied).
 * Owned by this file, through the two pointers. */
static struct tree_counts counts_memory[1 + PROFILE_TFTP];

/*
 * The counts a snapshot froze (profile_snapshot_take: a profile_write or a TFTP transfer
 * of gmon.out in flight), taken out of the live tree in the same step as gmon.out's data,
 * so that the two files are one moment. Owned by this file; changed in the snapshot's
 * lock sections (freeze, thaw) and by profile_on/profile_off (forget, compact).
 */
static struct tree_counts *frozen = &counts_memory[0];

#if PROFILE_TFTP
/*
 * The counts of the last gmon.out a TFTP client took delivery of, which `tftp get
 * gmon.stacks` serves (as often as asked) until the next gmon.out is delivered: TFTP moves
 * one file a transfer, and the delivery of gmon.out resets what both files held. Owned by
 * this file: set by profile_stack_thaw (a snapshot delivered with
 * PROFILE_SNAPSHOT_DELIVERED_GMON, in snapshot.c's lock section), dropped by
 * profile_on/profile_off (forget, compact); read by the daemon (lwIP's context) through
 * profile_stack_kept_read, which checks kept_generation.
 */
static struct tree_counts *kept = &counts_memory[1];
/* Counts every change of kept (owned with it): a transfer that sees another value than at
 * its start serves no mix of two trees. */
static uint32_t kept_generation;
#endif

void profile_stack_freeze(void)
{
    struct profile_stacks *t = &profile_stacks;
    frozen->valid = 1;
    frozen->nodes_used = t->nodes_used;
    for (uint32_t i = 0; i < t->nodes_used; i++) {
        frozen->calls[i] = t->nodes[i].calls;
        frozen->samples[i] = t->nodes[i].samples;
    }
    frozen->prof_rate = profile_frozen.prof_rate;
    frozen->samples_total = profile_frozen.samples;
    frozen->samples_overhead = profile_frozen.samples_overhead;
    frozen->samples_truncated = t->samples_truncated;
    frozen->calls_unrecorded = t->calls_unrecorded;
    frozen->frames_repaired = t->frames_repaired;
    frozen->calls_unhooked = t->calls_unhooked;
    frozen->switches_lost = t->switches_lost;
    profile_stack_clear();
}

/* a + b, sticking at 2^32-1 */
static uint32_t add_sat(uint32_t a, uint32_t b)
{
    return a + b < a ? UINT32_MAX : a + b;
}

void profile_stack_thaw(int delivered)
{
    struct profile_stacks *t = &profile_stacks;
    if (!frozen->valid)
        return;
    if (!delivered) {
        for (uint32_t i = 0; i < frozen->nodes_used; i++) {
            t->nodes[i].calls = add_sat(t->nodes[i].calls, frozen->calls[i]);
            t->nodes[i].samples = add_sat(t->nodes[i].samples, frozen->samples[i]);
        }
        t->samples_truncated = add_sat(t->samples_truncated, frozen->samples_truncated);
        t->calls_unrecorded = add_sat(t->calls_unrecorded, frozen->calls_unrecorded);
        t->frames_repaired = add_sat(t->frames_repaired, frozen->frames_repaired);
        t->calls_unhooked = add_sat(t->calls_unhooked, frozen->calls_unhooked);
        t->switches_lost = add_sat(t->switches_lost, frozen->switches_lost);
    }
#if PROFILE_TFTP
    if (delivered == PROFILE_SNAPSHOT_DELIVERED_GMON) {
        struct tree_counts *was_kept = kept;
        kept = frozen;
        frozen = was_kept;
        kept_generation++;
    }
#endif
    frozen->valid = 0;
}

void profile_stack_forget(void)
{
    frozen->valid = 0;
#if PROFILE_TFTP
    kept->valid = 0;
    kept_generation++;
#endif
}

/* Keeps node i and its ancestors (map[] marks them: 1). */
static void keep_path(const struct profile_stacks *t, uint32_t *map, uint32_t i)
{
    for (; i != NO_NODE && !map[i]; i = t->nodes[i].parent)
        map[i] = 1;
}

/*
 * Drops the nodes no live frame needs: what profile_on and profile_off discard is every
 * path but those of the frames running now (and the threads' contexts), which their exits
 * still point at. Kept nodes move down in order (parents stay before children), the lists
 * are linked again, and the frames' and contexts' indices follow (compact_map). In a
 * lock section.
 */
void profile_stack_compact(void)
{
    struct profile_stacks *t = &profile_stacks;
    uint32_t *map = frozen->compact_map;
    profile_stack_forget();
    windows_close(t);     /* (indices change) */
    memset(map, 0, sizeof frozen->compact_map);
    memset(t->hints, 0, sizeof t->hints);   /* (indices change; node 0 is no child) */
    map[0] = 1;
    for (uint32_t k = 0; k < t->threads_used; k++) {
        struct profile_shadow_stack *st = &t->stacks[k];
        if (k)
            keep_path(t, map, st->context_node);
        uint32_t frames = st->depth < DEPTH ? st->depth : DEPTH;
        for (uint32_t d = 0; d < frames; d++)
            keep_path(t, map, st->frames[d].node);
    }
    uint32_t used = 0;
    for (uint32_t i = 0; i < t->nodes_used; i++) {
        if (!map[i])
            continue;
        map[i] = used;
        struct profile_stack_node n = t->nodes[i];
        n.parent = n.parent == NO_NODE ? NO_NODE : map[n.parent];
        n.first_child = n.next_sibling = NO_NODE;
        t->nodes[used++] = n;
    }
    t->nodes_used = used;
    t->roots = NO_NODE;
    for (uint32_t i = used; i-- > 1;) {   /* (node 0, a context, is on no list) */
        struct profile_stack_node *n = &t->nodes[i];
        if (n->self == 0)
            continue;                       /* a thread's context */
        uint32_t *link = n->parent == NO_NODE ? &t->roots : &t->nodes[n->parent].first_child;
        n->next_sibling = *link;
        *link = i;
    }
    for (uint32_t k = 0; k < t->threads_used; k++) {
        struct profile_shadow_stack *st = &t->stacks[k];
        st->context_node = k ? map[st->context_node] : st->context_node;
        uint32_t frames = st->depth < DEPTH ? st->depth : DEPTH;
        for (uint32_t d = 0; d < frames; d++)
            st->frames[d].node = map[st->frames[d].node];
    }
    memset(map, 0, sizeof frozen->compact_map);
}

#define STACKS_HEADER 56u
#define ADDR_BYTES    ((unsigned)sizeof(uintptr_t))
#define NODE_BYTES    (12u + 2u * ADDR_BYTES)

static size_t image_size(const struct tree_counts *c)
{
    return c->valid ? STACKS_HEADER + (size_t)c->nodes_used * NODE_BYTES : 0;
}

/* One record of the image of c into rec, field by field (doc/format.md): the header for
 * index 0, node i for index i + 1. */
static size_t stacks_record(const struct tree_counts *c, uint32_t index, uint8_t *rec)
{
    uint8_t *p = rec;
    if (index == 0) {
        memcpy(p, "gmst", 4);
        p += 4;
        p = profile_put_uint(p, 1, 4);
        p = profile_put_uint(p, 0x01020304u, 4);
        p = profile_put_uint(p, ADDR_BYTES, 1);
        p = profile_put_uint(p, 0, 3);
        p = profile_put_uint(p, c->prof_rate, 4);
        p = profile_put_uint(p, c->nodes_used, 4);
        p = profile_put_uint(p, c->samples_total, 4);
        p = profile_put_uint(p, c->samples_overhead, 4);
        p = profile_put_uint(p, c->samples_truncated, 4);
        p = profile_put_uint(p, c->calls_unrecorded, 4);
        p = profile_put_uint(p, c->frames_repaired, 4);
        p = profile_put_uint(p, c->calls_unhooked, 4);
        p = profile_put_uint(p, c->switches_lost, 4);
        p = profile_put_uint(p, 0, 4);
    } else {
        const struct profile_stack_node *n = &profile_stacks.nodes[index - 1];
        p = profile_put_uint(p, n->parent, 4);
        p = profile_put_uint(p, n->self, ADDR_BYTES);
        p = profile_put_uint(p, n->from, ADDR_BYTES);
        p = profile_put_uint(p, c->calls[index - 1], 4);
        p = profile_put_uint(p, c->samples[index - 1], 4);
    }
    return (size_t)(p - rec);
}

static size_t image_read(const struct tree_counts *c, size_t offset, void *buf, size_t len)
{
    size_t size = image_size(c), done = 0;
    uint8_t rec[STACKS_HEADER];
    while (done < len && offset + done < size) {
        size_t at = offset + done;
        uint32_t index = at < STACKS_HEADER ? 0 : 1 + (uint32_t)((at - STACKS_HEADER) / NODE_BYTES);
        size_t start = index == 0 ? 0 : STACKS_HEADER + (size_t)(index - 1) * NODE_BYTES;
        size_t n = stacks_record(c, index, rec);
        size_t from = at - start, take = n - from < len - done ? n - from : len - done;
        memcpy((uint8_t *)buf + done, rec + from, take);
        done += take;
    }
    return done;
}

size_t profile_stack_image_size(void)
{
    return image_size(frozen);
}

size_t profile_stack_image_read(size_t offset, void *buf, size_t len)
{
    return image_read(frozen, offset, buf, len);
}

#if PROFILE_TFTP
size_t profile_stack_kept_size(uint32_t *generation)
{
    *generation = kept_generation;
    return image_size(kept);
}

size_t profile_stack_kept_read(size_t offset, void *buf, size_t len)
{
    return image_read(kept, offset, buf, len);
}

int profile_stack_kept_ended(uint32_t generation)
{
    return generation != kept_generation;
}
#endif

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
    windows_close(t);
}

#endif /* PROFILE_STACKS */
