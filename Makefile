# gprof profiling for RTOS and bare-metal firmware: the one (non-recursive) Makefile.
# Each folder contributes a fragment that lists its files; the rules live here.
#
#   make demo                 build the demo firmware, run it in QEMU, extract, run gprof
#   make test                 every test, every board; ends with "N passed, N failed, N skipped"
#                             (TEST_JOBS=N: N tests at a time; default: the cores)
#   make BOARD=x test-board   the suite every board passes, on board x alone
#   make bench                benchmarks (instructions under QEMU -icount, bytes, seconds)
#   make BOARD=mps2-an385 install [PREFIX=dir]
#                             install tree for applications: $(PREFIX)/$(BOARD)/{include,lib,bin}
#   make setup                install missing Debian packages and fetch lwIP (done by demo/test)

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:

BOARD  ?= mps2-an385
BUILD  ?= build
PREFIX ?= $(CURDIR)/install
# Debian's lwip source package, fetched by tools/setup; point at your own tree to use it.
LWIP_DIR ?= $(BUILD)/lwip

# ---- setup ------------------------------------------------------------------------------
# (Defined before the fragments: their rules name it as a prerequisite.)
SETUP_STAMP := $(BUILD)/.setup-$(shell cat tools/setup | cksum | cut -d' ' -f1)
$(SETUP_STAMP): tools/setup
	@tools/setup lwip $(LWIP_DIR)
	@mkdir -p $(@D) && touch $@
.PHONY: setup
setup: $(SETUP_STAMP)

# The configuration (cdl/cdl.mk): CDL user values from CONFIG=file and CYG...=value. The
# default configuration builds in $(BUILD)/$(BOARD), any other in a directory of its own.
include cdl/cdl.mk
# BOARD=none: the architecture-only package (no board code), in $(BUILD)/none-$(ARCH).
BOARD_DIR_NAME := $(if $(filter none,$(BOARD)),none-$(ARCH),$(BOARD))
TB := $(BUILD)/$(BOARD_DIR_NAME)$(CDL_SUFFIX)
# Tests and benches find the configuration's firmware here.
export PROFILE_TB := $(TB)

