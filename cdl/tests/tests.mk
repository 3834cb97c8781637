# Tests of the configuration: the configurator and its place in the build
# (test_configure.sh), and that every option has its effect on the firmware
# (test_options.sh builds cdl/tests/probe*.c in several configurations and runs them;
# test_tftp_port.py serves gmon.out on a configured port).
$(eval $(call firmware,cdlprobe,,cdl/tests/probe.c))
$(eval $(call firmware,cdlprobe-pg,cdl/tests/probe_pg.c,cdl/tests/probe.c))

TESTS     += cdl/tests/test_configure.sh cdl/tests/test_options.sh cdl/tests/test_tftp_port.py \
             cdl/tests/test_losses.py
TEST_DEPS += $(TB)/fw/cdlprobe.elf $(TB)/fw/cdlprobe-pg.elf
# test_tftp_port.py runs alone (tests/schedule): its configurations are built beforehand,
# beside the rest of the build.
.PHONY: tftp-port-fw
tftp-port-fw: | $(SETUP_STAMP)
	@BOARD=$(BOARD) cdl/tests/test_tftp_port.py --build
TEST_DEPS += tftp-port-fw
