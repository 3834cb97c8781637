/* Semihosting on every Cortex-M: BKPT 0xAB (the M-profile trap; QEMU answers it when run
 * with -semihosting-config enable=on, a debug probe when its semihosting is on). */
#include <cyg/hal/semihosting.h>

uintptr_t hal_semihosting_call(uintptr_t op, uintptr_t arg)
{
    register uintptr_t r0 __asm__("r0") = op;
    register uintptr_t r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}
