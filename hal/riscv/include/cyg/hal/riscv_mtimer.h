/*
 * The RISC-V machine timer (mtime / mtimecmp of a SiFive-style CLINT, hart 0) as the HAL
 * uses it: the board's clock (board_clock_ticks() is mtime), the profile timer, and a
 * periodic tick for an application or RTOS, which shares the one comparator with the
 * profile timer through this interface.
 *
 * The HAL owns mtimecmp: nothing else may write it. An application or RTOS that wants the
 * machine timer for its tick asks for it here instead:
 *
 *     static void rtos_tick(void) { ... }        // called every interval_ticks of mtime
 *     hal_mtimer_tick_start(BOARD_CLOCK_HZ / 1000, rtos_tick);   // 1 kHz
 *
 * The timer interrupt then serves both: it samples for the profile when the profile's
 * deadline has come and calls rtos_tick() when the tick's has, and programs mtimecmp for
 * whichever comes next. Both periods are exact (each deadline advances by its interval from
 * the last, not from when the interrupt ran); after a stall longer than a period (a
 * debugger halt) the missed periods are skipped, not replayed, so an RTOS that keeps time
 * reads mtime (board_clock_ticks()) rather than counting ticks. The tick runs in the timer
 * interrupt with interrupts disabled, at the profile timer's priority (0, the most urgent),
 * like the machine-timer tick of a typical RISC-V RTOS port.
 *
 * An RTOS whose port takes traps through its own vector (mtvec) calls hal_mtimer_isr(mepc)
 * from its machine-timer path, with interrupts disabled, instead of writing mtimecmp itself,
 * and keeps hal_riscv_irq_depth (<cyg/hal/riscv.h>) counting the handlers it runs.
 */
#ifndef CYGONCE_HAL_RISCV_MTIMER_H
#define CYGONCE_HAL_RISCV_MTIMER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Call tick() every interval_ticks ticks of mtime (BOARD_CLOCK_HZ), from the machine timer
 * interrupt, starting one interval from now; replaces an earlier tick.
 * @return 0, or -EINVAL for interval_ticks 0 or tick NULL
 */
int hal_mtimer_tick_start(uint32_t interval_ticks, void (*tick)(void));
/** Stop the tick: tick() is not entered after this returns. */
void hal_mtimer_tick_stop(void);

/**
 * The machine timer interrupt: a profile sample at interrupted_pc if the profile timer is
 * due, the tick if it is due, then mtimecmp for the next deadline. Interrupts disabled.
 */
void hal_mtimer_isr(uintptr_t interrupted_pc);

/**
 * A switch is about to be made in a trap taken with interrupts off (an RTOS's yield, an
 * ecall, inside a critical section): a profile sample that came due meanwhile is taken now,
 * at pc (the trap's mepc), so that it counts for the task that was running, not for the one
 * that runs next with interrupts on. Nothing if none is due; the tick, if due, stays due.
 * Interrupts disabled.
 */
void hal_mtimer_take_due_sample(uintptr_t pc);

/* For the profile timer (profile_timer.c): sample every interval_ticks, or stop (0). */
void hal_riscv_mtimer_profile(uint32_t interval_ticks);

#ifdef __cplusplus
}
#endif
#endif
