/* watchprog.c's two phases' work: a block of hashing each. */
#include "watchprog.h"

uint32_t alpha(uint32_t seed)
{
    for (int i = 0; i < 2000; i++)
        seed = seed * 1103515245u + 12345u;
    return seed;
}

uint32_t beta(uint32_t seed)
{
    for (int i = 0; i < 3000; i++)
        seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
    return seed;
}