# ---- fragments -------------------------------------------------------------------------
# boards/<board>/board.mk: ARCH, CROSS_COMPILE, BOARD_CPUFLAGS, BOARD_SRCS, BOARD_INC,
#                          BOARD_CDL (drivers' CDL), BOARD_LDSCRIPT, BOARD_RUN (the QEMU
#                          runner: a link to tools/run-qemu beside the board's qemu.conf),
#                          LIBC (newlib, the default, or picolibc)
# BOARD=none ARCH=<arch> CPUFLAGS='...': the package and the architecture's mcount stub only,
# for firmware that brings its own startup, linker script and profile timer (hal/none.mk,
# doc/porting.md "Bring your own board").
ifeq ($(BOARD),none)
include hal/none.mk
else
BOARD_NAMES := $(patsubst boards/%/board.mk,%,$(wildcard boards/*/board.mk))
ifeq ($(filter $(BOARD),$(BOARD_NAMES)),)
$(error BOARD=$(BOARD): no such board (one of: $(BOARD_NAMES); or BOARD=none ARCH=...))
endif
include boards/$(BOARD)/board.mk
# hal/<arch>/hal.mk: HAL_SRCS, HAL_INC, HAL_CDL, HAL_LDPATH, HAL_LDFILES, HAL_PKG_CFLAGS,
#                    HAL_PG_CFLAGS (what -pg code also needs), HAL_MCOUNT_SRCS,
#                    HAL_MCOUNT_SYMBOL; and the architecture alone
#                    (BOARD=none): HAL_ARCH_SRCS, HAL_ARCH_INC, HAL_ARCH_CDL, HAL_CROSS_COMPILE
include hal/$(ARCH)/hal.mk
# hal/common/common.mk: COMMON_SRCS, COMMON_INC, COMMON_CDL (the C library glue)
include hal/common/common.mk
endif
# target/target.mk: PROFILE_SRCS, PROFILE_INC
include target/target.mk
# target/lwip.mk: lwIP and the TFTP daemon in configurations with CYGPKG_NET_LWIP
include target/lwip.mk
# gdb/gdb.mk: GDB_SCRIPT
include gdb/gdb.mk

# ---- cross build of the package ---------------------------------------------------------
CROSS_CC := $(CROSS_COMPILE)gcc
CROSS_AR := $(CROSS_COMPILE)ar
CROSS_NM := $(CROSS_COMPILE)nm

# The package is never built with -pg (mcount would recurse into itself): whatever the
# user's CFLAGS say, instrumentation flags are removed here and the library is checked
# for mcount references below. The configuration's CYGPKG_PROFILE_GPROF_CFLAGS_REMOVE
# (which always holds -pg) removes more; the configurator is asked only when the user
# set values (the default is just -pg).
# CYGPKG_PROFILE_GPROF_CFLAGS_ADD adds flags (and cannot add -pg back).
PKG_CFLAGS_REMOVE := -pg -p -finstrument-functions $(if $(CDL_ID),$(call cdl_get,CYGPKG_PROFILE_GPROF_CFLAGS_REMOVE))
PKG_CFLAGS_ADD    := $(if $(CDL_ID),$(call cdl_get,CYGPKG_PROFILE_GPROF_CFLAGS_ADD))
NO_PG = $(filter-out $(PKG_CFLAGS_REMOVE),$(1))
# The stack-profiling mode's hook source: -pg code is also built with -finstrument-functions
# (target/src/stacks.c says why not mcount's).
PG_STACKS_CFLAGS := $(if $(CDL_ID),$(if $(filter 1,$(call cdl_get,CYGPKG_PROFILE_STACKS)),-finstrument-functions))

PKG_INC    := $(TB)/include $(PROFILE_INC) $(HAL_INC) $(COMMON_INC) $(BOARD_INC)
# Functions start on 16-byte boundaries (the usual bucket size) so that the package's hot
# spots (mcount) are not charged to a neighbour in a gprof flat profile.
PKG_CFLAGS := $(call NO_PG,$(BOARD_CPUFLAGS) $(LIBC_CFLAGS) -O2 -g -std=gnu11 -Wall -Wextra \
              -Werror=implicit-function-declaration -ffunction-sections -fdata-sections \
              -falign-functions=16 $(CFLAGS) $(PKG_CFLAGS_ADD) $(HAL_PKG_CFLAGS)) $(addprefix -I,$(PKG_INC))

PKG_SRCS := $(PROFILE_SRCS) $(HAL_SRCS) $(COMMON_SRCS) $(BOARD_SRCS)
PKG_OBJS := $(patsubst %,$(TB)/obj/%.o,$(PKG_SRCS))
PROFILE_LIB := $(TB)/lib/libprofile.a

PKGCONF_H := $(TB)/include/pkgconf/system.h $(TB)/include/pkgconf/profile_gprof.h

# Rewritten only when the flags change, so that changed flags rebuild the package.
PKG_FLAGS_STAMP := $(TB)/obj/flags
$(PKG_FLAGS_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(CROSS_CC) $(PKG_CFLAGS)' | cmp -s - $@ || echo '$(CROSS_CC) $(PKG_CFLAGS)' > $@
.PHONY: FORCE
FORCE:

$(TB)/obj/%.c.o: %.c $(PKGCONF_H) $(PKG_FLAGS_STAMP) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	$(CROSS_CC) $(PKG_CFLAGS) -MMD -MP -c $< -o $@
$(TB)/obj/%.S.o: %.S $(PKGCONF_H) $(PKG_FLAGS_STAMP) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	$(CROSS_CC) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

# Only the HAL's mcount stub may mention the mcount symbol; anything else means -pg leaked in.
$(PROFILE_LIB): $(PKG_OBJS) tools/check-no-pg
	@mkdir -p $(@D)
	@tools/check-no-pg $(CROSS_NM) $(HAL_MCOUNT_SYMBOL) \
	  $(filter-out $(patsubst %,$(TB)/obj/%.o,$(HAL_MCOUNT_SRCS)),$(PKG_OBJS))
	rm -f $@ && $(CROSS_AR) rcs $@ $(PKG_OBJS)

-include $(PKG_OBJS:.o=.d)

# The linker script fragment that gathers the package's own code (not its startup, C library
# glue, drivers or lwIP, which are the application's as far as profiling goes) into one run,
# __profile_text_start..__profile_text_end: a timer sample there is profiler overhead, in no
# bin (target/src/hist.c). Every HAL's linker script INCLUDEs it inside .text; so may a
# linker script of one's own (doc/porting.md). Rewritten only when the file list changes,
# through a file of this make's own (tests run makes in one tree side by side).
PROFILE_OWN_SRCS := $(filter target/src/%,$(PROFILE_SRCS)) $(HAL_MCOUNT_SRCS)
PROFILE_TEXT_LD  := $(TB)/lib/profile_text.ld
$(PROFILE_TEXT_LD): FORCE
	@mkdir -p $(@D)
	@{ echo '/* Generated by make: the profiling package'"'"'s own code, one run (INCLUDE inside .text). */'; \
	   echo '/* 16-byte aligned at both ends: a 16-byte histogram bucket (the usual size) holds'; \
	   echo '   the package'"'"'s code or the application'"'"'s, never both, so that gprof charges none'; \
	   echo '   of the application'"'"'s samples to the package. Absolute symbols: no reader of'; \
	   echo '   the symbol table takes them for functions (gprof would list them). */'; \
	   echo '. = ALIGN(16);'; \
	   echo '__profile_text_start = ABSOLUTE(.);'; \
	   $(foreach s,$(PROFILE_OWN_SRCS),echo '*libprofile.a:$(notdir $(s)).o(.text .text.*)';) \
	   echo '. = ALIGN(16);'; \
	   echo '__profile_text_end = ABSOLUTE(.);'; } > $@.$$$$.tmp && \
	 if cmp -s $@.$$$$.tmp $@; then rm -f $@.$$$$.tmp; else mv -f $@.$$$$.tmp $@; fi
$(PROFILE_LIB): $(PROFILE_TEXT_LD)

# ---- configuration (pkgconf headers) ----------------------------------------------------
# PKGCONF_CMD (cdl/configure) checks the configuration and writes $(TB)/include/pkgconf/*.h,
# each header only when its contents change, so that only what depends on a changed header
# is rebuilt. It runs again when a CDL script changes or when its command line (the user
# values) changes: $(TB)/cdl/args records the command line. See doc/configuration.md.
$(TB)/cdl/args: cdl-force
	@mkdir -p $(@D)
	@printf '%s\n' $(call cdl_quote,$(PKGCONF_CMD)) > $@.tmp$$$$; \
	 if cmp -s $@.tmp$$$$ $@; then rm -f $@.tmp$$$$; else mv -f $@.tmp$$$$ $@; fi
$(TB)/cdl/stamp: $(TB)/cdl/args $(PKGCONF_DEPS) | $(SETUP_STAMP)
	$(PKGCONF_CMD)
	@touch $@
$(PKGCONF_H) &: $(TB)/cdl/stamp
	@for h in $(PKGCONF_H); do [ -f $$h ] || { $(PKGCONF_CMD); break; }; done
.PHONY: cdl-force
cdl-force:

# ---- applications -----------------------------------------------------------------------
# Flags an application uses, in the tree and (via profile.mk) from an install tree.
# (LIBC_CFLAGS, LIBC_LDFLAGS, LIBC_LIBS: the C library's, from hal/common/common.mk.)
APP_CFLAGS  = $(BOARD_CPUFLAGS) $(LIBC_CFLAGS) -O2 -g -ffunction-sections -fdata-sections
APP_LDFLAGS = $(BOARD_CPUFLAGS) $(LIBC_LDFLAGS) -Wl,--gc-sections -nostartfiles
APP_LIBS    = -Wl,--start-group -lprofile $(LIBC_LIBS) -lgcc -Wl,--end-group
# Instrumented code's too: -pg, what the architecture adds (HAL_PG_CFLAGS), and in the
# stack-profiling mode the function hooks.
APP_PG_CFLAGS = -pg $(HAL_PG_CFLAGS) $(PG_STACKS_CFLAGS)

# $(call firmware,NAME,PG_SOURCES,PLAIN_SOURCES): build $(TB)/fw/NAME.elf against the in-tree
# package, PG_SOURCES compiled with -pg, PLAIN_SOURCES without.
define firmware
$(TB)/fw/$(1).elf: $(patsubst %,$(TB)/fw/$(1)/pg/%.o,$(2)) $(patsubst %,$(TB)/fw/$(1)/plain/%.o,$(3)) \
                   $(PROFILE_LIB) $(BOARD_LDSCRIPT) $(HAL_LDFILES)
	$$(CROSS_CC) $$(APP_LDFLAGS) -T$(BOARD_LDSCRIPT) -L$(TB)/lib $(addprefix -L,$(HAL_LDPATH)) -Wl,-Map,$$@.map \
	  $(patsubst %,$(TB)/fw/$(1)/pg/%.o,$(2)) $(patsubst %,$(TB)/fw/$(1)/plain/%.o,$(3)) $$(APP_LIBS) -o $$@
	$(if $(PG_STACKS_CFLAGS),@tools/check-hooks $(CROSS_COMPILE)objdump $$@ || { rm -f $$@; exit 1; })
$(TB)/fw/$(1)/pg/%.c.o: %.c $(PKGCONF_H) | $(SETUP_STAMP)
	@mkdir -p $$(@D)
	$$(CROSS_CC) $$(APP_CFLAGS) $$(APP_PG_CFLAGS) $$(addprefix -I,$$(PKG_INC)) -MMD -MP -c $$< -o $$@
$(TB)/fw/$(1)/plain/%.c.o: %.c $(PKGCONF_H) | $(SETUP_STAMP)
	@mkdir -p $$(@D)
	$$(CROSS_CC) $$(APP_CFLAGS) $$(addprefix -I,$$(PKG_INC)) -MMD -MP -c $$< -o $$@
-include $(patsubst %,$(TB)/fw/$(1)/pg/%.d,$(2)) $(patsubst %,$(TB)/fw/$(1)/plain/%.d,$(3))
endef

# ---- install tree -----------------------------------------------------------------------
# A board's tree: $(PREFIX)/<board>; the architecture-only one: $(PREFIX)/none-<arch>, without
# linker script, runner or -T (the firmware has its own).
INSTALL_DIR := $(PREFIX)/$(BOARD_DIR_NAME)
.PHONY: install install-target
install: install-target
install-target: $(PROFILE_LIB) $(PKGCONF_H)
	@mkdir -p $(INSTALL_DIR)/include $(INSTALL_DIR)/lib $(INSTALL_DIR)/bin $(INSTALL_DIR)/share
	cp -r $(addsuffix /.,$(PKG_INC)) $(INSTALL_DIR)/include/
	cp $(PROFILE_LIB) $(PROFILE_TEXT_LD) $(BOARD_LDSCRIPT) $(HAL_LDFILES) $(INSTALL_DIR)/lib/
ifneq ($(BOARD_RUN),)
	cp $(BOARD_RUN) $(INSTALL_DIR)/bin/run-qemu
	cp $(dir $(BOARD_RUN))qemu.conf $(INSTALL_DIR)/bin/qemu.conf
endif
	cp $(GDB_SCRIPT) $(INSTALL_DIR)/share/gprof.gdb
	cp tools/check-hooks $(INSTALL_DIR)/bin/check-hooks
	mkdir -p $(INSTALL_DIR)/share/rtos && cp -r rtos/freertos $(INSTALL_DIR)/share/rtos/
# (the flags for an application's build: lib/profile.mk, the CMake package, gprof-rtos.pc)
include buildsys/buildsys.mk

# ---- the rest ---------------------------------------------------------------------------
# Unit tests, QEMU tests, demo, bench; each adds to TESTS / BENCHES.
TESTS :=
BENCHES :=
include tests/tests.mk
include cdl/tests/tests.mk
-include host/host.mk
-include demo/demo.mk

.PHONY: all test bench clean
all: $(PROFILE_LIB)

# Tests run TEST_JOBS at a time (tools/run-tests), and what they run against is built as
# many jobs at a time unless make was given a -j of its own.
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
.PHONY: test-deps
test-deps: $(SETUP_STAMP) $(TEST_DEPS)
test:
ifneq ($(BOARD),$(REFERENCE_BOARD))
	$(error make test runs on the reference board $(REFERENCE_BOARD) and every other board's suite with it; for one board: make BOARD=$(BOARD) test-board)
endif
	@$(MAKE) --no-print-directory $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(TEST_JOBS)) test-deps
	@TEST_JOBS=$(TEST_JOBS) tools/run-tests $(TESTS)

bench: $(SETUP_STAMP) $(BENCH_DEPS)
	@for b in $(BENCHES); do $$b || exit 1; done
	@for b in $(OTHER_BOARDS); do $(MAKE) --no-print-directory BOARD=$$b bench-board || exit 1; done

clean:
	rm -rf $(BUILD) install
