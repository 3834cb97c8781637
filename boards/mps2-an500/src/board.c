/* mps2-an500's part of reset (hal/cortexm/src/startup.c calls it before main, after enabling
 * the FPU): the console and the clock. Everything else of the board is in
 * boards/drivers/cmsdk. */
#include <cyg/hal/board.h>
#include "cmsdk.h"

void board_init(void)
{
    cmsdk_console_init();
    cmsdk_clock_init();
}
