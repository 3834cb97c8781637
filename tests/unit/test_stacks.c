/*
 * The stack-profiling mode's core (target/src/stacks.c) on the host: the -finstrument-
 * functions hooks called by real nested C frames (so that the stack pointers they see are
 * a real stack's), samples through __profile_hit, handler levels through the fake HAL's
 * hal_host_in_interrupt. Built with CYGPKG_PROFILE_STACKS, a tree of 8 nodes, shadow
 * stacks of 6 frames and 2 threads (tests/tests.mk).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <cyg/profile/profile.h>
#include "../../target/src/profile_priv.h"
#include "fake_hal.h"

_Static_assert(CYGNUM_PROFILE_STACKS_NODES == 8 && CYGNUM_PROFILE_STACKS_DEPTH == 6 &&
               CYGNUM_PROFILE_STACKS_THREADS == 2, "tests/tests.mk builds this so");

#define LOW     ((uintptr_t)0x100000)
#define NO_NODE 0xFFFFFFFFu
/* Functions and call sites: fn k is LOW + 0x100 k, its call site LOW + 0x100 k + 0x40. */
#define FN(k)   (LOW + 0x100u * (k))
#define SITE(k) (FN(k) + 0x40u)

void __cyg_profile_func_enter(void *fn, void *call_site);
void __cyg_profile_func_exit(void *fn, void *call_site);

static void (*leaf_action)(void);   /* what the innermost frame does (a test sets it) */
static jmp_buf jump_out;

/* Enters fns[0], then the rest nested in it, each level a real C frame; the innermost
 * runs leaf_action. */
static __attribute__((noinline)) void call_path(const int *fns, int n)
{
    volatile char frame[32];          /* a frame of its own at every level */
    frame[0] = (char)n;
    __cyg_profile_func_enter((void *)FN(fns[0]), (void *)SITE(fns[0]));
    if (n > 1)
        call_path(fns + 1, n - 1);
    else if (leaf_action)
        leaf_action();
    __cyg_profile_func_exit((void *)FN(fns[0]), (void *)SITE(fns[0]));
    (void)frame[0];
}

static int setup(void **state)
{
    (void)state;
    memset(&fake_hal, 0, sizeof fake_hal);
    hal_host_in_interrupt = 0;
    leaf_action = NULL;
    assert_int_equal(profile_on((void *)LOW, (void *)(LOW + 0x10000), 16, 1000), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    profile_off();
    assert_int_equal(hal_host_irq_depth, 0);
    return 0;
}

/* The node of the path (fn numbers from the thread's context node), or NO_NODE. */
static uint32_t node_of(uint32_t context, const int *fns, int n)
{
    const struct profile_stacks *t = &profile_stacks;
    uint32_t at = context;
    for (int i = 0; i < n; i++) {
        uint32_t found = NO_NODE;
        for (uint32_t j = 0; j < t->nodes_used; j++)
            if (t->nodes[j].parent == at && t->nodes[j].self == FN(fns[i]) &&
                t->nodes[j].from == SITE(fns[i]))
                found = j;
        if (found == NO_NODE)
            return NO_NODE;
        at = found;
    }
    return at;
}

static uint32_t calls_of(uint32_t context, const int *fns, int n)
{
    uint32_t i = node_of(context, fns, n);
    return i == NO_NODE ? 0 : profile_stacks.nodes[i].calls;
}

static uint32_t node_sum(size_t field)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < profile_stacks.nodes_used; i++)
        sum += *(const uint32_t *)((const char *)&profile_stacks.nodes[i] + field);
    return sum;
}

static void sample_here(void) { __profile_hit(LOW + 0x20); }

static void test_paths_and_calls(void **state)
{
    (void)state;
    const int abc[] = { 1, 2, 3 }, abd[] = { 1, 2, 4 };
    for (int i = 0; i < 5; i++)
        call_path(abc, 3);
    for (int i = 0; i < 2; i++)
        call_path(abd, 3);
    assert_int_equal(calls_of(0, abc, 1), 7);
    assert_int_equal(calls_of(0, abc, 2), 7);
    assert_int_equal(calls_of(0, abc, 3), 5);
    assert_int_equal(calls_of(0, abd, 3), 2);
    assert_int_equal(profile_stacks.stacks[1].depth, 0);   /* every exit matched */
    assert_int_equal(profile_stacks.frames_repaired, 0);
}

