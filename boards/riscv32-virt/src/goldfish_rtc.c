/*
 * The fast timer of QEMU virt (board_fast_timer_*()): the Goldfish RTC's alarm, PLIC source
 * 11. The RTC counts nanoseconds (from the host's date at start-up, then QEMU's virtual
 * clock with -rtc clock=vm, which run-qemu's qemu.conf passes: deterministic under -icount).
 * Its alarm is one-shot: board_fast_timer_ack() clears the interrupt and sets the next alarm
 * one interval after the last, so the period is exact; after a stall of more than an
 * interval (a debugger halt) the missed periods are skipped.
 *
 * The RTC's time is read low word first: that read latches the high word.
 */
#include <errno.h>
#include <stdint.h>

#include <cyg/hal/board.h>
#include <cyg/hal/profile_arch.h>
#include "virt.h"

#define RTC_REG(off) (*(volatile uint32_t *)(uintptr_t)(BOARD_RTC_BASE + (off)))
#define RTC_TIME_LOW RTC_REG(0x00)
#define RTC_TIME_HIGH RTC_REG(0x04)
#define RTC_ALARM_LOW RTC_REG(0x08) /* writing it sets the alarm */
#define RTC_ALARM_HIGH RTC_REG(0x0c)
#define RTC_IRQ_ENABLED RTC_REG(0x10)
#define RTC_CLEAR_ALARM RTC_REG(0x14)
#define RTC_CLEAR_INTERRUPT RTC_REG(0x1c)

/*
 * The running fast timer: the alarm's deadline and the period, in RTC nanoseconds (period 0:
 * stopped). Written by board_fast_timer_start/stop (interrupts masked) and by
 * board_fast_timer_ack, from the fast timer's own handler, which nothing else that touches
 * them can preempt.
 */
static uint64_t alarm_ns, period_ns;

static uint64_t rtc_now(void)
{
    uint32_t lo = RTC_TIME_LOW;
    return ((uint64_t)RTC_TIME_HIGH << 32) | lo;
}

static void rtc_alarm_at(uint64_t ns)
{
    RTC_ALARM_HIGH = (uint32_t)(ns >> 32);
    RTC_ALARM_LOW = (uint32_t)ns; /* sets it; a time already past interrupts at once */
}

int board_fast_timer_start(int interval_us, unsigned priority)
{
    if (interval_us <= 0)
        return -EINVAL;
    hal_profile_irq_state s = hal_profile_irq_save();
    RTC_CLEAR_ALARM = 1;
    RTC_CLEAR_INTERRUPT = 1;
    period_ns = (uint64_t)interval_us * 1000u;
    alarm_ns = rtc_now() + period_ns;
    RTC_IRQ_ENABLED = 1;
    board_irq_enable(BOARD_FAST_TIMER_IRQ, priority);
    rtc_alarm_at(alarm_ns);
    hal_profile_irq_restore(s);
    return interval_us;
}

void board_fast_timer_stop(void)
{
    hal_profile_irq_state s = hal_profile_irq_save();
    period_ns = 0;
    RTC_CLEAR_ALARM = 1;
    RTC_IRQ_ENABLED = 0;
    RTC_CLEAR_INTERRUPT = 1;
    board_irq_disable(BOARD_FAST_TIMER_IRQ); /* no entry to the handler after this */
    hal_profile_irq_restore(s);
}

void board_fast_timer_ack(void)
{
    RTC_CLEAR_INTERRUPT = 1;
    if (period_ns == 0)
        return;
    alarm_ns += period_ns;
    uint64_t now = rtc_now();
    if (alarm_ns <= now)
        alarm_ns = now + period_ns;
    rtc_alarm_at(alarm_ns);
}
