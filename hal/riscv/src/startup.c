/*
 * Reset (the C part, after vectors.S has set gp, sp, tp and mtvec) and the traps nobody
 * handles, for every RISC-V board in machine mode.
 *
 * Reset: copies .ramfunc (the code that runs from RAM) and .data (with .tdata, the TLS
 * block's initial image) from their load addresses, zeroes .bss (with .tbss), quiets the
 * machine timer and the interrupt controllers, calls board_init(), enables interrupts,
 * runs the constructors and exits with main's status.
 *
 * Traps: hal_riscv_trap() is what vectors.S calls for every trap but the machine timer's.
 * Interrupts go to irq.c's dispatch. An exception ends the run loudly rather than hanging a
 * test until its timeout: "*** unhandled exception N at pc 0x..." on the console and exit
 * (semihosting) with status 128 + N (N = mcause: 2 illegal instruction, 5 load access
 * fault, ...). One exception is not an error: the semihosting trap (an ebreak) when no
 * debugger or emulator answers it is stepped over, so that the call returns.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cyg/hal/board.h>
#include <cyg/hal/riscv.h>
#include "riscv_priv.h"

/* Linker script symbols (hal/riscv/riscv.ld). */
extern char __data_start[], __data_end[], __data_load[];
extern char __bss_start[], __bss_end[];
extern char _sramfunc[], _eramfunc[], _siramfunc[];

extern int main(void);
extern void __libc_init_array(void);

void hal_riscv_cstart(void) __attribute__((noreturn));
uintptr_t hal_riscv_trap(uintptr_t mcause, uintptr_t mepc);

void hal_riscv_cstart(void)
{
    /* The code that runs from RAM (.ramfunc) and initialised data from their load images,
     * zeroed bss; before anything that could call such code or read data. */
    memcpy(_sramfunc, _siramfunc, (size_t)(_eramfunc - _sramfunc));
    memcpy(__data_start, __data_load, (size_t)(__data_end - __data_start));
    memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
    /* A hart's instruction fetches need not see its own stores until it executes a
     * FENCE.I (Zifencei; part of I in ISA spec 2.2, which the boards assemble for): an
     * instruction cache or prefetch may hold what was at these addresses before. QEMU
     * keeps its translations coherent without it; hardware need not. (Only this hart runs:
     * others would need one of their own.) */
    __asm__ volatile("fence.i" : : : "memory");

    hal_riscv_mtimer_init();
    hal_riscv_irq_init();
    board_init();
    riscv_csr_set(mstatus, RISCV_MSTATUS_MIE);

    __libc_init_array(); /* constructors */
    exit(main());
}

static HAL_RISCV_TRAP_CODE void console_puts(const char *s)
{
    while (*s)
        board_console_putc(*s++);
}

static HAL_RISCV_TRAP_CODE void console_hex(uintptr_t v)
{
    static const char hex[] = "0123456789abcdef";
    console_puts("0x");
    for (int shift = (int)sizeof v * 8 - 4; shift >= 0; shift -= 4)
        board_console_putc(hex[(v >> shift) & 0xFu]);
}

static HAL_RISCV_TRAP_CODE void console_dec(unsigned v)
{
    char buf[12];
    int n = 0;
    do
        buf[n++] = (char)('0' + v % 10);
    while (v /= 10);
    while (n)
        board_console_putc(buf[--n]);
}

/*
 * Report a trap nobody handles and end the run: what (exception or interrupt N), where
 * (the interrupted pc), then exit with status. A trap while reporting one (a console that
 * faults) stops the hart instead of recursing.
 */
HAL_RISCV_TRAP_CODE void hal_riscv_unhandled(const char *what, unsigned n, uintptr_t pc, int status)
{
    /* Set on the first report, never cleared: the run is over. */
    static int reporting;
    if (reporting)
        for (;;)
            __asm__ volatile("wfi");
    reporting = 1;
    console_puts("\n*** unhandled ");
    console_puts(what);
    board_console_putc(' ');
    console_dec(n);
    console_puts(" at pc ");
    console_hex(pc);
    if (what[0] == 'e') {
        console_puts(" (mtval ");
        console_hex(riscv_csr_read(mtval));
        board_console_putc(')');
    }
    board_console_putc('\n');
    _exit(status);
}

HAL_RISCV_TRAP_CODE uintptr_t hal_riscv_trap(uintptr_t mcause, uintptr_t mepc)
{
    uintptr_t code = mcause & ~((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1));
    if (mcause != code) {                       /* the interrupt bit */
        hal_riscv_irq_dispatch((unsigned)code, mepc);
        return mepc;
    }
    if (code == RISCV_EXC_BREAKPOINT && mepc == (uintptr_t)hal_riscv_semihosting_ebreak)
        return mepc + 4;                        /* no semihosting host: the call returns */
    hal_riscv_unhandled("exception", (unsigned)code, mepc, (int)(128 + (code & 127)));
}
