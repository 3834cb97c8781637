# Arm MPS2 + AN385 FPGA image (Cortex-M3), as modelled by QEMU's mps2-an385 machine.
# File lists and flags only; the rules are in the top-level Makefile.
ARCH          := armv7m
CROSS_COMPILE := arm-none-eabi-
# Soft-float Thumb-2: the Cortex-M3 has no FPU (and mcount relies on no FP argument registers).
BOARD_CPUFLAGS := -mcpu=cortex-m3 -mthumb -mfloat-abi=soft
BOARD_INC      := boards/mps2-an385/include
BOARD_SRCS     := boards/mps2-an385/src/startup.c \
                  boards/mps2-an385/src/irq.c \
                  boards/mps2-an385/src/clock.c \
                  boards/mps2-an385/src/syscalls.c \
                  boards/mps2-an385/src/apb_timer.c \
                  boards/mps2-an385/src/profile_timer.c
BOARD_LDSCRIPT := boards/mps2-an385/mps2-an385.ld
# Boots an ELF in QEMU: run-qemu [--gdb PORT] [--halt] [--icount SHIFT|off] [--timeout SECS] ELF [qemu args]
BOARD_RUN      := boards/mps2-an385/run-qemu
QEMU_MACHINE   := mps2-an385