static void test_samples_to_innermost(void **state)
{
    (void)state;
    const int ab[] = { 1, 2 };
    leaf_action = sample_here;
    for (int i = 0; i < 3; i++)
        call_path(ab, 2);
    sample_here();                  /* no frame: the context node's */
    assert_int_equal(profile_stacks.nodes[node_of(0, ab, 2)].samples, 3);
    assert_int_equal(profile_stacks.nodes[0].samples, 1);
    struct profile_stats st;
    assert_int_equal(profile_get_stats(&st), 0);
    assert_int_equal(node_sum(offsetof(struct profile_stack_node, samples)) + st.samples_overhead,
                     st.samples);
}

static void test_counts_only_while_on(void **state)
{
    (void)state;
    const int ab[] = { 1, 2 };
    profile_off();
    call_path(ab, 2);               /* followed, not counted */
    assert_int_equal(calls_of(0, ab, 2), 0);
    assert_int_equal(profile_on((void *)LOW, (void *)(LOW + 0x10000), 16, 1000), 0);
    call_path(ab, 2);
    assert_int_equal(calls_of(0, ab, 2), 1);
}

static void jump(void) { longjmp(jump_out, 1); }

static void test_longjmp_frames_repaired(void **state)
{
    (void)state;
    const int abc[] = { 1, 2, 3 }, ab[] = { 1, 2 };
    leaf_action = jump;
    if (setjmp(jump_out) == 0)
        call_path(abc, 3);          /* leaves 3 frames without their exit */
    leaf_action = NULL;
    assert_int_equal(profile_stacks.stacks[1].depth, 3);
    call_path(ab, 2);               /* a new frame where theirs were: they go */
    assert_int_equal(profile_stacks.frames_repaired, 3);
    assert_int_equal(profile_stacks.stacks[1].depth, 0);
    assert_int_equal(calls_of(0, ab, 2), 2);
}

/* What gdb's gprof_reset does while the target is halted: the gates closed. */
static void gdb_reset(void)
{
    profile_state.reset_pending = 1;
    profile_state.armed_span = 0;
    profile_state.armed_homes = 0;
    profile_state.armed_arcs = (struct profile_arc *)profile_arcs_none;
}

static int reset_first;             /* inner_b: gdb asks for a reset before b's entry */

static void inner_b(void)
{
    const int b[] = { 2 };
    if (reset_first)
        gdb_reset();
    leaf_action = NULL;
    call_path(b, 1);                /* a child of a's live frame: the hooks' fast path */
    leaf_action = inner_b;
}

/* A reset gdb asks for is performed by the next hook, also one whose call the fast path
 * would count: a;b once after it, not on top of the calls before. */
static void test_gdb_reset_applied_by_next_hook(void **state)
{
    (void)state;
    const int a[] = { 1 }, ab[] = { 1, 2 };
    leaf_action = inner_b;
    reset_first = 0;
    call_path(a, 1);
    call_path(a, 1);
    assert_int_equal(calls_of(0, ab, 2), 2);
    reset_first = 1;
    call_path(a, 1);
    leaf_action = NULL;
    assert_int_equal(profile_state.reset_pending, 0);
    assert_int_equal(calls_of(0, ab, 2), 1);
    assert_int_equal(calls_of(0, a, 1), 0);     /* (its call came before the reset) */
}

static void jump_from_inside(void)
{
    const int abc[] = { 1, 2, 3 };
    if (setjmp(jump_out) == 0) {
        leaf_action = jump;
        call_path(abc, 3);          /* leaves 3 frames above ours without their exit */
    }
    leaf_action = NULL;
}

/* An exit whose frame lies under frames a longjmp left: they are repaired, its own frame
 * goes, not the innermost one in its place. */
static void test_exit_under_left_frames(void **state)
{
    (void)state;
    const int xy[] = { 9, 8 };
    for (int i = 0; i < 2; i++) {   /* the second time over the fast path's nodes */
        leaf_action = jump_from_inside;
        call_path(xy, 2);
        assert_int_equal(profile_stacks.frames_repaired, 3 * (i + 1));
        assert_int_equal(profile_stacks.stacks[1].depth, 0);
    }
    assert_int_equal(calls_of(0, xy, 2), 2);
}

