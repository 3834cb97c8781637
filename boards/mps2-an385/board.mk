# Arm MPS2 + AN385 FPGA image (Cortex-M3), as modelled by QEMU's mps2-an385 machine.
# File lists and flags only; the rules are in the top-level Makefile.
ARCH          := armv7m
CROSS_COMPILE := arm-none-eabi-
# Soft-float Thumb-2: the Cortex-M3 has no FPU.
BOARD_CPUFLAGS := -mcpu=cortex-m3 -mthumb -mfloat-abi=soft
include boards/drivers/cmsdk/cmsdk.mk
include boards/drivers/lan9118/lan9118.mk
BOARD_INC      := boards/mps2-an385/include $(CMSDK_INC)
BOARD_SRCS     := boards/mps2-an385/src/board.c $(CMSDK_SRCS) $(CMSDK_PROFILE_TIMER_SRCS)
BOARD_CDL      := $(LAN9118_CDL)
BOARD_LDSCRIPT := boards/mps2-an385/mps2-an385.ld
# Boots an ELF in QEMU: run-qemu [--gdb PORT] [--halt] [--icount SHIFT|off] [--timeout SECS] ELF [qemu args]
# (tools/run-qemu with this folder's qemu.conf)
BOARD_RUN      := boards/mps2-an385/run-qemu
QEMU_MACHINE   := mps2-an385
# The profile timer's interrupt handler: where make bench starts counting a sample.
BOARD_PROFILE_ISR := TIMER0_IRQHandler
