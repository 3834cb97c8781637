/*
 * The machine timer (see <cyg/hal/riscv_mtimer.h>): the board clock, and the one comparator
 * multiplexed between the profile timer and an application's or RTOS's tick.
 *
 * Registers of a SiFive-style CLINT at BOARD_CLINT_BASE, hart 0: mtimecmp at +0x4000, mtime
 * at +0xBFF8, both 64 bits, counting at BOARD_CLOCK_HZ. On RV32 they are read and written as
 * two words (the privileged specification's sequences).
 */
#include <errno.h>
#include <stdint.h>

#include <cyg/hal/board.h>
#include <cyg/hal/profile_arch.h>
#include <cyg/hal/riscv.h>
#include <cyg/hal/riscv_mtimer.h>
#include <cyg/profile/dither.h>
#include <cyg/profile/hal.h>
#include "riscv_priv.h"

#define MTIMECMP_ADDR (BOARD_CLINT_BASE + 0x4000u)
#define MTIME_ADDR (BOARD_CLINT_BASE + 0xBFF8u)

_Static_assert(BOARD_CLOCK_HZ % 1000000u == 0, "the board clock wants whole ticks per microsecond");

/* The shortest dithered period of the profile channel: 10 us, the shortest interval. */
#define PROFILE_MIN_PERIOD_TICKS (10u * (BOARD_CLOCK_HZ / 1000000u))

/* A periodic deadline on mtime; interval 0 = off. */
struct mtimer_channel {
    uint64_t deadline;
    uint32_t interval;
};

/*
 * The two users of the comparator and the tick's function. Written by
 * hal_riscv_mtimer_profile(), hal_mtimer_tick_start/stop() with interrupts masked and by
 * hal_mtimer_isr() (interrupts disabled); read by the same.
 */
static struct mtimer_channel profile_channel, tick_channel;
static void (*tick_function)(void);
/* The profile channel's periods (<cyg/profile/dither.h>): each deadline is the last one
 * plus the next dithered period, so the mean period is exactly the interval. Owned with the
 * channels. */
static struct profile_dither profile_dither;

static inline __attribute__((always_inline)) uint64_t mtime_read(void)
{
#if __riscv_xlen == 64
    return *(volatile uint64_t *)(uintptr_t)MTIME_ADDR;
#else
    uint32_t hi, lo;
    do {
        hi = RISCV_REG32(MTIME_ADDR + 4);
        lo = RISCV_REG32(MTIME_ADDR);
    } while (hi != RISCV_REG32(MTIME_ADDR + 4));
    return ((uint64_t)hi << 32) | lo;
#endif
}

static inline __attribute__((always_inline)) void mtimecmp_write(uint64_t value)
{
#if __riscv_xlen == 64
    *(volatile uint64_t *)(uintptr_t)MTIMECMP_ADDR = value;
#else
    /* Never smaller than both the old and the new value on the way. */
    RISCV_REG32(MTIMECMP_ADDR) = 0xFFFFFFFFu;
    RISCV_REG32(MTIMECMP_ADDR + 4) = (uint32_t)(value >> 32);
    RISCV_REG32(MTIMECMP_ADDR) = (uint32_t)value;
#endif
}

/*
 * With neither channel running, the comparator is still armed, IDLE_REACH_TICKS ahead (one
 * second), not left at "never": QEMU under -icount with sleep=off moves its clock, while a
 * debugger holds the CPU, to the next armed deadline, and with none it cannot run the CPU
 * again (a stop at main, before any timer starts, hung the target). The interrupt that
 * comes then finds nothing due and arms the next (mtimer_isr_shared): one a second.
 */
#define IDLE_REACH_TICKS ((uint64_t)BOARD_CLOCK_HZ)

/* mtimecmp for the nearer deadline, or IDLE_REACH_TICKS on with none. */
static inline __attribute__((always_inline)) void mtimer_program(void)
{
    uint64_t next;
    if (profile_channel.interval) {
        next = profile_channel.deadline;
        if (tick_channel.interval && tick_channel.deadline < next)
            next = tick_channel.deadline;
    } else if (tick_channel.interval) {
        next = tick_channel.deadline;
    } else {
        next = mtime_read() + IDLE_REACH_TICKS;
    }
    mtimecmp_write(next);
}

