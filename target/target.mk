# The portable package: file lists (rules are in the top-level Makefile).
PROFILE_INC  := target/include
# (autostart.c needs a linker script's _stext/_etext: the host unit tests leave it out.)
PROFILE_SRCS := target/src/profile.c target/src/hist.c target/src/arcs.c target/src/gmon.c target/src/stacks.c target/src/tasks.c \
                target/src/snapshot.c target/src/write.c target/src/autostart.c

# PROFILE_AUTOSTART (lib/profile.mk): link flags that pull target/src/autostart.c out of
# libprofile.a: profiling from before main, gmon.out written through semihosting at exit.
PROFILE_AUTOSTART_LDFLAGS := -Wl,-u,profile_autostart

# Configuration headers (pkgconf/): the CDL configurator (cdl/cdl.mk, doc/configuration.md).
PKGCONF_DEPS = $(CDL_DEPS)
PKGCONF_CMD  = $(CDL_CONFIGURE) --prefix $(TB) $(CDL_ARGS)
