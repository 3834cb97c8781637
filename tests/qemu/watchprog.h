/* watchprog_lib.c, called by watchprog.c. */
#ifndef WATCHPROG_H
#define WATCHPROG_H
#include <stdint.h>

uint32_t alpha(uint32_t seed);
uint32_t beta(uint32_t seed);

#endif
