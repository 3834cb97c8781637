/*
 * A dithered sampling period, for the HAL's profile timer.
 *
 * A timer with a fixed period meets firmware that is periodic itself (a main loop, an RTOS
 * tick, a benchmark's loop): where the timer and the CPU run from one crystal, as on an MCU
 * and under QEMU -icount, the samples keep landing on the same few instructions, and the
 * flat profile shows them alone. So each sample is taken at a pseudo-random point of its
 * own slot of the nominal grid: sample n at n * period + offset(n), offset(n) uniform in
 * [0, period). That is stratified sampling: whatever the program's period, every phase of
 * it is as likely as every other, and the mean rate stays exactly the nominal one (the
 * offsets are bounded, so they never add up), which is the rate gmon.out states.
 *
 * The offsets walk: offset(n + 1) = offset(n) + step mod period, each step uniform in
 * [min, period), so that the timer's next period, step or period + step, is never shorter
 * than min ticks (a period shorter than the interrupt's own run would be lost). A walk on
 * the circle whose steps have a density leaves every offset as likely as every other
 * whatever min is, so nothing is lengthened and nothing piles up at the end of a slot (a
 * shorter period lengthened to min would: at min half the period, a phase in the first
 * tenth of the slot got 0.6 of its share, and at min equal to the period every sample
 * came at the same point of its slot, a plain periodic timer). min is kept to at most
 * seven eighths of the period, which leaves the walk room (it crosses the slot in eight
 * samples or so): a HAL's shortest interval needs its interrupt, catching up included, to
 * fit in seven eighths of it.
 *
 * The offsets come from a linear congruential sequence with a fixed seed, so that runs
 * under QEMU -icount repeat exactly. CYGSEM_PROFILE_TIMER_DITHER off (the CDL option):
 * every period is the nominal one, as a plain periodic timer.
 *
 * Used by each board's profile timer driver: profile_dither_start() when the timer starts
 * (interrupts masked), profile_dither_next() in its interrupt, which owns the state then.
 */
#ifndef CYGONCE_PROFILE_DITHER_H
#define CYGONCE_PROFILE_DITHER_H

#include <stdint.h>
#include <cyg/profile/opts.h>
/* HAL_PROFILE_MUL_HIGH: a multiply-high where the core has one (<cyg/profile/hal.h>) */
#include <cyg/hal/profile_arch.h>

struct profile_dither {
    uint32_t seed;      /* the sequence's state */
    uint32_t offset;    /* this sample's ticks past the start of its slot */
    uint32_t period;    /* the nominal period, in ticks */
    uint32_t min;       /* the shortest period the timer is given, in ticks: a step's least */
    uint32_t span;      /* period - min: a step's range */
    uint32_t scale;     /* span >> shift: below 2^16, so one 32-bit multiply scales */
    uint32_t shift;
};

/* Starts the sequence for a nominal period of period ticks (1 to 2^31 - 1), no period
 * shorter than min ticks (kept to period - period / 8 at most, the walk's room, and 1 at
 * least). */
static inline void profile_dither_start(struct profile_dither *d, uint32_t period, uint32_t min)
{
    if (min > period - period / 8)
        min = period - period / 8;
    if (min == 0)
        min = 1;
    uint32_t span = period > min ? period - min : 0, shift = 0;
    while ((span >> shift) > 0xFFFFu)
        shift++;
    d->seed = 0x2545F491u;
    d->offset = 0;
    d->period = period;
    d->min = min;
    d->span = span;
    d->scale = span >> shift;
    d->shift = shift;
}

/* The ticks from this sample to the next: the period to give the timer. */
static inline uint32_t profile_dither_next(struct profile_dither *d)
{
#if PROFILE_DITHER
    d->seed = d->seed * 1664525u + 1013904223u;
    /* the seed scaled to [0, span) by its upper bits (its low bits are the sequence's
     * worst): one multiply-high where the core has it, else two 16-bit halves */
#ifdef HAL_PROFILE_MUL_HIGH
    uint32_t step = d->min + HAL_PROFILE_MUL_HIGH(d->seed, d->span);
#else
    uint32_t step = d->min + ((((d->seed >> 16) * d->scale) >> 16) << d->shift);
#endif
    uint32_t offset = d->offset + step;     /* (< 2 * period: no wrap of 32 bits) */
    if (offset >= d->period) {
        d->offset = offset - d->period;     /* the next slot, earlier in it */
        return step;
    }
    d->offset = offset;                     /* the next slot, later in it */
    return d->period + step;
#else
    return d->period;
#endif
}

/* The ticks to add to a deadline found late ticks past (an interrupt held back longer than a
 * period) to reach the first slot still to come: whole nominal periods, so that the slots
 * keep their grid. The samples of the slots passed are not taken: they would all land on the
 * instruction that unmasked the interrupt. */
static inline uint32_t profile_dither_catch_up(const struct profile_dither *d, uint32_t late)
{
    /* Late by less than four periods, as after a masked section, it adds periods: no
     * division, which v6-M and RV32 without M's divide take from the C library in some 250
     * instructions, longer than a short interval, so that the next deadline was late too. */
    if ((late >> 2) < d->period && d->period <= 0x30000000u) {   /* (no wrap: 5 periods) */
        uint32_t ahead = d->period;
        while (ahead <= late)
            ahead += d->period;
        return ahead;
    }
    return (late / d->period + 1u) * d->period;
}

#endif
