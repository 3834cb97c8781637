/*
 * A firmware that changes what it does while a live view watches it
 * (tests/qemu/test_watch.py): for its first PHASE_A_US of board time it runs alpha(),
 * then beta() for ever, each phase named as a task of its own (profile_task_switch). Both at -O2, in a file of their own as a library's would be
 * (watchprog_lib.c), each call one block of work. The board clock stands still while gdb
 * has the target halted, so each phase's length is the target's own.
 */
#include <cyg/profile/profile.h>
#include <cyg/hal/board.h>
#include <stdint.h>
#include <stdio.h>
#include "calls.h"
#include "watchprog.h"

#define PHASE_A_US 40000000u    /* 40 s of board time: several refreshes of the view */

extern char _stext[], _etext[];
static volatile uint32_t sink;

int main(void)
{
    if (profile_on(_stext, _etext, 16, 997) != 0)
        firmware_failed("profile_on");
    profile_task_switch(1, "task-alpha");     /* (as an RTOS's switch hook would) */
    printf("watchprog: phase alpha\n");
    uint64_t start = board_clock_us();
    while (board_clock_us() - start < PHASE_A_US)
        sink += alpha(sink);
    profile_task_switch(2, "task-beta");
    printf("watchprog: phase beta\n");
    for (;;)
        sink += beta(sink);
}
