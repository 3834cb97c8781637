# make demo: the main job, from firmware to "where did the time go".
$(eval $(call firmware,demo,demo/demo.c,))

.PHONY: demo
demo: $(SETUP_STAMP) $(TB)/fw/demo.elf
	@GPROF=$(CROSS_COMPILE)gprof demo/run-demo $(BOARD_RUN) $(TB)/fw/demo.elf $(BUILD)/demo/$(BOARD)
