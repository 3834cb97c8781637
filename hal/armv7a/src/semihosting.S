/*
 * Semihosting on ARMv7-A: SVC 0x123456 in ARM state (the trap for A-profile ARM code; in
 * Thumb state it would be SVC 0xAB). Written in ARM state, so that it is the same trap
 * whether the firmware is built -marm or -mthumb. QEMU answers it without taking the SVC
 * exception when run with -semihosting-config enable=on (in any mode but USR), a debugger
 * by catching the SVC vector.
 *
 *   uintptr_t hal_semihosting_call(uintptr_t op, uintptr_t arg)   <cyg/hal/semihosting.h>
 */
        .syntax unified
        .arm
        .section .text.hal_semihosting_call, "ax", %progbits
        .global hal_semihosting_call
        .type   hal_semihosting_call, %function
hal_semihosting_call:
        svc     0x123456                /* r0 = op, r1 = arg; the answer in r0 */
        bx      lr
        .size   hal_semihosting_call, . - hal_semihosting_call
