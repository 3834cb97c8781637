/* The vendor SDK's minimal C library glue: a heap after .bss, exit through semihosting. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

extern char _ebss[], _estack[];
static char *brk = _ebss; /* owned by _sbrk */

void *_sbrk(ptrdiff_t incr)
{
    if (incr > (_estack - 4096) - brk) {
        errno = ENOMEM;
        return (void *)-1;
    }
    char *prev = brk;
    brk += incr;
    return prev;
}

void _exit(int status)
{
    uint32_t block[2] = { 0x20026, (uint32_t)status };
    register uint32_t r0 __asm__("r0") = 0x20;
    register uint32_t *r1 __asm__("r1") = block;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    for (;;)
        ;
}
