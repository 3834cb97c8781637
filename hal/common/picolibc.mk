# picolibc, the C library of the boards whose board.mk says LIBC := picolibc (Debian's
# picolibc-<target> packages; on RISC-V the only one Debian has). picolibc descends from
# newlib (its libc and libm are newlib's, with a small stdio of its own, "tinystdio"), so
# firmware sees the same C library; the system glue differs: hal/common/src/picolibc.c.
# Its GCC specs file adds picolibc's include and library directories for the multilib the
# CPU flags select; the board's linker script and the HAL's startup replace picolibc's
# (-T given, -nostartfiles).
LIBC_CFLAGS  := --specs=picolibc.specs
LIBC_LDFLAGS := --specs=picolibc.specs
LIBC_LIBS    := -lc -lm
