# Arm MPS2 + AN500 FPGA image (Cortex-M7 with a double-precision FPU), as modelled by QEMU's
# mps2-an500 machine. File lists and flags only; the rules are in the top-level Makefile.
ARCH          := armv7m
CROSS_COMPILE := arm-none-eabi-
# Hard-float Thumb-2 (ARMv7E-M, double-precision FPv5): FP arguments travel in s0-s15
# (d0-d7), and newlib's thumb/v7e-m+dp/hard multilib is linked. The package itself never
# touches an FP register (hal/armv7m/hal.mk), so mcount leaves the FP arguments alone.
BOARD_CPUFLAGS := -mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard
include boards/drivers/cmsdk/cmsdk.mk
include boards/drivers/lan9118/lan9118.mk
BOARD_INC      := boards/mps2-an500/include $(CMSDK_INC)
BOARD_SRCS     := boards/mps2-an500/src/board.c $(CMSDK_SRCS) $(CMSDK_PROFILE_TIMER_SRCS)
BOARD_CDL      := $(LAN9118_CDL)
BOARD_LDSCRIPT := boards/mps2-an500/mps2-an500.ld
# Boots an ELF in QEMU: run-qemu [--gdb PORT] [--halt] [--icount SHIFT|off] [--timeout SECS] ELF [qemu args]
# (tools/run-qemu with this folder's qemu.conf)
BOARD_RUN      := boards/mps2-an500/run-qemu
QEMU_MACHINE   := mps2-an500
# The profile timer's interrupt handler: where make bench starts counting a sample.
BOARD_PROFILE_ISR := TIMER0_IRQHandler
