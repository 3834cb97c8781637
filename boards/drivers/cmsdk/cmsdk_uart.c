/* The board API's console on a CMSDK APB UART, polled (its interrupts are left free). */
#include <cyg/hal/board.h>
#include "cmsdk.h"

#define UART BOARD_CMSDK_UART_BASE
#define CONSOLE_BAUD 115200u

void cmsdk_console_init(void)
{
    /* QEMU ignores the divider but refuses to transmit with a nonsensical one (< 16). */
    CMSDK_UART_BAUDDIV(UART) = BOARD_CMSDK_PCLK_HZ / CONSOLE_BAUD;
    CMSDK_UART_CTRL(UART) = CMSDK_UART_CTRL_TXEN | CMSDK_UART_CTRL_RXEN;
}

void board_console_putc(char c)
{
    while (CMSDK_UART_STATE(UART) & CMSDK_UART_STATE_TXFULL)
        ;
    CMSDK_UART_DATA(UART) = (uint8_t)c;
}

int board_console_rx_ready(void)
{
    return (CMSDK_UART_STATE(UART) & CMSDK_UART_STATE_RXFULL) != 0;
}

int board_console_getc(void)
{
    while (!board_console_rx_ready())
        ;
    return (int)(CMSDK_UART_DATA(UART) & 0xFFu);
}
