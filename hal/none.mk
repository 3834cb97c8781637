# BOARD=none: the architecture-only package, for firmware that brings its own startup code,
# vector table, linker script, C library glue and profile timer (a vendor SDK's; see
# doc/porting.md, "Bring your own board"):
#   make BOARD=none ARCH=armv7m CPUFLAGS='-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16' install
# The library holds the portable package and the architecture's mcount stub; the firmware
# provides hal_enable_profile_timer(), hal_disable_profile_timer() and the timer's interrupt
# handler calling __profile_hit() (cdl/hal_app_timer.cdl stands for them in the configuration).
ifeq ($(ARCH),)
$(error BOARD=none needs ARCH=<one of: $(notdir $(patsubst %/hal.mk,%,$(wildcard hal/*/hal.mk)))>)
endif
ifeq ($(filter $(ARCH),$(patsubst hal/%/hal.mk,%,$(wildcard hal/*/hal.mk))),)
$(error ARCH=$(ARCH): no such architecture HAL (one of: $(patsubst hal/%/hal.mk,%,$(wildcard hal/*/hal.mk))))
endif
ifeq ($(strip $(CPUFLAGS)),)
$(error BOARD=none needs CPUFLAGS='the -mcpu/-m flags of your firmware', e.g. CPUFLAGS='-mcpu=cortex-m3 -mthumb')
endif
include hal/$(ARCH)/hal.mk
include hal/common/common.mk
CROSS_COMPILE  ?= $(HAL_CROSS_COMPILE)
BOARD_CPUFLAGS := $(CPUFLAGS)
HAL_SRCS       := $(HAL_ARCH_SRCS)
HAL_INC        := $(HAL_ARCH_INC)
HAL_CDL        := $(HAL_ARCH_CDL)
HAL_LDPATH     :=
HAL_LDFILES    :=
COMMON_SRCS    :=
COMMON_INC     :=
COMMON_CDL     :=
BOARD_SRCS     :=
BOARD_INC      :=
BOARD_CDL      := cdl/hal_app_timer.cdl
BOARD_LDSCRIPT :=
BOARD_RUN      :=
