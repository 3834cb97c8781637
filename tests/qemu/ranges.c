/*
 * Several ranges profiled at once: the RAM-code firmware
 * (tests/qemu/ramfunc.c, included whole: its functions in flash and in .ramfunc, its call
 * structure in ramfunc.h, its checks and its phase_done), but profiled over the two runs
 * of code the board has: flash, _stext.._etext, and the code the startup copied to RAM,
 * _sramfunc.._eramfunc. Its main calls profile_on(_stext, _etext, ...); here that call
 * becomes profile_on_ranges() over both (tests/qemu/test_ranges.py).
 *
 * At its phase_done(1), before gdb stops there: N_INJECT samples at ram_hot, a function in
 * RAM that is never called, as the profile timer would take them (__profile_hit is the
 * HAL's entry): a bucket past 65535 in the range that is not the fast path's, written as
 * several records; then the firmware's own gmon.out image of that moment (ranges_copy,
 * interrupts masked until gdb has read both); then, where the C library has files (newlib's
 * glue, not picolibc's), profile_write("ranges.out") through semihosting, whose return
 * value it prints.
 */
#include <pkgconf/system.h>
#include <cyg/profile/profile.h>
#include <cyg/profile/gmon.h>
#include <cyg/hal/profile_arch.h>
#include <stdlib.h>

#define N_INJECT 70000

static int profile_flash_and_ram(void *start, void *end, int bucket_size, int interval_us);
#define profile_on profile_flash_and_ram
#define phase_done ranges_phase_done
#include "ramfunc.c"
#undef profile_on
#undef phase_done
void phase_done(int phase);   /* support.c's: where gdb stops */

/* Never called: its bucket gets the injected samples. */
RAMFUNC uint32_t ram_hot(uint32_t x)
{
    return 3u * x + 1u;
}

/* The firmware's own gmon.out image at phase_done(1) (gdb dumps it). */
uint8_t *ranges_copy;
uint32_t ranges_copy_len;

void ranges_phase_done(int phase)
{
    for (uint32_t i = 0; i < N_INJECT; i++)
        __profile_hit(code_addr((uintptr_t)ram_hot));
    hal_profile_irq_state irq = hal_profile_irq_save();
    struct profile_gmon_reader r;
    profile_gmon_reader_init(&r);
    size_t size = profile_gmon_size(&r);
    ranges_copy = malloc(size);
    if (!ranges_copy)
        firmware_failed("no memory for the copy");
    ranges_copy_len = (uint32_t)profile_gmon_read(&r, 0, ranges_copy, size);
    if (ranges_copy_len != size)
        firmware_failed("short copy");
    phase_done(phase);
    hal_profile_irq_restore(irq);
    free(ranges_copy);
    ranges_copy = NULL;
#ifndef __PICOLIBC__
    printf("ranges: profile_write %d\n", profile_write("ranges.out"));
#endif
}

/* Written by main's profile_on call (above) for gdb: what profile_on_ranges returned. */
volatile int ranges_rc = 1;

static int profile_flash_and_ram(void *start, void *end, int bucket_size, int interval_us)
{
    /* (in RAM's order first: profile_on_ranges takes the ranges in any order) */
    const struct profile_range ranges[2] = {
        { _sramfunc, _eramfunc },
        { start, end },
    };
    ranges_rc = profile_on_ranges(ranges, 2, bucket_size, interval_us);
    printf("ranges: profile_on_ranges(%p..%p, %p..%p) = %d\n", (void *)_sramfunc,
           (void *)_eramfunc, start, end, ranges_rc);
    return ranges_rc;
}
