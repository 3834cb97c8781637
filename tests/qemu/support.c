/* Compiled without -pg: places where the gdb-driven tests stop the firmware. */
#include <stdio.h>
#include <stdlib.h>
#include "calls.h"

__attribute__((noinline)) void phase_done(int phase)
{
    __asm__ volatile("" : : "r"(phase) : "memory");
}

__attribute__((noinline)) void firmware_failed(const char *what)
{
    printf("FIRMWARE FAILED: %s\n", what);
    exit(1);
}
