# The portable package: file lists (rules are in the top-level Makefile).
PROFILE_INC  := target/include
PROFILE_SRCS := target/src/profile.c target/src/hist.c target/src/arcs.c target/src/gmon.c target/src/snapshot.c

# Configuration headers (pkgconf/): the CDL configurator (cdl/cdl.mk, doc/configuration.md).
PKGCONF_DEPS = $(CDL_DEPS)
PKGCONF_CMD  = $(CDL_CONFIGURE) --prefix $(TB) $(CDL_ARGS)
