# TFTP extraction over lwIP: the firmware (built in a configuration with lwIP, see
# target/lwip.mk), QEMU end-to-end tests with real clients, the benchmark, `make demo-tftp`.
# The firmware is copied to a fixed place, whatever its configuration's directory is.
TFTP_FW := $(BUILD)/tftp/tftp.elf

ifeq ($(NET_LWIP),1)
# This build's configuration has lwIP: build the firmware here.
$(eval $(call firmware,tftp,tests/qemu/tftp_app.c,tests/qemu/tftp_support.c))
# (copied atomically: a concurrent make test in the same tree may be reading it)
$(TFTP_FW): $(TB)/fw/tftp.elf
	@mkdir -p $(@D)
	cp $< $@.$$$$.tmp && mv -f $@.$$$$.tmp $@
# lwIP's sources appear with `make setup`: let the pattern rules wait for it.
$(LWIP_SRCS): | $(SETUP_STAMP)
else
# Any other configuration: a sub-make builds the firmware with lwIP added (in the
# directory of that configuration; this one's objects are not touched).
.PHONY: $(TFTP_FW)
$(TFTP_FW): | $(SETUP_STAMP)
	@$(MAKE) --no-print-directory $(TFTP_CONFIG) $@
endif

TESTS      += tests/qemu/test_tftp.py tests/qemu/test_tftp_abuse.py
TEST_DEPS  += $(TFTP_FW)
BENCHES    += tests/qemu/bench-tftp
BENCH_DEPS += $(TFTP_FW)

.PHONY: demo-tftp
demo-tftp: $(SETUP_STAMP) $(TFTP_FW)
	@tests/qemu/run-demo-tftp $(BOARD_RUN) $(TFTP_FW) $(BUILD)/demo-tftp