/* The channel's next deadline after one that has come: one interval on, or one interval
 * from now if the timer fell more than a period behind. */
static inline __attribute__((always_inline)) uint64_t channel_next(const struct mtimer_channel *c,
                                                                   uint64_t now)
{
    uint64_t next = c->deadline + c->interval;
    return next > now ? next : now + c->interval;
}

static void channel_start(struct mtimer_channel *c, uint32_t interval)
{
    c->interval = interval;
    c->deadline = mtime_read() + interval;
}

/* The profile channel's next deadline after one that has come: a dithered period on, or,
 * if the interrupt was held back past that too, the first slot of the grid still to come. */
static inline __attribute__((always_inline)) uint64_t profile_next(uint64_t now)
{
    uint64_t next = profile_channel.deadline + profile_dither_next(&profile_dither);
    if (__builtin_expect(next <= now, 0))
        next += profile_dither_catch_up(&profile_dither, (uint32_t)(now - next));
    return next;
}

/* At reset: mtimecmp's reset value is unspecified (QEMU's is 0, due at once). */
void hal_riscv_mtimer_init(void)
{
    mtimer_program();
}

/* Both channels, or a stray interrupt: whatever is due, then the nearer deadline. */
static HAL_RISCV_TRAP_CODE __attribute__((noinline)) void mtimer_isr_shared(uintptr_t interrupted_pc)
{
    uint64_t now = mtime_read();
    int sample = profile_channel.interval && now >= profile_channel.deadline;
    if (sample)
        profile_channel.deadline = profile_next(now);
    if (tick_channel.interval && now >= tick_channel.deadline) {
        tick_channel.deadline = channel_next(&tick_channel, now);
        mtimer_program();
        hal_riscv_irq_depth++;
        tick_function();
        hal_riscv_irq_depth--;
    } else {
        mtimer_program();
    }
    if (sample)
        __profile_hit(interrupted_pc);
}

/*
 * The common case, the profile timer alone, takes the short way: its deadline has come
 * (nothing else programs the comparator), so the next is one interval on, and the sample
 * is a tail call.
 */
HAL_RISCV_TRAP_CODE void hal_mtimer_isr(uintptr_t interrupted_pc)
{
    if (__builtin_expect(tick_channel.interval != 0 || profile_channel.interval == 0, 0)) {
        mtimer_isr_shared(interrupted_pc);
        return;
    }
    uint64_t next = profile_next(mtime_read());
    profile_channel.deadline = next;
    mtimecmp_write(next);
    __profile_hit(interrupted_pc);
}

HAL_RISCV_TRAP_CODE void hal_mtimer_take_due_sample(uintptr_t pc)
{
    if (!profile_channel.interval)
        return;
    uint64_t now = mtime_read();
    if (now < profile_channel.deadline)
        return;
    profile_channel.deadline = profile_next(now);
    mtimer_program();
    __profile_hit(pc);
}

void hal_riscv_mtimer_profile(uint32_t interval_ticks)
{
    hal_profile_irq_state s = hal_profile_irq_save();
    channel_start(&profile_channel, interval_ticks);
    if (interval_ticks)
        profile_dither_start(&profile_dither, interval_ticks, PROFILE_MIN_PERIOD_TICKS);
    mtimer_program();
    hal_profile_irq_restore(s);
}

int hal_mtimer_tick_start(uint32_t interval_ticks, void (*tick)(void))
{
    if (interval_ticks == 0 || tick == 0)
        return -EINVAL;
    hal_profile_irq_state s = hal_profile_irq_save();
    tick_function = tick;
    channel_start(&tick_channel, interval_ticks);
    mtimer_program();
    hal_profile_irq_restore(s);
    return 0;
}

void hal_mtimer_tick_stop(void)
{
    hal_profile_irq_state s = hal_profile_irq_save();
    tick_channel.interval = 0;
    mtimer_program();
    hal_profile_irq_restore(s);
}

/* ---- the board clock: mtime ---- */

uint64_t board_clock_ticks(void)
{
    return mtime_read();
}

uint64_t board_clock_us(void)
{
    return mtime_read() / (BOARD_CLOCK_HZ / 1000000u);
}

uint32_t board_clock_ms(void)
{
    return (uint32_t)(mtime_read() / (BOARD_CLOCK_HZ / 1000u));
}
