/* The board API's console on UART0, a PL011, polled (its interrupts are left to firmware). */
#include "vexpress_a9.h"

#define UART BOARD_UART0_BASE

void vexpress_console_init(void)
{
    PL011_CR(UART) = 0;
    PL011_IMSC(UART) = 0;
    /* 115200 baud from the motherboard's 24 MHz UART clock (QEMU ignores it): 13 + 1/64. */
    PL011_IBRD(UART) = 13;
    PL011_FBRD(UART) = 1;
    PL011_LCR_H(UART) = PL011_LCR_H_WLEN8 | PL011_LCR_H_FEN;
    PL011_CR(UART) = PL011_CR_UARTEN | PL011_CR_TXE | PL011_CR_RXE;
}

void board_console_putc(char c)
{
    while (PL011_FR(UART) & PL011_FR_TXFF)
        ;
    PL011_DR(UART) = (uint8_t)c;
}

int board_console_rx_ready(void)
{
    return !(PL011_FR(UART) & PL011_FR_RXFE);
}

int board_console_getc(void)
{
    while (!board_console_rx_ready())
        ;
    return (int)(PL011_DR(UART) & 0xFFu);
}
