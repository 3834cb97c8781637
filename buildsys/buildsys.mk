# What an install tree tells an application's build, in three build systems' terms:
#   lib/profile.mk                   make (include it; PROFILE_CC, PROFILE_CFLAGS, ...)
#   lib/cmake/GprofRtos/             CMake: find_package(GprofRtos), and toolchain.cmake
#   lib/pkgconfig/gprof-rtos.pc      pkg-config, for every other build system
# Each is written by a script of this folder from the facts below, which are the flags the
# project's own firmware is built with (APP_CFLAGS, APP_PG_CFLAGS, APP_LDFLAGS, APP_LIBS):
# no build system has a copy of its own to drift. (GprofRtosConfig.cmake and
# toolchain.cmake hold no flags: they read the generated GprofRtosBoard.cmake.)
.PHONY: install-buildsys
install: install-buildsys
install-buildsys: export INSTALL_TREE          = $(strip $(INSTALL_DIR))
install-buildsys: export INSTALL_NAME          = $(strip $(BOARD_DIR_NAME))
install-buildsys: export INSTALL_ARCH          = $(strip $(ARCH))
install-buildsys: export INSTALL_CROSS_COMPILE = $(strip $(CROSS_COMPILE))
# (the CPU and C library flags alone: what a toolchain file gives every compile)
install-buildsys: export INSTALL_CPUFLAGS      = $(strip $(BOARD_CPUFLAGS) $(LIBC_CFLAGS))
install-buildsys: export INSTALL_OPT           = $(strip $(filter -O%,$(APP_CFLAGS)))
install-buildsys: export INSTALL_CFLAGS        = $(strip $(filter-out -O%,$(APP_CFLAGS)))
install-buildsys: export INSTALL_PG_CFLAGS     = $(strip $(APP_PG_CFLAGS))
install-buildsys: export INSTALL_LDFLAGS       = $(strip $(APP_LDFLAGS))
install-buildsys: export INSTALL_LDSCRIPT      = $(strip $(notdir $(BOARD_LDSCRIPT)))
install-buildsys: export INSTALL_LIBS          = $(strip $(APP_LIBS))
install-buildsys: export INSTALL_AUTOSTART     = $(strip $(PROFILE_AUTOSTART_LDFLAGS))
install-buildsys: export INSTALL_RUN           = $(strip $(if $(BOARD_RUN),bin/run-qemu))
install-buildsys: install-target
	@mkdir -p $(INSTALL_DIR)/lib/cmake/GprofRtos $(INSTALL_DIR)/lib/pkgconfig
	buildsys/write-profile-mk > $(INSTALL_DIR)/lib/profile.mk
	buildsys/write-cmake-board > $(INSTALL_DIR)/lib/cmake/GprofRtos/GprofRtosBoard.cmake
	cp buildsys/GprofRtosConfig.cmake buildsys/toolchain.cmake $(INSTALL_DIR)/lib/cmake/GprofRtos/
	buildsys/write-pkg-config > $(INSTALL_DIR)/lib/pkgconfig/gprof-rtos.pc
	@echo "installed $(BOARD_DIR_NAME) package in $(INSTALL_DIR)"
