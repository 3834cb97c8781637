/* mps2-an505's part of reset (hal/cortexm/src/startup.c calls it before main, after enabling
 * the FPU): the console and the clock. Everything else of the board is in
 * boards/drivers/cmsdk. The security controllers need no setting up: at reset everything
 * is secure, and so is the firmware. */
#include <cyg/hal/board.h>
#include "cmsdk.h"

void board_init(void)
{
    cmsdk_console_init();
    cmsdk_clock_init();
}
