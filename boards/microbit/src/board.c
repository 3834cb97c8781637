/* The micro:bit's part of reset (hal/cortexm/src/startup.c calls it before main): the
 * console and the clock. */
#include <cyg/hal/board.h>
#include "nrf51.h"

void board_init(void)
{
    nrf51_console_init();
    nrf51_clock_init();
}
