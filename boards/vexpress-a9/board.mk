# Arm Versatile Express with the CoreTile A9x4 (Cortex-A9 MPCore), as modelled by QEMU's
# vexpress-a9 machine: ARM-state application code (boards/vexpress-a9-thumb: Thumb-2).
# File lists and flags only; the rules are in the top-level Makefile.
ARCH          := armv7a
CROSS_COMPILE := arm-none-eabi-
# Hard-float with VFPv3-D16, as Cortex-A9 firmware is built (Zynq-7000 BSPs: hard-float):
# every A9 with an FPU has these 16 double registers, and newlib has this multilib
# (thumb/v7-a+fp/hard). FP arguments travel in d0-d7 across mcount; the package never
# touches them (hal/armv7a/hal.mk) and the IRQ entry saves them for the firmware's handlers.
BOARD_CPUFLAGS := -mcpu=cortex-a9 -marm -mfloat-abi=hard -mfpu=vfpv3-d16
include boards/drivers/lan9118/lan9118.mk
BOARD_INC      := boards/vexpress-a9/include
BOARD_SRCS     := boards/vexpress-a9/src/board.c boards/vexpress-a9/src/pl011.c \
                  boards/vexpress-a9/src/clock.c boards/vexpress-a9/src/sp804.c \
                  boards/vexpress-a9/src/profile_timer.c
BOARD_CDL      := $(LAN9118_CDL)
BOARD_LDSCRIPT := boards/vexpress-a9/vexpress-a9.ld
# Boots an ELF in QEMU: run-qemu [--gdb PORT] [--halt] [--icount SHIFT|off] [--timeout SECS] ELF [qemu args]
# (tools/run-qemu with this folder's qemu.conf)
BOARD_RUN      := boards/vexpress-a9/run-qemu
QEMU_MACHINE   := vexpress-a9
# The profile timer's interrupt handler: where make bench starts counting a sample (the IRQ
# entry, which takes the sample itself).
BOARD_PROFILE_ISR := armv7a_irq_entry
