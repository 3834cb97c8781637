/*
 * The C side of reset and of the exception model of every ARMv7-A board: the C runtime
 * start, the table of interrupt handlers the IRQ entry dispatches through, and the reports
 * of exceptions and interrupts nobody handles. (The vector table, the mode stacks and the
 * IRQ entry: vectors.S.)
 *
 * The linker script names Reset_Handler as the entry point and as an undefined symbol, so
 * linking against libprofile.a pulls vectors.S's object in, and with its reference to
 * armv7a_irq_handlers, this one. The board lists its interrupt handlers' names in
 * BOARD_IRQ_VECTORS(X) (<cyg/hal/board.h>), in GIC interrupt ID order; each is a weak alias
 * of the default handler: firmware takes an interrupt by defining a function of that name
 * (void TIMER23_IRQHandler(void), ...). A handler is called in SVC mode with IRQs enabled
 * (only more urgent interrupts come in) and with the GIC's IAR value as its argument, which
 * a void (void) handler ignores.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cyg/hal/armv7a.h>
#include <cyg/hal/board.h>

/* Linker script symbols (hal/armv7a/armv7a.ld). */
extern uint32_t __data_start[], __data_end[], __data_load[];
extern char _sramfunc[], _eramfunc[], _siramfunc[];
extern uint32_t __bss_start[], __bss_end[];

extern int main(void);
extern void __libc_init_array(void);

void armv7a_start(void) __attribute__((noreturn));
void armv7a_unhandled_exception(unsigned number, uint32_t pc) __attribute__((noreturn));
void armv7a_default_irq_handler(void);

/*
 * newlib's __libc_init_array/__libc_fini_array call _init/_fini, which crti.o/crtn.o
 * would provide; -nostartfiles leaves them out, and the init_array sections do the work.
 */
/* The handlers the IRQ entry is inside (vectors.S counts them, IRQs masked): the
 * stack-profiling mode's level (<cyg/hal/profile_arch.h>). */
volatile unsigned hal_armv7a_irq_depth;
/* An RTOS's switch on the IRQ exit path (<cyg/hal/armv7a.h>): the RTOS's to set; the IRQ
 * entry clears the request word when it takes it. */
volatile uint32_t *volatile hal_armv7a_switch_request;
void (*volatile hal_armv7a_switch)(void);

void __attribute__((weak)) _init(void) {}
void __attribute__((weak)) _fini(void) {}

#define ARMV7A_WEAK_HANDLER(name) void name(void) __attribute__((weak, alias("armv7a_default_irq_handler")));
#define ARMV7A_VECTOR(name) name,

BOARD_IRQ_VECTORS(ARMV7A_WEAK_HANDLER)

typedef void (*armv7a_irq_handler)(void);

/* The handler of every interrupt ID, read by armv7a_irq_entry (vectors.S). Never written. */
const armv7a_irq_handler armv7a_irq_handlers[] = {BOARD_IRQ_VECTORS(ARMV7A_VECTOR)};
_Static_assert(sizeof armv7a_irq_handlers / sizeof armv7a_irq_handlers[0] == BOARD_IRQ_COUNT,
               "BOARD_IRQ_VECTORS must name BOARD_IRQ_COUNT handlers");
_Static_assert(BOARD_IRQ_COUNT % 32 == 0 && BOARD_IRQ_COUNT <= 1020,
               "the GIC has 32 * N interrupt IDs (at most 1020)");
_Static_assert(BOARD_PROFILE_TIMER_IRQ >= GIC_SGI_COUNT && BOARD_PROFILE_TIMER_IRQ < BOARD_IRQ_COUNT,
               "the profile timer is a peripheral interrupt (its IAR value is its ID)");

