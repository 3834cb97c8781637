# What an install tree tells an application's build: lib/profile.mk, the make variables
# (PROFILE_CC, PROFILE_CFLAGS, ...). Written by a script of this folder from the facts
# below, which are the flags the project's own firmware is built with (APP_CFLAGS,
# APP_PG_CFLAGS, APP_LDFLAGS, APP_LIBS).
.PHONY: install-buildsys
install: install-buildsys
install-buildsys: export INSTALL_TREE          = $(strip $(INSTALL_DIR))
install-buildsys: export INSTALL_NAME          = $(strip $(BOARD_DIR_NAME))
install-buildsys: export INSTALL_CROSS_COMPILE = $(strip $(CROSS_COMPILE))
install-buildsys: export INSTALL_OPT           = $(strip $(filter -O%,$(APP_CFLAGS)))
install-buildsys: export INSTALL_CFLAGS        = $(strip $(filter-out -O%,$(APP_CFLAGS)))
install-buildsys: export INSTALL_PG_CFLAGS     = $(strip $(APP_PG_CFLAGS))
install-buildsys: export INSTALL_LDFLAGS       = $(strip $(APP_LDFLAGS))
install-buildsys: export INSTALL_LDSCRIPT      = $(strip $(notdir $(BOARD_LDSCRIPT)))
install-buildsys: export INSTALL_LIBS          = $(strip $(APP_LIBS))
install-buildsys: export INSTALL_AUTOSTART     = $(strip $(PROFILE_AUTOSTART_LDFLAGS))
install-buildsys: export INSTALL_RUN           = $(strip $(if $(BOARD_RUN),bin/run-qemu))
install-buildsys: install-target
	buildsys/write-profile-mk > $(INSTALL_DIR)/lib/profile.mk
	@echo "installed $(BOARD_DIR_NAME) package in $(INSTALL_DIR)"
