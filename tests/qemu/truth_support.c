/*
 * Compiled without -pg: where the truth oracle's gdb stops the workload (tests/qemu/truth.c),
 * alone on a page of their own. QEMU translates a page that holds a gdb breakpoint an
 * instruction at a time: the workload's code, the package's and the C library's must not
 * share it, or the run takes twenty times as long.
 */
#include <stdint.h>
#include <cyg/hal/board.h>

#define MARKER __attribute__((noinline, section(".text.truth_markers")))

/* Ticks of the fast timer, the RTOS tick here: the idle task waits for the next. (Its
 * handler is built without -pg, as a kernel's often is: the stack mode charges it to the
 * frame it interrupted.) */
volatile uint32_t ticks;

void BOARD_FAST_TIMER_HANDLER(void)
{
    board_fast_timer_ack();
    ticks++;
}
#define PAGE   4096

MARKER __attribute__((aligned(PAGE))) void truth_mark(void)
{
    __asm__ volatile("" : : : "memory");
}

MARKER void truth_begin(void)
{
    __asm__ volatile("" : : : "memory");
}

MARKER void truth_done(int phase)
{
    __asm__ volatile("" : : "r"(phase) : "memory");
}

MARKER void truth_trace(void)
{
    __asm__ volatile("" : : : "memory");
}

/* Ends the page: what the linker puts after the markers starts on the next one. */
MARKER __attribute__((aligned(PAGE))) void truth_markers_end(void)
{
}
