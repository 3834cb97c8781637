# QEMU's RISC-V virt machine with an RV64 hart (rv64imac): the riscv32-virt board (the same
# machine: its sources, header, CDL and linker script) built for 64 bits.
include boards/riscv32-virt/board.mk
# (Restated: tests/qemu/test_demo.sh reads CROSS_COMPILE from this file alone.)
CROSS_COMPILE  := riscv64-unknown-elf-
# rv64imac/lp64, one of GCC's multilibs (-misa-spec=2.2: see riscv32-virt). medany: the
# image lies at 0x80000000, beyond the +-2 GiB around 0 that the default medlow reaches.
BOARD_CPUFLAGS := -march=rv64imac -mabi=lp64 -mcmodel=medany -misa-spec=2.2
BOARD_CDL      := boards/riscv32-virt/hal_riscv_virt.cdl
BOARD_RUN      := boards/riscv64-virt/run-qemu
