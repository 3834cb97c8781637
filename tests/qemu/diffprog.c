/*
 * One program in two builds, for profile diffs (tests/qemu/test_diff.py): a small
 * tokenizer and checksum at -O2, in another file as a library's would be (diffprog_lib.c).
 * Built with -DDIFF_SLOWER, checksum() does 40% more rounds per block, and validate() is called once
 * more every 8 blocks: the regression a CI job's diff must catch (slower time, changed
 * calls), while every other function's calls stay the same.
 */
#include <cyg/profile/profile.h>
#include <stdint.h>
#include <stdio.h>
#include "calls.h"
#include "diffprog.h"

#ifdef DIFF_SLOWER
#define EXTRA_VALIDATE 1
#else
#define EXTRA_VALIDATE 0
#endif
#define BLOCKS 400
#define BLOCK_BYTES 256

extern char _stext[], _etext[];
static uint8_t block[BLOCK_BYTES];
static volatile uint32_t sink;

static void fill(uint32_t seed)
{
    for (int i = 0; i < BLOCK_BYTES; i++) {
        seed = seed * 1103515245u + 12345u;
        block[i] = (uint8_t)(seed >> 24);
    }
}

int main(void)
{
    if (profile_on(_stext, _etext, 16, 1000) != 0)
        firmware_failed("profile_on");
    for (uint32_t k = 0; k < BLOCKS; k++) {
        fill(k);
        uint32_t sum = checksum(block, BLOCK_BYTES);
        sink += tokenize(block, BLOCK_BYTES) + (uint32_t)validate(sum);
        if (EXTRA_VALIDATE && k % 8 == 0)
            sink += (uint32_t)validate(sum ^ k);
    }
    phase_done(1);
    printf("diffprog: done\n");
    return 0;
}
