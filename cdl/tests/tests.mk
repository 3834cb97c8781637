# Tests of the configuration: the configurator and its place in the build
# (test_configure.sh), and that every option has its effect on the firmware
# (test_options.sh, which builds cdl/tests/probe*.c in several configurations).
$(eval $(call firmware,cdlprobe,,cdl/tests/probe.c))
$(eval $(call firmware,cdlprobe-pg,cdl/tests/probe_pg.c,cdl/tests/probe.c))

TESTS     += cdl/tests/test_configure.sh cdl/tests/test_options.sh
TEST_DEPS += $(TB)/fw/cdlprobe.elf $(TB)/fw/cdlprobe-pg.elf
