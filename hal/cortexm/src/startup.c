/*
 * Reset, vector table and the default exception handler of every Cortex-M board.
 *
 * The linker script names Reset_Handler as the entry point and as an undefined symbol, so
 * linking against libprofile.a pulls this object (and with it the vector table) in.
 * The board lists its interrupt handlers' names in BOARD_IRQ_VECTORS(X) (<cyg/hal/board.h>),
 * in NVIC order; every exception and IRQ vector is a weak alias of the default handler:
 * firmware takes an interrupt by defining a function of that name
 * (void TIMER1_IRQHandler(void), void SysTick_Handler(void), ...).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cyg/hal/board.h>
#include <cyg/hal/cortexm.h>

/* Linker script symbols (hal/cortexm/cortexm.ld). */
extern uint32_t __stack_top[];
extern uint32_t __data_start[], __data_end[], __data_load[];
extern char _sramfunc[], _eramfunc[], _siramfunc[];
extern uint32_t __bss_start[], __bss_end[];

extern int main(void);
extern void __libc_init_array(void);

void Reset_Handler(void) __attribute__((noreturn));
void cortexm_default_handler(void);

/*
 * newlib's __libc_init_array/__libc_fini_array call _init/_fini, which crti.o/crtn.o
 * would provide; -nostartfiles leaves them out, and the init_array sections do the work.
 */
void __attribute__((weak)) _init(void) {}
void __attribute__((weak)) _fini(void) {}

#define CORTEXM_WEAK_HANDLER(name) void name(void) __attribute__((weak, alias("cortexm_default_handler")));
#define CORTEXM_VECTOR(name) name,

CORTEXM_WEAK_HANDLER(NMI_Handler)
CORTEXM_WEAK_HANDLER(HardFault_Handler)
CORTEXM_WEAK_HANDLER(MemManage_Handler)
CORTEXM_WEAK_HANDLER(BusFault_Handler)
CORTEXM_WEAK_HANDLER(UsageFault_Handler)
CORTEXM_WEAK_HANDLER(SecureFault_Handler)
CORTEXM_WEAK_HANDLER(SVC_Handler)
CORTEXM_WEAK_HANDLER(DebugMon_Handler)
CORTEXM_WEAK_HANDLER(PendSV_Handler)
CORTEXM_WEAK_HANDLER(SysTick_Handler)
BOARD_IRQ_VECTORS(CORTEXM_WEAK_HANDLER)

typedef void (*cortexm_vector)(void);

/*
 * The vector table: read by the CPU at reset (from where the linker script puts it: the
 * board's reset vector address) and on every exception; VTOR is pointed at it in
 * Reset_Handler in case the image is placed elsewhere. Never written. (Entries a core does
 * not have, such as MemManage on v6-M, are never taken.)
 */
__attribute__((section(".vectors"), used)) const cortexm_vector __vectors[] = {
    (cortexm_vector)__stack_top,
    Reset_Handler,
    NMI_Handler,
    HardFault_Handler,
    MemManage_Handler,
    BusFault_Handler,
    UsageFault_Handler,
    SecureFault_Handler,
    0, 0, 0,
    SVC_Handler,
    DebugMon_Handler,
    0,
    PendSV_Handler,
    SysTick_Handler,
    BOARD_IRQ_VECTORS(CORTEXM_VECTOR)
};
_Static_assert(sizeof __vectors / sizeof __vectors[0] == 16 + BOARD_IRQ_COUNT,
               "BOARD_IRQ_VECTORS must name BOARD_IRQ_COUNT handlers");

void Reset_Handler(void)
{
#if defined(__ARM_FP)
    /* Hard-float firmware (Cortex-M4F, M7, M33): the FPU is off at reset, and the first FP
     * instruction would fault. Lazy stacking (FPCCR.ASPEN/LSPEN) stays as reset leaves it. */
    SCB_CPACR |= SCB_CPACR_CP10_CP11_FULL;
    cortexm_barrier();
#endif
    /*
     * Exception entry must keep the stack 8-aligned (AAPCS) for handlers written in C and
     * for -pg handlers calling mcount: STKALIGN resets to 1 on most Cortex-M3 revisions and
     * in QEMU, but r1p1 parts reset it to 0 (on v6-M and v8-M it is always 1).
     */
    SCB_CCR |= SCB_CCR_STKALIGN;
    /* (ARMv6-M has no VTOR; there the table is at 0 already.) */
    if ((uintptr_t)__vectors != 0)
        SCB_VTOR = (uint32_t)(uintptr_t)__vectors;

    /* C runtime: the code that runs from RAM (.ramfunc) and initialised data from their
     * load images, zeroed bss; before anything that could call such code or read data. */
    memcpy(_sramfunc, _siramfunc, (size_t)(_eramfunc - _sramfunc));
    memcpy(__data_start, __data_load, (size_t)((char *)__data_end - (char *)__data_start));
    memset(__bss_start, 0, (size_t)((char *)__bss_end - (char *)__bss_start));
    /*
     * The .ramfunc code was written as data; the first fetch of it must see the stores.
     * DSB: the stores have completed (left the write buffer) before what follows; ISB: no
     * instruction after this one was fetched before that (ARMv7-M/v8-M ARM, "ensuring the
     * visibility of updates to instructions"). No cache needs maintenance: caches are off
     * at reset (the Cortex-M7's CCR.IC/DC), and the other cores have none. (Firmware that
     * writes code into RAM with the Cortex-M7's caches on cleans the D-cache lines to the
     * point of unification and invalidates the I-cache before its DSB/ISB.)
     */
    cortexm_barrier();

    board_init();
    __asm__ volatile("cpsie i" : : : "memory");

    __libc_init_array(); /* constructors */
    exit(main());
}

static void console_puts(const char *s)
{
    while (*s)
        board_console_putc(*s++);
}

/*
 * Anything without a handler ends the run loudly rather than hanging a test until its
 * timeout: print the exception and the interrupted PC on the console and exit (semihosting)
 * with status 128 + exception number (HardFault: 131; IRQ n: 144 + n).
 */
void __attribute__((used, noreturn)) cortexm_unhandled_exception(const uint32_t *frame)
{
    static const char hex[] = "0123456789abcdef";
    uint32_t ipsr, pc = frame[6];
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    ipsr &= 0x1FFu;

    console_puts("\n*** unhandled exception ");
    if (ipsr >= 100)
        board_console_putc((char)('0' + ipsr / 100));
    board_console_putc((char)('0' + ipsr / 10 % 10));
    board_console_putc((char)('0' + ipsr % 10));
    console_puts(" at pc 0x");
    for (int shift = 28; shift >= 0; shift -= 4)
        board_console_putc(hex[(pc >> shift) & 0xFu]);
    board_console_putc('\n');
    _exit((int)(128 + (ipsr & 127)));
}

/* Find the exception frame (MSP or PSP, by EXC_RETURN bit 2) and report it. */
void __attribute__((naked)) cortexm_default_handler(void)
{
    __asm__ volatile(HAL_CORTEXM_EXC_FRAME_TO_R0
                     HAL_CORTEXM_TAIL_CALL("cortexm_unhandled_exception"));
}
