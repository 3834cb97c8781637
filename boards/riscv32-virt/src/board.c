/* QEMU virt's part of reset (hal/riscv/src/startup.c calls it before main, interrupts
 * disabled, the interrupt controllers already quiet): the console. The clock is mtime,
 * which runs from reset (hal/riscv/src/mtimer.c). */
#include <cyg/hal/board.h>
#include "virt.h"

void board_init(void)
{
    virt_console_init();
}
