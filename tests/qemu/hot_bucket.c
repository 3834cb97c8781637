/*
 * One histogram bucket sampled 200,000 times: no saturation. Profiling
 * at a 10 us interval, main spins in hot_loop, a loop that fills one 16-byte bucket alone,
 * until the profile timer has sampled it HOT_SAMPLES times: a wrapper of __profile_hit
 * (linked with -Wl,--wrap=__profile_hit) counts the samples there before the package sees
 * them, and ends the loop at the last. Before that, warm_loop, in the next bucket, gets
 * WARM_SAMPLES the same way. The bucket's 16-bit bin fills three times over; the
 * package keeps the rest in an overflow entry, and every extraction path must give gprof
 * all 200,000 (tests/qemu/test_hot_bucket.py):
 *   - hot_done(): gdb's gprof_fetch, and the firmware's own serializer output of the same
 *     moment (hot_copy, interrupts masked until gdb has read both);
 *   - profile_write("hot.out") through semihosting (on boards whose C library has files:
 *     newlib's glue, not picolibc's); it prints its return value.
 */
#include <pkgconf/system.h>
#include <cyg/profile/profile.h>
#include <cyg/profile/gmon.h>
#include <cyg/hal/profile_arch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define HOT_SAMPLES 200000u
#define WARM_SAMPLES 70000u
#define INTERVAL_US 10

/* The loops, each in a bucket of its own: 16-byte aligned, padded to 16 bytes, so that no
 * other symbol shares the bucket (gprof would split its samples by bytes); warm_loop in the
 * bucket right after hot_loop's (two overflowed buckets side by side: no record of other
 * bins between their records). Each spins until *stop. */
void hot_loop(volatile uint32_t *stop);
void warm_loop(volatile uint32_t *stop);
#if defined(__thumb__)
__asm__(".section .text.hot_loop,\"ax\",%progbits\n"
        ".syntax unified\n"
        ".balign 16\n"
        ".global hot_loop\n"
        ".thumb_func\n"
        ".type hot_loop, %function\n"
        "hot_loop:\n"
        "1:  ldr r1, [r0]\n"
        "    cmp r1, #0\n"
        "    beq 1b\n"
        "    bx lr\n"
        ".balign 16\n"
        ".size hot_loop, . - hot_loop\n"
        ".global warm_loop\n"
        ".thumb_func\n"
        ".type warm_loop, %function\n"
        "warm_loop:\n"
        "1:  ldr r1, [r0]\n"
        "    cmp r1, #0\n"
        "    beq 1b\n"
        "    bx lr\n"
        ".balign 16\n"
        ".size warm_loop, . - warm_loop\n"
        ".previous\n");
#elif defined(__arm__)
__asm__(".section .text.hot_loop,\"ax\",%progbits\n"
        ".balign 16\n"
        ".global hot_loop\n"
        ".type hot_loop, %function\n"
        "hot_loop:\n"
        "1:  ldr r1, [r0]\n"
        "    cmp r1, #0\n"
        "    beq 1b\n"
        "    bx lr\n"
        ".balign 16\n"
        ".size hot_loop, . - hot_loop\n"
        ".global warm_loop\n"
        ".type warm_loop, %function\n"
        "warm_loop:\n"
        "1:  ldr r1, [r0]\n"
        "    cmp r1, #0\n"
        "    beq 1b\n"
        "    bx lr\n"
        ".balign 16\n"
        ".size warm_loop, . - warm_loop\n"
        ".previous\n");
#elif defined(__riscv)
__asm__(".section .text.hot_loop,\"ax\",@progbits\n"
        ".balign 16\n"
        ".global hot_loop\n"
        ".type hot_loop, @function\n"
        "hot_loop:\n"
        "1:  lw t0, 0(a0)\n"
        "    beqz t0, 1b\n"
        "    ret\n"
        ".balign 16\n"
        ".size hot_loop, . - hot_loop\n"
        ".global warm_loop\n"
        ".type warm_loop, @function\n"
        "warm_loop:\n"
        "1:  lw t0, 0(a0)\n"
        "    beqz t0, 1b\n"
        "    ret\n"
        ".balign 16\n"
        ".size warm_loop, . - warm_loop\n"
        ".previous\n");
#else
#error "hot_loop: no loop for this architecture"
#endif

/* Set by the wrapper at the last sample a loop is to get; read by the loop. */
volatile uint32_t hot_stop, warm_stop;
/* Counted by the wrapper (the profile timer's interrupt), read by main and by gdb:
 * every sample, and those in each loop's bucket. */
volatile uint32_t samples_taken, hot_samples, warm_samples;

void __real___profile_hit(uintptr_t pc);
void __wrap___profile_hit(uintptr_t pc)
{
    uintptr_t at = HAL_PROFILE_PC(pc);
    samples_taken++;
    if (at - HAL_PROFILE_PC((uintptr_t)hot_loop) < 16 && ++hot_samples == HOT_SAMPLES)
        hot_stop = 1;
    if (at - HAL_PROFILE_PC((uintptr_t)warm_loop) < 16 && ++warm_samples == WARM_SAMPLES)
        warm_stop = 1;
    __real___profile_hit(pc);
}

/* The firmware's own gmon.out image at hot_done (gdb dumps it). */
uint8_t *hot_copy;
uint32_t hot_copy_len;

/* Where gdb stops. */
__attribute__((noinline)) void hot_done(void)
{
    __asm__ volatile("" : : : "memory");
}

__attribute__((noinline)) static void fail(const char *what)
{
    printf("HOT FAILED: %s\n", what);
    exit(1);
}

int main(void)
{
    extern char _stext[], _etext[];
    int rc = profile_on(_stext, _etext, 16, INTERVAL_US);
    if (rc != 0) {
        printf("hot: profile_on %d\n", rc);
        fail("profile_on");
    }
    warm_loop(&warm_stop);
    hot_loop(&hot_stop);
    printf("hot: %u samples in hot_loop's bucket, %u in warm_loop's\n", (unsigned)hot_samples,
           (unsigned)warm_samples);

    /* The serializer's image and gdb's read of the same moment: masked until gdb is done. */
    hal_profile_irq_state irq = hal_profile_irq_save();
    struct profile_gmon_reader r;
    profile_gmon_reader_init(&r);
    size_t size = profile_gmon_size(&r);
    hot_copy = malloc(size);
    if (!hot_copy)
        fail("no memory for the copy");
    hot_copy_len = (uint32_t)profile_gmon_read(&r, 0, hot_copy, size);
    if (hot_copy_len != size)
        fail("short copy");
    hot_done();
    hal_profile_irq_restore(irq);
    free(hot_copy);

#ifndef __PICOLIBC__     /* (this project's picolibc glue has no files: doc/libc.md) */
    rc = profile_write("hot.out");
    printf("hot: profile_write %d\n", rc);
#endif
    profile_off();
    printf("hot: done\n");
    return 0;
}