static void handler(void)
{
    const int hi[] = { 5, 6 };
    void (*was)(void) = leaf_action;
    leaf_action = NULL;
    hal_host_in_interrupt = 1;
    call_path(hi, 2);
    leaf_action = was;
    sample_here();                  /* (after its frames: the thread's innermost) */
    hal_host_in_interrupt = 0;
}

static void test_handler_is_a_root(void **state)
{
    (void)state;
    const int ab[] = { 1, 2 }, h[] = { 5 }, hi[] = { 5, 6 };
    leaf_action = handler;
    call_path(ab, 2);
    uint32_t root = node_of(NO_NODE, h, 1);
    assert_int_not_equal(root, NO_NODE);
    assert_int_equal(profile_stacks.nodes[root].calls, 1);
    assert_int_equal(calls_of(NO_NODE, hi, 2), 1);
    assert_int_equal(profile_stacks.nodes[node_of(0, ab, 2)].samples, 1);
    assert_int_equal(profile_stacks.stacks[0].depth, 0);
    assert_int_equal(profile_stacks.stacks[1].depth, 0);
    assert_int_equal(profile_stacks.frames_repaired, 0);
}

static void test_tree_full_is_counted(void **state)
{
    (void)state;
    int made = 0;
    leaf_action = sample_here;
    for (int k = 1; k <= 6; k++) {  /* 6 paths of 2 nodes: 12 nodes wanted, 7 there */
        const int path[] = { k, k + 10 };
        call_path(path, 2);
        made += 2;
    }
    assert_int_equal(profile_stacks.nodes_used, 8);
    assert_true(profile_stacks.calls_unrecorded > 0);
    assert_int_equal(node_sum(offsetof(struct profile_stack_node, calls)) +
                     profile_stacks.calls_unrecorded, made);
    assert_true(profile_stacks.samples_truncated > 0);
    struct profile_stats st;
    assert_int_equal(profile_get_stats(&st), 0);
    assert_int_equal(node_sum(offsetof(struct profile_stack_node, samples)) + st.samples_overhead,
                     st.samples);
}

