# ARMv7-M (Thumb-2) architecture HAL: file lists (rules are in the top-level Makefile).
HAL_INC  := hal/armv7m/include
HAL_SRCS := hal/armv7m/src/mcount.S

# The compiler's -pg hook lives in this file alone; the Makefile rejects any other package
# object that references HAL_MCOUNT_SYMBOL (a sign that -pg leaked into the package).
HAL_MCOUNT_SRCS   := hal/armv7m/src/mcount.S
HAL_MCOUNT_SYMBOL := __gnu_mcount_nc
