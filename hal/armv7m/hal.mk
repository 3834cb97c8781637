# ARMv7-M (Thumb-2) architecture HAL: file lists (rules are in the top-level Makefile).
HAL_INC  := hal/armv7m/include
HAL_SRCS := hal/armv7m/src/mcount.S
# Flags for every package object (after the user's CFLAGS): the package never touches FP
# registers, whatever float ABI the application uses. Under hard-float s0-s15 carry the
# instrumented function's arguments when mcount runs, and the stub does not save them.
HAL_PKG_CFLAGS := -mgeneral-regs-only

# The compiler's -pg hook lives in this file alone; the Makefile rejects any other package
# object that references HAL_MCOUNT_SYMBOL (a sign that -pg leaked into the package).
HAL_MCOUNT_SRCS   := hal/armv7m/src/mcount.S
HAL_MCOUNT_SYMBOL := __gnu_mcount_nc