static void test_deeper_than_kept(void **state)
{
    (void)state;
    const int deep[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    leaf_action = sample_here;
    call_path(deep, 9);             /* 6 frames kept, 3 not */
    assert_int_equal(profile_stacks.calls_unhooked, 3);
    assert_int_equal(profile_stacks.stacks[1].depth, 0);
    assert_int_equal(profile_stacks.frames_repaired, 0);
    /* the sample went to the deepest frame kept */
    assert_int_equal(profile_stacks.nodes[node_of(0, deep, 6)].samples, 1);
}

static void test_threads(void **state)
{
    (void)state;
    const int ab[] = { 1, 2 }, cd[] = { 3, 4 };
    assert_int_equal(profile_stack_switch(0x11), 0);
    call_path(cd, 2);
    uint32_t ctx = profile_stacks.stacks[profile_stacks.thread].context_node;
    assert_int_equal(profile_stacks.nodes[ctx].from, 0x11);
    assert_int_equal(profile_stacks.nodes[ctx].self, 0);
    assert_int_equal(calls_of(ctx, cd, 2), 1);
    assert_int_equal(profile_stack_switch(0), 0);
    call_path(ab, 2);
    assert_int_equal(calls_of(0, ab, 2), 1);
    assert_int_equal(calls_of(0, cd, 2), 0);
    assert_int_equal(profile_stack_switch(0x22), -ENOMEM);   /* 2 threads: 0 and 0x11 */
    assert_int_equal(profile_stacks.switches_lost, 1);
    assert_int_equal(profile_stack_switch(0), 0);
}

static void test_reset_keeps_the_tree(void **state)
{
    (void)state;
    const int ab[] = { 1, 2 };
    leaf_action = sample_here;
    call_path(ab, 2);
    uint32_t used = profile_stacks.nodes_used;
    profile_reset();
    assert_int_equal(profile_stacks.nodes_used, used);
    assert_int_equal(node_sum(offsetof(struct profile_stack_node, calls)), 0);
    assert_int_equal(node_sum(offsetof(struct profile_stack_node, samples)), 0);
    call_path(ab, 2);
    assert_int_equal(calls_of(0, ab, 2), 1);
}

static void restart(void)
{
    const int cd[] = { 3, 4 };
    leaf_action = NULL;
    call_path(cd, 2);               /* a path that restarting discards */
    profile_off();
    assert_int_equal(profile_on((void *)LOW, (void *)(LOW + 0x10000), 16, 1000), 0);
    sample_here();
}

static void test_profile_on_discards_paths_but_live_frames(void **state)
{
    (void)state;
    const int ab[] = { 1, 2 }, cd[] = { 3, 4 };
    leaf_action = restart;
    call_path(ab, 2);               /* profile_on again while A;B run */
    leaf_action = NULL;
    /* left: the context, A, A;B (the frames that were running), the other threads'
     * contexts (test_threads made one), nothing of C;D */
    assert_int_equal(profile_stacks.nodes_used, 3 + (profile_stacks.threads_used - 2));
    assert_int_equal(node_of(0, cd, 1), NO_NODE);
    assert_int_equal(profile_stacks.nodes[node_of(0, ab, 2)].samples, 1);
    assert_int_equal(profile_stacks.stacks[1].depth, 0);
    assert_int_equal(profile_stacks.frames_repaired, 0);
    call_path(ab, 2);
    assert_int_equal(calls_of(0, ab, 2), 1);
}

/* The child of parent for (fn, site), or NO_NODE. */
static uint32_t child_of(uint32_t parent, uintptr_t fn, uintptr_t site)
{
    const struct profile_stacks *t = &profile_stacks;
    for (uint32_t j = 0; j < t->nodes_used; j++)
        if (t->nodes[j].parent == parent && t->nodes[j].self == fn && t->nodes[j].from == site)
            return j;
    return NO_NODE;
}

/* fn 1 with fn 2 inlined into it: GCC keeps the inlined function's hooks, called from the
 * same C frame with the enclosing function's call site; from it, a real call of fn 3. */
static __attribute__((noinline)) void outer_with_inlined(void)
{
    const int c[] = { 3 };
    __cyg_profile_func_enter((void *)FN(1), (void *)SITE(1));
    __cyg_profile_func_enter((void *)FN(2), (void *)SITE(1));
    call_path(c, 1);
    __cyg_profile_func_exit((void *)FN(2), (void *)SITE(1));
    __cyg_profile_func_exit((void *)FN(1), (void *)SITE(1));
}

static void test_inlined_frame_is_a_child(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++)
        outer_with_inlined();
    uint32_t one = child_of(0, FN(1), SITE(1));
    uint32_t two = one == NO_NODE ? NO_NODE : child_of(one, FN(2), SITE(1));
    uint32_t three = two == NO_NODE ? NO_NODE : child_of(two, FN(3), SITE(3));
    assert_int_not_equal(three, NO_NODE);        /* the path 1;2;3, not 2;3 */
    assert_int_equal(profile_stacks.nodes[two].calls, 3);
    assert_int_equal(profile_stacks.nodes[three].calls, 3);
    assert_int_equal(profile_stacks.frames_repaired, 0);
    assert_int_equal(profile_stacks.stacks[1].depth, 0);
}

/*
 * Which path an entry took: the general one (stack_enter, through child_node) moves the
 * child it finds to the front of its parent's list (or of the roots); the fast paths, which
 * find it by its hint, leave the list as it is. The first of a list: */
static uint32_t first_of(uint32_t parent)
{
    return parent == NO_NODE ? profile_stacks.roots : profile_stacks.nodes[parent].first_child;
}

/* fn 1 with two helpers inlined into it, fn 2 then fn 4, called in turn, and fn 2 once
 * more (a helper inlined in a loop: the hooks GCC keeps for it are the ones called most). */
static __attribute__((noinline)) void outer_with_two_inlined(int rounds)
{
    __cyg_profile_func_enter((void *)FN(1), (void *)SITE(1));
    for (int i = 0; i <= rounds; i++)
        for (int k = 2; k <= (i < rounds ? 4 : 2); k += 2) {
            __cyg_profile_func_enter((void *)FN(k), (void *)SITE(1));
            __cyg_profile_func_exit((void *)FN(k), (void *)SITE(1));
        }
    __cyg_profile_func_exit((void *)FN(1), (void *)SITE(1));
}

