# TFTP extraction over lwIP: the firmware (built in the TFTP configuration, see
# target/lwip.mk), QEMU end-to-end tests with real clients, the benchmark, `make demo-tftp`.
# The firmware is copied to a fixed place, whatever the configuration's directory is.
TFTP_FW := $(BUILD)/tftp/tftp.elf

ifeq ($(NET_LWIP),1)
# The TFTP configuration's build.
$(eval $(call firmware,tftp,tests/qemu/tftp_app.c,tests/qemu/tftp_support.c))
$(TFTP_FW): $(TB)/fw/tftp.elf
	@mkdir -p $(@D)
	cp $< $@
# lwIP's sources appear with `make setup`: let the pattern rules wait for it.
$(LWIP_SRCS): | $(SETUP_STAMP)
else
# Any other build: a sub-make builds the firmware in the TFTP configuration.
.PHONY: $(TFTP_FW) demo-tftp
$(TFTP_FW): | $(SETUP_STAMP)
	@$(MAKE) --no-print-directory $(TFTP_CONFIG) $@

TESTS      += tests/qemu/test_tftp.py tests/qemu/test_tftp_abuse.py
TEST_DEPS  += $(TFTP_FW)
BENCHES    += tests/qemu/bench-tftp
BENCH_DEPS += $(TFTP_FW)

demo-tftp: $(SETUP_STAMP) $(TFTP_FW)
	@tests/qemu/run-demo-tftp $(BOARD_RUN) $(TFTP_FW) $(BUILD)/demo-tftp
endif
