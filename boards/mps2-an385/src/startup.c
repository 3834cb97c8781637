/*
 * Reset, vector table and the default exception handler of the mps2-an385 board.
 *
 * The linker script names Reset_Handler as the entry point and as an undefined symbol, so
 * linking against libprofile.a pulls this object (and with it the vector table) in.
 * Every exception and IRQ vector is a weak alias of an385_default_handler: firmware takes an
 * interrupt by defining a function of that name (void TIMER1_IRQHandler(void), ...).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cyg/hal/board.h>
#include "an385_regs.h"

/* Linker script symbols (mps2-an385.ld). */
extern uint32_t __stack_top[];
extern uint32_t __data_start[], __data_end[], __data_load[];
extern uint32_t __bss_start[], __bss_end[];

extern int main(void);
extern void __libc_init_array(void);

void Reset_Handler(void) __attribute__((noreturn));
void an385_default_handler(void);

/*
 * newlib's __libc_init_array/__libc_fini_array call _init/_fini, which crti.o/crtn.o
 * would provide; -nostartfiles leaves them out, and the init_array sections do the work.
 */
void __attribute__((weak)) _init(void) {}
void __attribute__((weak)) _fini(void) {}

#define AN385_WEAK_HANDLER(name) void name(void) __attribute__((weak, alias("an385_default_handler")))

AN385_WEAK_HANDLER(NMI_Handler);
AN385_WEAK_HANDLER(HardFault_Handler);
AN385_WEAK_HANDLER(MemManage_Handler);
AN385_WEAK_HANDLER(BusFault_Handler);
AN385_WEAK_HANDLER(UsageFault_Handler);
AN385_WEAK_HANDLER(SVC_Handler);
AN385_WEAK_HANDLER(DebugMon_Handler);
AN385_WEAK_HANDLER(PendSV_Handler);
AN385_WEAK_HANDLER(SysTick_Handler);

AN385_WEAK_HANDLER(UARTRX0_IRQHandler);
AN385_WEAK_HANDLER(UARTTX0_IRQHandler);
AN385_WEAK_HANDLER(UARTRX1_IRQHandler);
AN385_WEAK_HANDLER(UARTTX1_IRQHandler);
AN385_WEAK_HANDLER(UARTRX2_IRQHandler);
AN385_WEAK_HANDLER(UARTTX2_IRQHandler);
AN385_WEAK_HANDLER(PORT0_ALL_IRQHandler);
AN385_WEAK_HANDLER(PORT1_ALL_IRQHandler);
AN385_WEAK_HANDLER(TIMER0_IRQHandler);    /* profile_timer.c defines it */
AN385_WEAK_HANDLER(TIMER1_IRQHandler);
AN385_WEAK_HANDLER(DUALTIMER_IRQHandler); /* clock.c defines it */
AN385_WEAK_HANDLER(SPI_IRQHandler);
AN385_WEAK_HANDLER(UARTOVF_IRQHandler);
AN385_WEAK_HANDLER(ETHERNET_IRQHandler);
AN385_WEAK_HANDLER(I2S_IRQHandler);
AN385_WEAK_HANDLER(TSC_IRQHandler);
AN385_WEAK_HANDLER(PORT2_ALL_IRQHandler);
AN385_WEAK_HANDLER(PORT3_ALL_IRQHandler);
AN385_WEAK_HANDLER(UARTRX3_IRQHandler);
AN385_WEAK_HANDLER(UARTTX3_IRQHandler);
AN385_WEAK_HANDLER(UARTRX4_IRQHandler);
AN385_WEAK_HANDLER(UARTTX4_IRQHandler);
AN385_WEAK_HANDLER(ADCSPI_IRQHandler);
AN385_WEAK_HANDLER(SHIELDSPI_IRQHandler);
AN385_WEAK_HANDLER(PORT0_0_IRQHandler);
AN385_WEAK_HANDLER(PORT0_1_IRQHandler);
AN385_WEAK_HANDLER(PORT0_2_IRQHandler);
AN385_WEAK_HANDLER(PORT0_3_IRQHandler);
AN385_WEAK_HANDLER(PORT0_4_IRQHandler);
AN385_WEAK_HANDLER(PORT0_5_IRQHandler);
AN385_WEAK_HANDLER(PORT0_6_IRQHandler);
AN385_WEAK_HANDLER(PORT0_7_IRQHandler);

