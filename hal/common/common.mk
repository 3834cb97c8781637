# What every board shares, whatever its architecture (file lists; the rules are in the
# top-level Makefile): the board API header, the semihosting interface, the C library glue.
# The board's board.mk says which C library it links: LIBC := newlib (the default),
# newlib-nano (newlib's small variant, for boards with little RAM) or picolibc.
COMMON_INC  := hal/common/include
LIBC        ?= newlib
# hostfile.c: files on the host through semihosting, which both glues wrap in their C
# library's names for open/read/write/... (so the requests and their errors live once).
COMMON_SRCS := hal/common/src/$(if $(filter picolibc,$(LIBC)),picolibc.c,syscalls.c) \
               hal/common/src/hostfile.c
COMMON_CDL  := hal/common/libc_$(if $(filter picolibc,$(LIBC)),picolibc,newlib).cdl
# The C library's flags for the package and applications: compile (LIBC_CFLAGS), link
# (LIBC_LDFLAGS) and libraries (LIBC_LIBS). newlib needs none but its libraries.
ifeq ($(LIBC),newlib)
LIBC_CFLAGS  :=
LIBC_LDFLAGS :=
LIBC_LIBS    := -lc -lm
else ifeq ($(LIBC),newlib-nano)
LIBC_CFLAGS  := --specs=nano.specs
LIBC_LDFLAGS := --specs=nano.specs
LIBC_LIBS    := -lc -lm
else ifeq ($(LIBC),picolibc)
include hal/common/picolibc.mk
else
$(error LIBC=$(LIBC): newlib, newlib-nano or picolibc)
endif
