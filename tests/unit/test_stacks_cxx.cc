/*
 * The stack-profiling mode with C++ exceptions (host, GCC): an exception thrown through
 * frames built with -finstrument-functions runs their exit hooks as it unwinds (GCC places
 * the exit call in a cleanup, as it does a destructor's), so the shadow stack follows it
 * and nothing needs repairing: the paths and calls are exact, the next call lands where it
 * belongs. Checked on the real core (target/src/stacks.c) with real unwinding; prints TAP.
 */
#include <cstdint>
#include <cstdio>

extern "C" {
int probe_start(void);
void probe_stop(void);
uint32_t probe_path_calls(const uintptr_t *fns, int n);
uint32_t probe_depth(void);
uint32_t probe_repaired(void);
}

static volatile int sink;
static int test_number;

static bool ok(bool cond, const char *what)
{
    std::printf("%s %d - %s\n", cond ? "ok" : "not ok", ++test_number, what);
    return cond;
}

struct Guard {                      // a destructor the unwinding runs too
    ~Guard() { sink++; }
};

__attribute__((noinline)) void thrower(int x)
{
    if (x)
        throw x;
    sink++;
}

__attribute__((noinline)) void middle(int x)
{
    Guard g;
    thrower(x);
    sink++;
}

__attribute__((noinline)) int catcher(int times)
{
    int caught = 0;
    for (int i = 0; i < times; i++) {
        try {
            middle(1);
        } catch (int) {
            caught++;
        }
    }
    return caught;
}

__attribute__((noinline)) void after()
{
    sink++;
}

#define FN(f) reinterpret_cast<uintptr_t>(&f)

int main()
{
    uintptr_t m = FN(main);
    if (!ok(probe_start() == 0, "profile_on"))
        return 1;
    uint32_t depth = probe_depth();
    int caught = catcher(10);
    ok(caught == 10, "10 exceptions thrown through middle and thrower, caught in catcher");
    ok(probe_depth() == depth, "the shadow stack is back at main's depth: the exits ran as "
                               "the exceptions unwound");
    ok(probe_repaired() == 0, "no frame needed repairing");
    after();
    const uintptr_t p1[] = {m, FN(catcher), FN(middle), FN(thrower)};
    const uintptr_t p2[] = {m, FN(after)};
    const uintptr_t p3[] = {m, FN(catcher), FN(middle), FN(thrower), FN(after)};
    ok(probe_path_calls(p1, 4) == 10, "main;catcher;middle;thrower: 10 calls");
    ok(probe_path_calls(p2, 2) == 1 && probe_path_calls(p3, 5) == 0,
       "the next call is main;after, not under the frames the exceptions left");
    probe_stop();
    std::printf("1..%d\n", test_number);
    return 0;
}