/* Inlined helpers, once their nodes are made, take the fast path: fn 2, the first made,
 * stays behind fn 4 in fn 1's list, though called last (the general path moved it to the
 * front at every call; and the two shared a hint slot, the call site being fn 1's for
 * both). */
static void test_inlined_helpers_take_the_fast_path(void **state)
{
    (void)state;
    outer_with_two_inlined(1);      /* (fn 2 made, then fn 4: 4 is first) */
    uint32_t one = child_of(0, FN(1), SITE(1));
    uint32_t two = child_of(one, FN(2), SITE(1)), four = child_of(one, FN(4), SITE(1));
    assert_int_not_equal(two, NO_NODE);
    assert_int_not_equal(four, NO_NODE);
    assert_int_equal(first_of(one), four);
    outer_with_two_inlined(50);
    assert_int_equal(first_of(one), four);
    assert_int_equal(profile_stacks.nodes[two].calls, 53);
    assert_int_equal(profile_stacks.nodes[four].calls, 51);
    assert_int_equal(profile_stacks.nodes[one].calls, 2);
    assert_int_equal(profile_stacks.frames_repaired, 0);
    assert_int_equal(profile_stacks.stacks[1].depth, 0);
}

/* An interrupt's handler calling fn k (a root: on Cortex-M, FreeRTOS's PendSV and SysTick
 * handlers call the kernel's vTaskSwitchContext and xTaskIncrementTick, once an interrupt). */
static void interrupt_path(const int *path, int n)
{
    void (*was)(void) = leaf_action;
    leaf_action = NULL;
    hal_host_in_interrupt = 1;
    call_path(path, n);
    hal_host_in_interrupt = 0;
    leaf_action = was;
}

static void interrupt_calling(int k)
{
    const int h[] = { k };
    interrupt_path(h, 1);
}

static void two_interrupts(void)
{
    for (int i = 0; i < 20; i++) {
        interrupt_calling(5);
        interrupt_calling(6);
    }
    interrupt_calling(5);
}

/* A handler's first frame, once its root is made, takes the fast path in and out: fn 5's
 * root, the first made, stays behind fn 6's in the roots though called last, and every
 * count is exact. */
static void test_handler_roots_take_the_fast_path(void **state)
{
    (void)state;
    const int ab[] = { 1, 2 }, h5[] = { 5 }, h6[] = { 6 };
    interrupt_calling(5);
    interrupt_calling(6);
    assert_int_equal(first_of(NO_NODE), node_of(NO_NODE, h6, 1));
    leaf_action = two_interrupts;   /* (interrupting a thread's frames) */
    call_path(ab, 2);
    assert_int_equal(first_of(NO_NODE), node_of(NO_NODE, h6, 1));
    assert_int_equal(calls_of(NO_NODE, h5, 1), 22);
    assert_int_equal(calls_of(NO_NODE, h6, 1), 21);
    assert_int_equal(calls_of(0, ab, 2), 1);
    assert_int_equal(profile_stacks.stacks[0].depth, 0);
    assert_int_equal(profile_stacks.stacks[1].depth, 0);
    assert_int_equal(profile_stacks.frames_repaired, 0);
}

/* A function whose first sample falls before its enter hook (its prologue), and one after
 * its exit hook (its epilogue). */
static __attribute__((noinline)) void with_windows(void)
{
    __profile_hit((uintptr_t)with_windows);         /* at its first instruction */
    __cyg_profile_func_enter((void *)with_windows, (void *)SITE(7));
    __cyg_profile_func_exit((void *)with_windows, (void *)SITE(7));
    __profile_hit((uintptr_t)__builtin_return_address(0) + 0x100000u);  /* not its code */
}

/* Runs leaf under fn 1 (its call site SITE(7)); its node, which must hold the sample taken
 * in its first instructions (moved from fn 1's); *one: fn 1's node. */
static uint32_t leaf_with_entry_sample(void (*leaf)(void), uint32_t *one)
{
    const int a[] = { 1 };
    leaf_action = leaf;
    call_path(a, 1);
    *one = child_of(0, FN(1), SITE(1));
    uint32_t w = child_of(*one, (uintptr_t)leaf, SITE(7));
    assert_int_not_equal(w, NO_NODE);
    assert_int_equal(profile_stacks.nodes[w].samples, 1);      /* moved from fn 1's */
    return w;
}

