/* vexpress-a9's part of reset (hal/armv7a/src/startup.c calls it before main, interrupts
 * masked): the console and the clock. */
#include "vexpress_a9.h"

void board_init(void)
{
    vexpress_console_init();
    vexpress_clock_init();
}
