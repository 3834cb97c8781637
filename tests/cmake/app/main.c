/* Known call counts, at -O2: main 1 (counted from the startup: AUTOSTART profiles from
 * before main), step 300, scale 600 (from step), depth 1 + 20 (recursion); checksum, in a
 * library built without -pg, none. */
#include <stdio.h>
#include "work.h"

static unsigned total;

/* Inlined at -O2 (static, small): mcount never sees it. */
static void accumulate(unsigned v)
{
    total = total * 31u + v;
}

int main(void)
{
    for (unsigned i = 0; i < 300; i++)
        accumulate(step(i));
    accumulate(depth(20));
    for (unsigned i = 0; i < 5; i++)
        accumulate(checksum(i));
    printf("app: %u\n", total);
    return 0;
}
