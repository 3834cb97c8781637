/*
 * The console on QEMU virt's UART0, an NS16550A with byte-wide registers at
 * BOARD_UART_BASE: polled, 8N1, FIFOs on (QEMU ignores the baud rate divisor). No state of
 * its own: the hardware holds it.
 */
#include <stdint.h>

#include <cyg/hal/board.h>
#include "virt.h"

#define UART_REG(off) (*(volatile uint8_t *)(uintptr_t)(BOARD_UART_BASE + (off)))
#define UART_RBR UART_REG(0) /* receive buffer (read) */
#define UART_THR UART_REG(0) /* transmit holding (write) */
#define UART_IER UART_REG(1)
#define UART_FCR UART_REG(2)
#define UART_LCR UART_REG(3)
#define UART_LSR UART_REG(5)
#define UART_DLL UART_REG(0) /* divisor, with LCR.DLAB */
#define UART_DLM UART_REG(1)

#define UART_LCR_8N1 0x03
#define UART_LCR_DLAB 0x80
#define UART_FCR_ENABLE_CLEAR 0x07 /* FIFOs on, both cleared */
#define UART_LSR_DR 0x01           /* a byte has arrived */
#define UART_LSR_THRE 0x20         /* room to transmit */

void virt_console_init(void)
{
    UART_IER = 0;                  /* polled: the UART's interrupt is left to firmware */
    UART_LCR = UART_LCR_DLAB;
    UART_DLL = 1;                  /* 115200 baud from the 1.8432 MHz clock real chips have */
    UART_DLM = 0;
    UART_LCR = UART_LCR_8N1;
    UART_FCR = UART_FCR_ENABLE_CLEAR;
}

void board_console_putc(char c)
{
    while (!(UART_LSR & UART_LSR_THRE))
        ;
    UART_THR = (uint8_t)c;
}

int board_console_rx_ready(void)
{
    return UART_LSR & UART_LSR_DR;
}

int board_console_getc(void)
{
    while (!board_console_rx_ready())
        ;
    return UART_RBR;
}
