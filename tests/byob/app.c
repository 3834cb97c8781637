/* The application (built with -pg): known call counts for the test. No call is a tail
 * call (a tail call's callee is counted for the caller's caller, in gprof everywhere). */
#include <cyg/profile/profile.h>

volatile unsigned sink;

__attribute__((noinline, noipa)) void leaf(unsigned i) { sink += i; }
__attribute__((noinline, noipa)) unsigned depth(unsigned n)
{
    if (n == 0)
        return 0;
    unsigned r = depth(n - 1);
    sink += r;
    return r + 1;
}
__attribute__((noinline, noipa)) void worker(void)
{
    for (unsigned i = 0; i < 3; i++)
        leaf(i);
    sink++;
}
__attribute__((noinline)) void app_done(void) { __asm__ volatile("" ::: "memory"); }

int main(void)
{
    extern char _stext[], _etext[];
    if (profile_on(_stext, _etext, 16, 100) != 0)
        return 1;
    for (unsigned i = 0; i < 400; i++) {
        worker();          /* main -> worker 400, worker -> leaf 1200 */
        leaf(i);           /* main -> leaf 400 */
    }
    sink += depth(50);     /* main -> depth 1, depth -> depth 50 */
    app_done();
    return 0;
}
