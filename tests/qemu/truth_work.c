/*
 * The truth oracle's work functions (tests/qemu/truth.c says what each does): a unit of their
 * own, as an application's modules are, so that the loop in truth.c calls them; within this
 * unit GCC inlines what it likes (mix, spin, helper).
 */
#include <stdint.h>

#define RAMFUNC __attribute__((section(".ramfunc.truth")))
#define UNIT 100

extern volatile uint32_t truth_sink;
void leaf(void);   /* truth.c: another unit, so it stays a call */

static uint32_t spin(uint32_t x, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        x = (x ^ (x >> 7)) * 0x2545F491u + 0x9E37u + i;
    return x;
}

void flat_0(void)
{
    truth_sink++;
}

void flat_1(void)
{
    truth_sink = spin(truth_sink, 1 * UNIT);
}

void flat_3(void)
{
    truth_sink = spin(truth_sink, 3 * UNIT);
}

void flat_6(void)
{
    truth_sink = spin(truth_sink, 6 * UNIT);
}

RAMFUNC void ram_2(void)
{
    uint32_t x = truth_sink;
    for (uint32_t i = 0; i < 2 * UNIT; i++)
        x = (x ^ (x >> 7)) * 0x2545F491u + 0x9E37u + i;
    truth_sink = x;
}

void caller_a(void)
{
    leaf();
    truth_sink += 1;
}

void caller_b(void)
{
    leaf();
    truth_sink += 2;
}

void caller_c(void)
{
    leaf();
    truth_sink += 3;
}

static inline void helper(void)
{
    truth_sink ^= 0x55u;
    leaf();
}

void outer(void)
{
    helper();
    truth_sink += 4;
}


/* The idle task: waits for the next tick (a word in RAM the tick's handler counts), and
 * returns the count it saw. */
uint32_t idle(volatile uint32_t *ticks, uint32_t seen)
{
    uint32_t now;
    while ((now = *ticks) == seen)
        truth_sink++;
    return now;
}
