# vexpress-a9 (boards/vexpress-a9) with the application and the package in Thumb-2: the
# same board, HAL and memory map; only the instruction set of the compiled C differs. The
# exception entries and the mcount stub are ARM-state assembly whatever the flags
# (hal/armv7a), and are called from Thumb code through interworking branches.
include boards/vexpress-a9/board.mk
BOARD_CPUFLAGS := -mcpu=cortex-a9 -mthumb -mfloat-abi=hard -mfpu=vfpv3-d16
# The board's CDL is vexpress-a9's (this folder has none of its own).
BOARD_CDL      += boards/vexpress-a9/hal_arm_vexpress_a9.cdl
BOARD_RUN      := boards/vexpress-a9-thumb/run-qemu
