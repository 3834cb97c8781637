# The portable package: file lists (rules are in the top-level Makefile).
PROFILE_INC  := target/include
PROFILE_SRCS := target/src/profile.c target/src/hist.c target/src/arcs.c target/src/gmon.c target/src/snapshot.c

# Configuration headers (pkgconf/); replaced by the CDL configurator.
PKGCONF_DEPS := tools/mkpkgconf
PKGCONF_CMD   = tools/mkpkgconf $(TB)/include
