# The CDL configuration of a build: which option values it uses, and where it builds.
# Included by the Makefile before TB is defined. See doc/configuration.md.
#
#   make [CONFIG=FILE] [CYG...=VALUE ...] [target]
#
#   CONFIG=FILE        user values from FILE: "NAME = VALUE" lines and # comments, or an eCos
#                      save file (ecos.ecc) with user_value properties
#   CYG...=VALUE       user values on make's command line (they win over CONFIG); e.g.
#                      CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=10, CYGPKG_PROFILE_CALLGRAPH=0,
#                      CYGPKG_NET_LWIP=1 (adds the lwIP package to the configuration)
#   make config        lists every option: value, default, legal values, description
#
# The default configuration (no CONFIG, no CYG... variable) builds in $(BUILD)/$(BOARD);
# any other in $(BUILD)/$(BOARD)-cfg-<checksum of the user values>, so two configurations
# never share an object file, and switching between them rebuilds nothing.

# (CONFIG is a common name: one that comes from the environment is not taken for ours.)
ifneq ($(filter environment%,$(origin CONFIG)),)
CONFIG :=
endif
CONFIG ?=
CDL_CONFIGURE := cdl/configure

ifneq ($(CONFIG),)
ifeq ($(wildcard $(CONFIG)),)
$(error CONFIG=$(CONFIG): no such file)
endif
endif

# A command-line variable that spells CYG in another case is a typo that would otherwise be
# ignored without a word: stop.
CDL_CMDLINE_NAMES := $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $v)),$v))
cdl_cyg_upper = $(subst c,C,$(subst y,Y,$(subst g,G,$(1))))
CDL_MISCASED := $(strip $(foreach v,$(filter-out CYG%,$(CDL_CMDLINE_NAMES)),$(if $(filter CYG%,$(call cdl_cyg_upper,$v)),$v)))
ifneq ($(CDL_MISCASED),)
$(error $(firstword $(CDL_MISCASED)): configuration options are spelt in capitals (CYG...); see make config)
endif

# CYG* variables from make's command line (also when make passes them on to a sub-make),
# as shell words 'NAME=VALUE'.
CDL_USER_NAMES := $(sort $(filter CYG%,$(CDL_CMDLINE_NAMES)))
cdl_quote = '$(subst ','\'',$(1))'
CDL_USER_VALUES := $(foreach v,$(CDL_USER_NAMES),$(call cdl_quote,$v=$($v)))

# The build directory's suffix: a checksum of the CONFIG file's contents and the values.
CDL_ID := $(if $(strip $(CONFIG)$(CDL_USER_NAMES)),$(shell { $(if $(CONFIG),cat $(call cdl_quote,$(CONFIG));) \
            printf '%s\n' $(CDL_USER_VALUES); } | cksum | cut -d' ' -f1))
CDL_SUFFIX := $(if $(CDL_ID),-cfg-$(CDL_ID))

# The packages every configuration of this board has: the profiling package, the
# architecture HAL (HAL_CDL: its own and the family's, e.g. hal/cortexm), the C library glue
# (COMMON_CDL), the board and its drivers (BOARD_CDL). (They come from board.mk, hal.mk and
# common.mk, included later; hence "=".)
CDL_FILES = cdl/profile_gprof.cdl $(HAL_CDL) $(COMMON_CDL) $(wildcard boards/$(BOARD)/*.cdl) $(BOARD_CDL)

# Arguments of cdl/configure for this build's configuration. Other fragments may append
# user values of their own (e.g. PKGCONF_CMD += CYGPKG_NET_LWIP=1).
CDL_ARGS = $(if $(CONFIG),-c $(call cdl_quote,$(CONFIG))) $(CDL_FILES) $(CDL_USER_VALUES)

# $(call cdl_get,NAME): NAME's value in this build's configuration, asked of the configurator
# while make reads its files (nothing if the configuration is broken: the build's own
# configure step reports why).
cdl_get = $(shell $(CDL_CONFIGURE) -q $(CDL_ARGS) --get $(1) 2>/dev/null)

# What a configuration depends on, besides the values: the configurator, every CDL script
# it may read, the CONFIG file.
CDL_DEPS = $(CDL_CONFIGURE) $(CDL_FILES) $(wildcard cdl/*.cdl) $(CONFIG)

# The unit tests' configuration (host, fake HAL; always the defaults): header rule recipe.
CDL_UNIT_FILES := cdl/profile_gprof.cdl cdl/tests/hal_host.cdl
CDL_UNIT_DEPS  := $(CDL_CONFIGURE) $(CDL_UNIT_FILES)
CDL_UNIT_CMD    = $(CDL_CONFIGURE) -q --prefix $(UNIT_DIR) $(CDL_UNIT_FILES) && touch $@

.PHONY: config config-dir config-compile config-srcs
config-dir:
	@echo $(TB)
# The files the configuration's CDL compiles ("PACKAGE FILE" lines), and the ones this build
# compiles into the package library: test_options.sh checks that they agree.
config-compile:
	@$(PKGCONF_CMD) -q --compile
config-srcs:
	@printf '%s\n' $(filter-out $(LWIP_DIR)/%,$(PKG_SRCS))
config: | $(SETUP_STAMP)
	@echo "# Configuration of $(BOARD) in $(TB)$(if $(CONFIG),; CONFIG=$(CONFIG))"
	@echo "# (values: current value [default; legal values]; INACTIVE options do not take effect)"
	@echo
	@$(PKGCONF_CMD) --list   # (--list writes no header)
