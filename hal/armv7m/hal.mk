# ARMv7-M (Thumb-2) architecture HAL, serving ARMv7E-M (Cortex-M4/M7) and ARMv8-M Mainline
# (Cortex-M33) too: file lists (rules are in the top-level Makefile).
include hal/cortexm/cortexm.mk
HAL_CROSS_COMPILE := arm-none-eabi-
# The architecture alone (make BOARD=none: firmware with its own startup and timer).
# (hal/arm: what the ARMv7-M and ARMv7-A HALs share, the body of their mcount stub)
HAL_ARCH_INC  := hal/armv7m/include hal/arm/include $(CORTEXM_INC)
HAL_ARCH_SRCS := hal/armv7m/src/mcount.S
HAL_ARCH_CDL  := hal/armv7m/hal_armv7m.cdl
# With the Cortex-M parts every board of ours shares.
HAL_INC    := $(HAL_ARCH_INC)
HAL_SRCS   := $(HAL_ARCH_SRCS) $(CORTEXM_SRCS)
HAL_CDL    := $(HAL_ARCH_CDL) $(CORTEXM_CDL)
HAL_LDPATH := $(CORTEXM_LDPATH)
HAL_LDFILES := $(CORTEXM_LDFILES)
# Flags for every package object (after the user's CFLAGS): the package never touches FP
# registers, whatever float ABI the application uses. Under hard-float s0-s15 carry the
# instrumented function's arguments when mcount runs, and the stub does not save them.
HAL_PKG_CFLAGS := -mgeneral-regs-only

# The compiler's -pg hook lives in this file alone; the Makefile rejects any other package
# object that references HAL_MCOUNT_SYMBOL (a sign that -pg leaked into the package).
HAL_MCOUNT_SRCS   := hal/armv7m/src/mcount.S
HAL_MCOUNT_SYMBOL := __gnu_mcount_nc
