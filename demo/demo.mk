# make demo: the main job, from firmware to "where did the time go".
$(eval $(call firmware,demo,demo/demo.c,))

# (functions start on 16-byte buckets, as the README advises: no bucket holds two)
$(TB)/fw/demo/pg/%.c.o $(TB)/fw/demo-semihosting/pg/%.c.o $(TB)/fw/demo-stacks/pg/%.c.o: \
  APP_CFLAGS += -falign-functions=16

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

# make demo-stacks: the light/heavy/work firmware (demo/stacks.c) in the stack-profiling
# mode (CYGPKG_PROFILE_STACKS: its configuration's own build directory, by a sub-make),
# extracted by gdb: GNU gprof's entry for work (split by call counts) beside tgprof's,
# measured from gmon.stacks; build/demo/flame.svg and build/demo/stacks.folded.
$(eval $(call firmware,demo-stacks,demo/stacks.c,))
DEMO_STACKS_CFG := CYGPKG_PROFILE_STACKS=1

$(eval $(call stacks_variant,mode,demo-stacks,$(DEMO_STACKS_CFG)))

.PHONY: demo-stacks
demo-stacks: $(SETUP_STAMP) $(TGPROF) $(TB)/fw/demo-stacks-mode.elf
	@GPROF=$(CROSS_COMPILE)gprof TGPROF=$(TGPROF) demo/run-demo-stacks $(BOARD_RUN) \
	  $(TB)/fw/demo-stacks-mode.elf $(BUILD)/demo

# (the test of it: the reference board; it also loads the speedscope export into the real
# speedscope, from the npm registry, in headless Chromium)
SPEEDSCOPE := $(BUILD)/npm/node_modules/speedscope/dist/release/index.html
$(SPEEDSCOPE): | $(SETUP_STAMP)
	@tools/setup speedscope $(BUILD)/npm
TESTS     += tests/qemu/test_demo_stacks.sh
TEST_DEPS += $(TB)/fw/demo-stacks-mode.elf $(TGPROF) $(SPEEDSCOPE)

# make demo-rtos: a preemptive kernel with FreeRTOS's Cortex-M mechanisms (tests/qemu/
# rtos_kernel.c, test_rtos.py's, in the stack-profiling mode: ARMv7-M, the reference board)
# extracted by gdb: the per-task table, and build/demo/rtos-flame.svg, whose task frames
# carry the tasks' names (gmon.tasks).
.PHONY: demo-rtos
demo-rtos: $(SETUP_STAMP) $(TGPROF) $(TB)/fw/rtos-mode.elf
	@$(if $(filter armv7m,$(ARCH)),,echo "demo-rtos: an ARMv7-M board (BOARD=$(REFERENCE_BOARD)), not $(BOARD)"; exit 2;)
	@TGPROF=$(TGPROF) demo/run-demo-rtos $(BOARD_RUN) $(TB)/fw/rtos-mode.elf $(BUILD)/demo
TESTS     += tests/qemu/test_demo_rtos.py
TEST_DEPS += $(TB)/fw/rtos-mode.elf $(TGPROF)
