/*
 * tests/unit/test_stacks_cxx.cc's view of the stack-profiling core, in C (profile_priv.h is
 * C): starts profiling and reads the calling-context tree and the running thread's shadow
 * stack. Not instrumented (no -finstrument-functions): only the C++ test's frames are.
 */
#include <stdint.h>
#include <string.h>
#include <cyg/profile/profile.h>
#include "../../target/src/profile_priv.h"
#include "fake_hal.h"

int probe_start(void)
{
    static char code[4096];     /* a range to profile: the tree's nodes are of any address */
    memset(&fake_hal, 0, sizeof fake_hal);
    return profile_on(code, code + sizeof code, 16, 1000);
}

void probe_stop(void)
{
    profile_off();
}

/* Calls of the path from the first thread's context through fns[0..n) (any call sites). */
uint32_t probe_path_calls(const uintptr_t *fns, int n)
{
    const struct profile_stacks *t = &profile_stacks;
    uint32_t calls = 0;
    for (uint32_t i = 1; i < t->nodes_used; i++) {
        uint32_t at = i;
        int k = n;
        while (k > 0 && at != 0xFFFFFFFFu && t->nodes[at].self == fns[k - 1]) {
            at = t->nodes[at].parent;
            k--;
        }
        if (k == 0 && at == 0)
            calls += t->nodes[i].calls;
    }
    return calls;
}

uint32_t probe_depth(void)
{
    return profile_stacks.stacks[profile_stacks.thread].depth;
}

uint32_t probe_repaired(void)
{
    return profile_stacks.frames_repaired;
}
