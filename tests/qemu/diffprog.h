/* diffprog_lib.c, called by diffprog.c. */
#ifndef DIFFPROG_H
#define DIFFPROG_H
#include <stdint.h>

uint32_t tokenize(const uint8_t *p, int n);
uint32_t checksum(const uint8_t *p, int n);
int validate(uint32_t sum);

#endif
