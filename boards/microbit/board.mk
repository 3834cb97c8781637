# BBC micro:bit (v1): nRF51822, Cortex-M0, as modelled by QEMU's microbit machine.
# File lists and flags only; the rules are in the top-level Makefile.
ARCH          := armv6m
CROSS_COMPILE := arm-none-eabi-
# Thumb-1 (ARMv6-M), no FPU. newlib-nano: 16 KiB of RAM has no room for full newlib's data,
# nor for a profile of its printf's code (README.md: RAM).
BOARD_CPUFLAGS := -mcpu=cortex-m0 -mthumb -mfloat-abi=soft
LIBC           := newlib-nano
BOARD_INC      := boards/microbit/include
BOARD_SRCS     := boards/microbit/src/board.c boards/microbit/src/nrf51_timer.c \
                  boards/microbit/src/clock.c boards/microbit/src/uart.c \
                  boards/microbit/src/profile_timer.c
BOARD_LDSCRIPT := boards/microbit/microbit.ld
# Boots an ELF in QEMU: run-qemu [--gdb PORT] [--halt] [--icount SHIFT|off] [--timeout SECS] ELF [qemu args]
# (tools/run-qemu with this folder's qemu.conf)
BOARD_RUN      := boards/microbit/run-qemu
QEMU_MACHINE   := microbit
# The profile timer's interrupt handler: where make bench starts counting a sample.
BOARD_PROFILE_ISR := TIMER1_IRQHandler
