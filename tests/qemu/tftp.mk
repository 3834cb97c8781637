# TFTP extraction over lwIP: the firmware (built in a configuration with lwIP, see
# target/lwip.mk), QEMU end-to-end tests with real clients, the benchmark, `make demo-tftp`.
# The firmware is copied to a fixed place per board, whatever its configuration's directory is.
#
# $(call net_firmware,NAME,PG_SOURCES,PLAIN_SOURCES): $(BUILD)/$(BOARD)/net/NAME.elf, built as
# $(call firmware,...) does but in the TFTP configuration (lwIP, the daemon, snapshots).
define net_firmware
ifeq ($$(NET_LWIP),1)
# This build's configuration has lwIP: build the firmware here.
$$(eval $$(call firmware,$(1),$(2),$(3)))
# (copied atomically: a concurrent make test in the same tree may be reading it)
$(BUILD)/$(BOARD)/net/$(1).elf: $$(TB)/fw/$(1).elf
	@mkdir -p $$(@D)
	cp $$< $$@.$$$$$$$$.tmp && mv -f $$@.$$$$$$$$.tmp $$@
else
# Any other configuration: a sub-make builds the firmware with lwIP added (in the
# directory of that configuration; this one's objects are not touched). Under make -j the
# sub-makes of two such firmware (tftp, sweep) take turns: they build one library.
.PHONY: $(BUILD)/$(BOARD)/net/$(1).elf
$(BUILD)/$(BOARD)/net/$(1).elf: | $$(SETUP_STAMP)
	@mkdir -p $$(@D) && flock $$(@D)/.make.lock $$(MAKE) --no-print-directory $$(TFTP_CONFIG) $$@
endif
endef

TFTP_FW := $(BUILD)/$(BOARD)/net/tftp.elf
$(eval $(call net_firmware,tftp,tests/qemu/tftp_app.c,tests/qemu/tftp_support.c))
ifeq ($(NET_LWIP),1)
# lwIP's sources appear with `make setup`: let the pattern rules wait for it.
$(LWIP_SRCS): | $(SETUP_STAMP)
endif

TESTS      += tests/qemu/test_tftp.py tests/qemu/test_tftp_abuse.py
TEST_DEPS  += $(TFTP_FW)
BENCHES    += tests/qemu/bench-tftp
BENCH_DEPS += $(TFTP_FW)

.PHONY: demo-tftp
demo-tftp: $(SETUP_STAMP) $(TFTP_FW)
	@GPROF=$(CROSS_COMPILE)gprof tests/qemu/run-demo-tftp $(BOARD_RUN) $(TFTP_FW) $(BUILD)/demo-tftp/$(BOARD)
