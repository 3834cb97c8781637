# RISC-V architecture HAL (machine mode, RV32 and RV64): file lists (rules are in the
# top-level Makefile). The interrupt and timer parts serve boards with a SiFive-style CLINT
# and PLIC (the board's <cyg/hal/board.h> gives their addresses).
HAL_INC    := hal/riscv/include
HAL_SRCS   := hal/riscv/src/mcount.S hal/riscv/src/vectors.S hal/riscv/src/startup.c \
              hal/riscv/src/irq.c hal/riscv/src/mtimer.c hal/riscv/src/profile_timer.c \
              hal/riscv/src/semihosting.S
HAL_CDL    := hal/riscv/hal_riscv.cdl
# Where the board linker scripts' INCLUDE finds riscv.ld.
HAL_LDPATH := hal/riscv
HAL_LDFILES := hal/riscv/riscv.ld
# Nothing to add for the package: the boards' ISAs have no FP registers (riscv.h refuses
# one that has: the trap entry does not save them).
HAL_PKG_CFLAGS :=

# The compiler's -pg hook lives in this file alone; the Makefile rejects any other package
# object that references HAL_MCOUNT_SYMBOL (a sign that -pg leaked into the package).
HAL_MCOUNT_SRCS   := hal/riscv/src/mcount.S
HAL_MCOUNT_SYMBOL := _mcount