/*
 * Code written as data in [start, end) made visible to instruction fetch: the ARMv7-A
 * sequence for new or changed instructions (ARM ARM, "ordering of cache and branch
 * predictor maintenance operations"): clean the data cache lines to the point of
 * unification (DCCMVAU) so that the instruction side can see them, DSB so that the cleans
 * have completed, invalidate the instruction cache (ICIALLU; on this CPU only: nothing runs
 * on the others) and the branch predictors (BPIALL: they hold targets of what was at these
 * addresses before), DSB so that those have completed, ISB so that nothing already fetched
 * is executed from before. Reset leaves the MMU and the caches off (data accesses are then
 * uncached, and the cleans do nothing), and QEMU keeps its translated code coherent with
 * memory itself; a Cortex-A9 with its caches on needs all of it, and so does firmware
 * whose boot code turns them on before this runs.
 */
static void armv7a_sync_icache(const char *start, const char *end)
{
    uint32_t ctr;
    __asm__ volatile("mrc p15, 0, %0, c0, c0, 1" : "=r"(ctr)); /* CTR */
    uintptr_t line = (uintptr_t)4 << ((ctr >> 16) & 0xFu);     /* DminLine: log2(words) */
    for (uintptr_t a = (uintptr_t)start & ~(line - 1); a < (uintptr_t)end; a += line)
        __asm__ volatile("mcr p15, 0, %0, c7, c11, 1" : : "r"(a) : "memory"); /* DCCMVAU */
    __asm__ volatile("dsb\n\t"
                     "mcr p15, 0, %0, c7, c5, 0\n\t" /* ICIALLU */
                     "mcr p15, 0, %0, c7, c5, 6\n\t" /* BPIALL */
                     "dsb\n\t"
                     "isb"
                     : : "r"(0) : "memory");
}

/* Entered from Reset_Handler in SYS mode, on the main stack, interrupts masked. */
void armv7a_start(void)
{
    /* C runtime: the code that runs from RAM (.ramfunc) and initialised data from their
     * load images, zeroed bss; before anything that could call such code or read data. */
    memcpy(_sramfunc, _siramfunc, (size_t)(_eramfunc - _sramfunc));
    memcpy(__data_start, __data_load, (size_t)((char *)__data_end - (char *)__data_start));
    memset(__bss_start, 0, (size_t)((char *)__bss_end - (char *)__bss_start));
    armv7a_sync_icache(_sramfunc, _eramfunc);

    armv7a_gic_init();
    board_init();
    __asm__ volatile("cpsie if" : : : "memory");

    __libc_init_array(); /* constructors */
    exit(main());
}

static void console_puts(const char *s)
{
    while (*s)
        board_console_putc(*s++);
}

static void console_dec(unsigned n)
{
    char digits[10];
    int i = 0;
    do
        digits[i++] = (char)('0' + n % 10);
    while ((n /= 10) != 0);
    while (i > 0)
        board_console_putc(digits[--i]);
}

/*
 * Anything without a handler ends the run loudly rather than hanging a test until its
 * timeout: print what it was and where on the console and exit (semihosting) with
 * 128 + number (vectors.S: 1 undefined instruction ... 7 FIQ; an interrupt ID n without a
 * handler: 16 + n, as a Cortex-M board numbers IRQ n).
 */
void armv7a_unhandled_exception(unsigned number, uint32_t pc)
{
    static const char hex[] = "0123456789abcdef";
    console_puts("\n*** unhandled exception ");
    console_dec(number);
    console_puts(" at pc 0x");
    for (int shift = 28; shift >= 0; shift -= 4)
        board_console_putc(hex[(pc >> shift) & 0xFu]);
    board_console_putc('\n');
    _exit((int)(128 + (number & 127)));
}

/*
 * The handler of every interrupt ID firmware has not taken. armv7a_irq_entry calls it in
 * SVC mode with the IAR value in r0; the interrupted PC is the last word of the entry's
 * frame on the IRQ mode's stack (vectors.S): sp_irq + 28.
 */
void __attribute__((naked)) armv7a_default_irq_handler(void)
{
    __asm__ volatile("cpsid i\n\t"
                     "ubfx  r0, r0, #0, #10\n\t"
                     "add   r0, r0, #16\n\t"
                     "cps   #0x12\n\t" /* IRQ mode: its sp */
                     "ldr   r1, [sp, #28]\n\t"
                     "cps   #0x13\n\t"
                     "b     armv7a_unhandled_exception\n\t");
}
