# ---- the truth oracle: sampled shares against QEMU's instruction trace ------------------
# tests/qemu/truth.c at -O2, a strictly periodic loop, profiled at round intervals (1000 us,
# 100 us, over flash and .ramfunc, the autostart's default), in both modes, at two -icount
# shifts (tests/qemu/test_truth.py); on a board of every architecture.
TRUTH_BOARDS := mps2-an385 microbit vexpress-a9 vexpress-a9-thumb riscv32-virt riscv64-virt
$(eval $(call firmware,truth,tests/qemu/truth.c tests/qemu/truth_work.c,tests/qemu/truth_support.c tests/qemu/support.c))
$(eval $(call stacks_variant,stacks,truth,$(STACKS_CFG)))
$(eval $(call stacks_variant,nodither,truth,CYGSEM_PROFILE_TIMER_DITHER=0))
TRUTH_FW := $(TB)/fw/truth.elf $(TB)/fw/truth-stacks.elf $(TB)/fw/truth-nodither.elf
ifneq ($(filter $(BOARD),$(TRUTH_BOARDS)),)
test-board-deps: $(TRUTH_FW)
endif
TESTS     += tests/qemu/test_truth.py $(foreach b,$(filter-out $(BOARD),$(TRUTH_BOARDS)),tests/qemu/test_truth.py@$(b))
TEST_DEPS += $(TRUTH_FW)
# (functions start on bucket boundaries, as the README advises: no bucket is shared)
$(TB)/fw/truth/pg/%.c.o $(TB)/fw/truth/plain/%.c.o: APP_CFLAGS += -falign-functions=16
# make bench: the oracle's worst share error with and without dithering (each TRUTH_BOARDS
# board's bench-board)
BENCHES    += tests/bench/bench-truth
BENCH_DEPS += $(TB)/fw/truth.elf $(TB)/fw/truth-nodither.elf
ifneq ($(filter $(BOARD),$(TRUTH_BOARDS)),)
bench-board: bench-truth-board
endif
.PHONY: bench-truth-board
bench-truth-board: $(TB)/fw/truth.elf $(TB)/fw/truth-nodither.elf
	@tests/bench/bench-truth

# ---- sampling after masked sections: one board per profile timer driver -----------------
# tests/qemu/masked.c masks interrupts for 1 to 6 periods and a fraction, again and again:
# every timer's catch-up must leave it running (tests/qemu/test_masked.py).
MASKED_BOARDS := mps2-an385 microbit vexpress-a9 riscv32-virt
$(eval $(call firmware,masked,,tests/qemu/masked.c tests/qemu/support.c))
ifneq ($(filter $(BOARD),$(MASKED_BOARDS)),)
test-board-deps: $(TB)/fw/masked.elf
endif
TESTS     += tests/qemu/test_masked.py $(foreach b,$(filter-out $(BOARD),$(MASKED_BOARDS)),tests/qemu/test_masked.py@$(b))
TEST_DEPS += $(TB)/fw/masked.elf
