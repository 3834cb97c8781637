# QEMU's RISC-V virt machine with an RV32 hart (rv32imac), machine mode, no firmware below
# (-bios none). File lists and flags only; the rules are in the top-level Makefile.
ARCH          := riscv
CROSS_COMPILE := riscv64-unknown-elf-
# rv32imac/ilp32, one of GCC's multilibs. -misa-spec=2.2: binutils 2.40 wants the CSR
# instructions spelt as the zicsr extension, but -march=rv32imac_zicsr selects no multilib
# (GCC falls back to the default rv64 one); ISA spec 2.2 still has CSRs in the base ISA.
BOARD_CPUFLAGS := -march=rv32imac -mabi=ilp32 -misa-spec=2.2
# Debian has no newlib for RISC-V: picolibc (hal/common/picolibc.mk).
LIBC           := picolibc
BOARD_INC      := boards/riscv32-virt/include
BOARD_SRCS     := boards/riscv32-virt/src/board.c boards/riscv32-virt/src/uart16550.c \
                  boards/riscv32-virt/src/goldfish_rtc.c
BOARD_LDSCRIPT := boards/riscv32-virt/riscv32-virt.ld
# Boots an ELF in QEMU: run-qemu [--gdb PORT] [--halt] [--icount SHIFT|off] [--timeout SECS] ELF [qemu args]
# (tools/run-qemu with this folder's qemu.conf)
BOARD_RUN      := boards/riscv32-virt/run-qemu
QEMU_MACHINE   := virt
# The profile timer's interrupt handler: where make bench starts counting a sample (the
# trap vector's jump to it comes before, one instruction).
BOARD_PROFILE_ISR := hal_riscv_mtimer_entry
