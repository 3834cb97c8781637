/* The board API's console on the nRF51 UART, polled (its interrupt is left free). */
#include <cyg/hal/board.h>
#include "nrf51.h"

#define UART BOARD_NRF51_UART_BASE

void nrf51_console_init(void)
{
    NRF51_UART_PSELTXD(UART) = BOARD_NRF51_UART_PSELTXD;
    NRF51_UART_PSELRXD(UART) = BOARD_NRF51_UART_PSELRXD;
    NRF51_UART_BAUDRATE(UART) = NRF51_UART_BAUDRATE_115200;
    NRF51_UART_ENABLE(UART) = NRF51_UART_ENABLE_ENABLED;
    NRF51_UART_TASKS_STARTTX(UART) = NRF51_TASK_TRIGGER;
    NRF51_UART_TASKS_STARTRX(UART) = NRF51_TASK_TRIGGER;
}

/* One byte at a time: write TXD, wait for TXDRDY (the byte has gone), clear it. */
void board_console_putc(char c)
{
    NRF51_UART_TXD(UART) = (uint8_t)c;
    while (!NRF51_UART_EVENTS_TXDRDY(UART))
        ;
    NRF51_UART_EVENTS_TXDRDY(UART) = NRF51_EVENT_CLEAR;
}

int board_console_rx_ready(void)
{
    return NRF51_UART_EVENTS_RXDRDY(UART) != 0;
}

/* Clear RXDRDY before reading RXD: the read moves the next received byte in (if any),
 * which raises RXDRDY again. */
int board_console_getc(void)
{
    while (!board_console_rx_ready())
        ;
    NRF51_UART_EVENTS_RXDRDY(UART) = NRF51_EVENT_CLEAR;
    return (int)(NRF51_UART_RXD(UART) & 0xFFu);
}
