/*
 * An application that knows nothing of profiling (no profile_on, no header), compiled with
 * -pg and linked with PROFILE_AUTOSTART: gmon.out appears in QEMU's current directory at
 * exit, with main's own call (from the startup code), a constructor's and an atexit
 * handler's calls in it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define KEEP __attribute__((noinline, noipa))
#define N_MAIN   500
#define N_CTOR    20
#define N_ATEXIT  30

volatile uint32_t sink;

/* Long enough for samples at the default interval (1 ms): about 60 ms of board time. */
KEEP void from_main(int x)
{
    for (int i = 0; i < 1000; i++)
        sink += (uint32_t)(x + i);
}
KEEP void from_ctor(int x) { sink ^= (uint32_t)x; }
KEEP void from_atexit(int x) { sink -= (uint32_t)x; }

KEEP void app_atexit(void)
{
    for (int i = 0; i < N_ATEXIT; i++)
        from_atexit(i);
}

__attribute__((constructor)) KEEP void app_ctor(void)
{
    for (int i = 0; i < N_CTOR; i++)
        from_ctor(i);
    atexit(app_atexit);
}

int main(void)
{
    for (int i = 0; i < N_MAIN; i++)
        from_main(i);
    printf("app: done\n");
    return 0;
}
