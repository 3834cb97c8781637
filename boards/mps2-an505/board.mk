# Arm MPS2 + AN505 FPGA image (Cortex-M33 in the IoT Kit subsystem, with TrustZone and a
# single-precision FPU), as modelled by QEMU's mps2-an505 machine. The firmware runs in the
# secure state, where the core starts. File lists and flags only; the rules are in the
# top-level Makefile.
ARCH          := armv7m
CROSS_COMPILE := arm-none-eabi-
# Hard-float Thumb-2 (ARMv8-M Mainline, single-precision FPv5): FP arguments travel in
# s0-s15, and newlib's thumb/v8-m.main+fp/hard multilib is linked. No -mcmse: the firmware
# is all secure and neither offers entry points to nor calls non-secure code. The package
# itself never touches an FP register (hal/armv7m/hal.mk).
BOARD_CPUFLAGS := -mcpu=cortex-m33 -mthumb -mfpu=fpv5-sp-d16 -mfloat-abi=hard
include boards/drivers/cmsdk/cmsdk.mk
include boards/drivers/lan9118/lan9118.mk
BOARD_INC      := boards/mps2-an505/include $(CMSDK_INC)
BOARD_SRCS     := boards/mps2-an505/src/board.c $(CMSDK_SRCS) $(CMSDK_PROFILE_TIMER_SRCS)
BOARD_CDL      := $(LAN9118_CDL)
BOARD_LDSCRIPT := boards/mps2-an505/mps2-an505.ld
# Boots an ELF in QEMU: run-qemu [--gdb PORT] [--halt] [--icount SHIFT|off] [--timeout SECS] ELF [qemu args]
# (tools/run-qemu with this folder's qemu.conf)
BOARD_RUN      := boards/mps2-an505/run-qemu
QEMU_MACHINE   := mps2-an505
# The profile timer's interrupt handler: where make bench starts counting a sample.
BOARD_PROFILE_ISR := TIMER0_IRQHandler
