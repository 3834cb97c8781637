# make demo: the main job, from firmware to "where did the time go".
$(eval $(call firmware,demo,demo/demo.c,))

.PHONY: demo
demo: $(SETUP_STAMP) $(TB)/fw/demo.elf
	@GPROF=$(CROSS_COMPILE)gprof demo/run-demo $(BOARD_RUN) $(TB)/fw/demo.elf $(BUILD)/demo/$(BOARD)

# make demo-semihosting: the native gprof flow, no debugger: the demo linked with the
# PROFILE_AUTOSTART flags, run in QEMU; it writes gmon.out into QEMU's current directory at
# exit (semihosting); then gprof.
$(eval $(call firmware,demo-semihosting,demo/demo.c,))
$(TB)/fw/demo-semihosting.elf: APP_LDFLAGS += $(PROFILE_AUTOSTART_LDFLAGS)

.PHONY: demo-semihosting
demo-semihosting: $(SETUP_STAMP) $(TB)/fw/demo-semihosting.elf
	@GPROF=$(CROSS_COMPILE)gprof tests/semihosting/run-demo-semihosting $(BOARD_RUN) \
	  $(TB)/fw/demo-semihosting.elf $(BUILD)/demo-semihosting/$(BOARD)