typedef void (*an385_vector)(void);

/*
 * The vector table: read by the CPU at reset (from address 0, where the linker script puts
 * it) and on every exception; VTOR is pointed at it again in Reset_Handler in case the
 * image is placed elsewhere. Never written.
 */
__attribute__((section(".vectors"), used)) const an385_vector __vectors[16 + BOARD_IRQ_COUNT] = {
    (an385_vector)__stack_top,
    Reset_Handler,
    NMI_Handler,
    HardFault_Handler,
    MemManage_Handler,
    BusFault_Handler,
    UsageFault_Handler,
    0, 0, 0, 0,
    SVC_Handler,
    DebugMon_Handler,
    0,
    PendSV_Handler,
    SysTick_Handler,
    /* external interrupts 0..31 */
    UARTRX0_IRQHandler,
    UARTTX0_IRQHandler,
    UARTRX1_IRQHandler,
    UARTTX1_IRQHandler,
    UARTRX2_IRQHandler,
    UARTTX2_IRQHandler,
    PORT0_ALL_IRQHandler,
    PORT1_ALL_IRQHandler,
    TIMER0_IRQHandler,
    TIMER1_IRQHandler,
    DUALTIMER_IRQHandler,
    SPI_IRQHandler,
    UARTOVF_IRQHandler,
    ETHERNET_IRQHandler,
    I2S_IRQHandler,
    TSC_IRQHandler,
    PORT2_ALL_IRQHandler,
    PORT3_ALL_IRQHandler,
    UARTRX3_IRQHandler,
    UARTTX3_IRQHandler,
    UARTRX4_IRQHandler,
    UARTTX4_IRQHandler,
    ADCSPI_IRQHandler,
    SHIELDSPI_IRQHandler,
    PORT0_0_IRQHandler,
    PORT0_1_IRQHandler,
    PORT0_2_IRQHandler,
    PORT0_3_IRQHandler,
    PORT0_4_IRQHandler,
    PORT0_5_IRQHandler,
    PORT0_6_IRQHandler,
    PORT0_7_IRQHandler,
};

void Reset_Handler(void)
{
    /*
     * Exception entry must keep the stack 8-aligned (AAPCS) for handlers written in C and
     * for -pg handlers calling mcount: STKALIGN resets to 1 on most Cortex-M3 revisions and
     * in QEMU, but r1p1 parts reset it to 0.
     */
    SCB_CCR |= SCB_CCR_STKALIGN;
    SCB_VTOR = (uint32_t)__vectors;

    /* C runtime: initialised data from its load image, zeroed bss. */
    memcpy(__data_start, __data_load, (size_t)((char *)__data_end - (char *)__data_start));
    memset(__bss_start, 0, (size_t)((char *)__bss_end - (char *)__bss_start));

    an385_console_init();
    an385_clock_init();
    __asm__ volatile("cpsie i" : : : "memory");

    __libc_init_array(); /* constructors */
    exit(main());
}

/*
 * Anything without a handler ends the run loudly rather than hanging a test until its
 * timeout: print the exception and the interrupted PC on the console and exit (semihosting)
 * with status 128 + exception number (HardFault: 131; IRQ n: 144 + n).
 */
static void __attribute__((used, noreturn)) an385_unhandled_exception(const uint32_t *frame)
{
    static const char hex[] = "0123456789abcdef";
    uint32_t ipsr, pc = frame[6];
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    ipsr &= 0x1FFu;

    const char *msg = "\n*** unhandled exception ";
    while (*msg)
        board_console_putc(*msg++);
    board_console_putc((char)('0' + ipsr / 10 % 10));
    board_console_putc((char)('0' + ipsr % 10));
    msg = " at pc 0x";
    while (*msg)
        board_console_putc(*msg++);
    for (int shift = 28; shift >= 0; shift -= 4)
        board_console_putc(hex[(pc >> shift) & 0xFu]);
    board_console_putc('\n');
    _exit((int)(128 + (ipsr & 127)));
}

/* Find the exception frame (MSP or PSP, by EXC_RETURN bit 2) and report it. */
void __attribute__((naked)) an385_default_handler(void)
{
    __asm__ volatile("tst   lr, #4\n\t"
                     "ite   eq\n\t"
                     "mrseq r0, msp\n\t"
                     "mrsne r0, psp\n\t"
                     "b     an385_unhandled_exception\n\t");
}
