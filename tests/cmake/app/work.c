/* Built with -pg. step and depth are called from main.c, another file: -O2 cannot inline
 * them there. scale is kept out of line here, or step would absorb it. */
#include "work.h"

volatile unsigned sink;

__attribute__((noinline)) static unsigned scale(unsigned x)
{
    sink = x;
    return x * 3u + 1u;
}

/* (the loop: time for the profile timer to sample) */
unsigned step(unsigned i)
{
    for (unsigned k = 0; k < 2000; k++)
        sink = k;
    return scale(i) ^ scale(i >> 1);
}

/* Not a tail call (the store after it). Kept out of line: -O2 would inline a few levels of
 * the recursion into itself, and count fewer calls. */
__attribute__((noinline)) unsigned depth(unsigned n)
{
    if (n == 0)
        return 0;
    unsigned r = depth(n - 1);
    sink = r;
    return r + 1;
}
