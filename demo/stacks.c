/*
 * make demo-stacks: gprof's call graph guesses, the stack-profiling mode measures. work()
 * is called 1000 times from light() with n = 1 and 1000 times from heavy() with n = 100:
 * gprof splits work's time between them by call counts (50/50); the calling-context tree
 * (gmon.stacks) shows nearly all of it under heavy.
 */
#include <cyg/profile/profile.h>
#include <stdint.h>
#include <stdio.h>

#define KEEP __attribute__((noinline, noipa))

volatile uint32_t sink;

KEEP uint32_t work(uint32_t n)
{
    uint32_t x = 0;
    for (uint32_t i = 0; i < n; i++)
        x += (i * i) ^ sink;
    sink += x;
    return x;
}

KEEP void light(void)
{
    for (int i = 0; i < 1000; i++)
        work(1);
}

KEEP void heavy(void)
{
    for (int i = 0; i < 1000; i++)
        work(100);
}

KEEP void demo_done(void) { __asm__ volatile("" ::: "memory"); }

int main(void)
{
    extern char _stext[], _etext[];
    int rc = profile_on(_stext, _etext, 16, 20);
    printf("demo: profile_on %d\n", rc);
    light();
    heavy();
    printf("demo: light and heavy done\n");
    demo_done();
    return 0;
}
