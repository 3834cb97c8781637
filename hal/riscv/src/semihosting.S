/*
 * hal_semihosting_call(op, arg) on RISC-V: the semihosting trap is an ebreak between two
 * no-op shifts (slli x0, x0, 0x1f; ebreak; srai x0, x0, 7), all three uncompressed and in
 * one page so that the host can recognise them; a0 = op, a1 = arg, answer in a0 (the
 * RISC-V semihosting specification). QEMU answers it when run with -semihosting-config
 * enable=on (machine mode). Without a host the ebreak is a breakpoint exception, which
 * hal_riscv_trap (startup.c) steps over: the call then returns op.
 */
        .section .text.hal_semihosting_call, "ax", @progbits
        .global hal_semihosting_call
        .type   hal_semihosting_call, @function
        .balign 16                      /* the sequence stays within one page */
hal_semihosting_call:
        .option push
        .option norvc
        slli    zero, zero, 0x1f
        .global hal_riscv_semihosting_ebreak
hal_riscv_semihosting_ebreak:
        ebreak
        srai    zero, zero, 7
        .option pop
        ret
        .size   hal_semihosting_call, . - hal_semihosting_call
