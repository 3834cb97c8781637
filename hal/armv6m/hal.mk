# ARMv6-M (Thumb-1) architecture HAL, serving ARMv8-M Baseline (Cortex-M23) too: file lists
# (rules are in the top-level Makefile).
include hal/cortexm/cortexm.mk
HAL_CROSS_COMPILE := arm-none-eabi-
# The architecture alone (make BOARD=none: firmware with its own startup and timer).
HAL_ARCH_INC  := hal/armv6m/include $(CORTEXM_INC)
HAL_ARCH_SRCS := hal/armv6m/src/mcount.S
HAL_ARCH_CDL  := hal/armv6m/hal_armv6m.cdl
# With the Cortex-M parts every board of ours shares.
HAL_INC     := $(HAL_ARCH_INC)
HAL_SRCS    := $(HAL_ARCH_SRCS) $(CORTEXM_SRCS)
HAL_CDL     := $(HAL_ARCH_CDL) $(CORTEXM_CDL)
HAL_LDPATH  := $(CORTEXM_LDPATH)
HAL_LDFILES := $(CORTEXM_LDFILES)
# Flags for every package object (after the user's CFLAGS). ARMv6-M has no FPU, but the
# same rule as on ARMv7-M keeps the package off FP registers whatever -mcpu says.
HAL_PKG_CFLAGS := -mgeneral-regs-only

# The compiler's -pg hook lives in this file alone; the Makefile rejects any other package
# object that references HAL_MCOUNT_SYMBOL (a sign that -pg leaked into the package).
HAL_MCOUNT_SRCS   := hal/armv6m/src/mcount.S
HAL_MCOUNT_SYMBOL := __gnu_mcount_nc

# Flags for code compiled with -pg (after -pg). GCC 12's Thumb-1 prologue may copy a high
# register through lr before the -pg sequence when it saves r8-r11 (mov lr, fp;
# push {r5-r7, lr}), so that mcount is handed fp's value instead of the return address and
# the call is counted from outside the range; with r8-r11 left alone it never does.
HAL_PG_CFLAGS := -ffixed-r8 -ffixed-r9 -ffixed-r10 -ffixed-r11