static void test_windows_charge_the_function(void **state)
{
    (void)state;
    uint32_t one, w = leaf_with_entry_sample(with_windows, &one);
    assert_int_equal(profile_stacks.nodes[one].samples, 1);    /* the one past its epilogue */
    /* the exit window: a sample in the few bytes after the exit hook's return */
    profile_stacks.running->window.exited_node = w;
    profile_stacks.running->window.exited_parent = one;
    profile_stacks.running->window.exited_ret = LOW + 0x800;
    __cyg_profile_func_enter((void *)FN(1), (void *)SITE(1));
    profile_stacks.running->window.exited_node = w;
    profile_stacks.running->window.exited_parent = child_of(0, FN(1), SITE(1));
    profile_stacks.running->window.exited_ret = LOW + 0x800;
    __profile_hit(LOW + 0x804);
    __profile_hit(LOW + 0x800 + 24);                            /* past it: the frame's */
    __cyg_profile_func_exit((void *)FN(1), (void *)SITE(1));
    assert_int_equal(profile_stacks.nodes[w].samples, 2);
    assert_int_equal(profile_stacks.nodes[one].samples, 2);
}

/* A -pg handler runs between a thread's sample and the thread's enter hook: its hooks close
 * its own windows, not the thread's, so the sample in the function's first instructions
 * still moves to the function's node. */
static __attribute__((noinline)) void with_handler_in_window(void)
{
    const int hi[] = { 5, 6 };
    __profile_hit((uintptr_t)with_handler_in_window);   /* at its first instruction */
    interrupt_path(hi, 2);
    __cyg_profile_func_enter((void *)with_handler_in_window, (void *)SITE(7));
    __cyg_profile_func_exit((void *)with_handler_in_window, (void *)SITE(7));
}

static void test_handler_leaves_the_threads_window(void **state)
{
    (void)state;
    uint32_t one;
    (void)leaf_with_entry_sample(with_handler_in_window, &one);
    assert_int_equal(profile_stacks.nodes[one].samples, 0);
}

/* A thread that ends (profile_task_end) keeps its context, under the id its gmon.tasks row
 * takes; a thread made later at its address is another thread. (Runs last: 0x11 is the
 * second of the 2 threads, test_threads's.) */
static void test_ended_thread_keeps_its_context(void **state)
{
    (void)state;
    const int cd[] = { 3, 4 };
    assert_int_equal(profile_stack_switch(0x11), 0);
    uint32_t ctx = profile_stacks.stacks[profile_stacks.thread].context_node;
    call_path(cd, 2);
    assert_int_equal(profile_task_end(0x11), 0);
    assert_int_equal(profile_stacks.nodes[ctx].from, UINTPTR_MAX - 1);
    assert_int_equal(calls_of(ctx, cd, 2), 1);
    uint32_t lost = profile_stacks.switches_lost;
    assert_int_equal(profile_stack_switch(0x11), -ENOMEM);  /* a new one: no stack left */
    assert_int_equal(profile_stacks.switches_lost, lost + 1);
    assert_int_equal(profile_stack_switch(0), 0);
}

int main(void)
{
    /* (the tree is static: each test's profile_on discards what the one before left) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_paths_and_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_samples_to_innermost, setup, teardown),
        cmocka_unit_test_setup_teardown(test_counts_only_while_on, setup, teardown),
        cmocka_unit_test_setup_teardown(test_longjmp_frames_repaired, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gdb_reset_applied_by_next_hook, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exit_under_left_frames, setup, teardown),
        cmocka_unit_test_setup_teardown(test_handler_is_a_root, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deeper_than_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_keeps_the_tree, setup, teardown),
        cmocka_unit_test_setup_teardown(test_threads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tree_full_is_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_profile_on_discards_paths_but_live_frames, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_inlined_frame_is_a_child, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inlined_helpers_take_the_fast_path, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_handler_roots_take_the_fast_path, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_windows_charge_the_function, setup, teardown),
        cmocka_unit_test_setup_teardown(test_handler_leaves_the_threads_window, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ended_thread_keeps_its_context, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
