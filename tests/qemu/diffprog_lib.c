/* diffprog.c's library: what its two builds call (tests/qemu/test_diff.py). */
#include "diffprog.h"

#ifdef DIFF_SLOWER
#define CHECKSUM_ROUNDS 14
#else
#define CHECKSUM_ROUNDS 10
#endif

/* Spaces split tokens: the count, and a hash of each token's length. */
uint32_t tokenize(const uint8_t *p, int n)
{
    uint32_t tokens = 0, len = 0, h = 0;
    for (int i = 0; i < n; i++) {
        if (p[i] < 0x30) {
            if (len)
                tokens++, h = h * 31 + len;
            len = 0;
        } else {
            len++;
        }
    }
    return tokens ^ h;
}

uint32_t checksum(const uint8_t *p, int n)
{
    uint32_t a = 1, b = 0;
    for (int r = 0; r < CHECKSUM_ROUNDS; r++)
        for (int i = 0; i < n; i++) {
            a = (a + p[i] + (uint32_t)r) % 65521u;
            b = (b + a) % 65521u;
        }
    return b << 16 | a;
}

int validate(uint32_t sum)
{
    return (sum & 0xff) != 0xff;
}
