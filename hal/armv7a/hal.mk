# ARMv7-A architecture HAL (Cortex-A5/A7/A8/A9/A15 in AArch32; ARM and Thumb-2 application
# code): file lists (rules are in the top-level Makefile). Everything an A-profile board
# shares lives here once: the exception model (vector table at VBAR, mode stacks, the IRQ
# entry that acknowledges, dispatches and nests by GIC priority), reset and the C runtime
# start, the GIC, semihosting, the mcount stub, the linker script's sections.
# (hal/arm: what the ARMv7-M and ARMv7-A HALs share, the body of their mcount stub)
HAL_INC     := hal/armv7a/include hal/arm/include
HAL_SRCS    := hal/armv7a/src/vectors.S hal/armv7a/src/startup.c hal/armv7a/src/gic.c \
               hal/armv7a/src/semihosting.S hal/armv7a/src/mcount.S
HAL_CDL     := hal/armv7a/hal_armv7a.cdl
# Where a board linker script's INCLUDE finds armv7a.ld (copied into an install tree's lib/).
HAL_LDPATH  := hal/armv7a
HAL_LDFILES := hal/armv7a/armv7a.ld
# Flags for every package object (after the user's CFLAGS): the package's C code never
# touches FP registers, whatever float ABI the application uses. Under hard-float d0-d7 carry
# the instrumented function's arguments when mcount runs, and the stub does not save them;
# the profile timer's sample path does not save them either. (The IRQ entry saves the
# caller-saved VFP state for the firmware's own handlers, in assembly: vectors.S.)
HAL_PKG_CFLAGS := -mgeneral-regs-only

# The compiler's -pg hook lives in this file alone; the Makefile rejects any other package
# object that references HAL_MCOUNT_SYMBOL (a sign that -pg leaked into the package).
HAL_MCOUNT_SRCS   := hal/armv7a/src/mcount.S
HAL_MCOUNT_SYMBOL := __gnu_mcount_nc
