# Tests: unit tests of the portable core on the host, and QEMU end-to-end tests.

# The board whose run is make test's: every suite runs there, and the board suites below
# run on the other boards from it.
REFERENCE_BOARD := mps2-an385

# ---- host unit tests (cmocka), under ASan/UBSan ----
UNIT_DIR    := $(BUILD)/unit
UNIT_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -fsanitize=address,undefined -fno-omit-frame-pointer \
               -I$(UNIT_DIR)/include -Itarget/include -Ihal/host/include
UNIT_CORE   := $(PROFILE_SRCS) tests/unit/fake_hal.c

$(UNIT_DIR)/include/pkgconf/profile_gprof.h: $(CDL_UNIT_DEPS) | $(SETUP_STAMP)
	$(CDL_UNIT_CMD)

# Built twice: with snapshots (the spare set TFTP uses) and without (every other build).
UNIT_DEPS := tests/unit/test_core.c $(UNIT_CORE) $(wildcard target/src/*.h target/include/cyg/profile/*.h) \
             tests/unit/fake_hal.h $(wildcard hal/host/include/cyg/hal/*.h) $(UNIT_DIR)/include/pkgconf/profile_gprof.h
$(UNIT_DIR)/test_core $(UNIT_DIR)/test_core_nosnap: $(UNIT_DEPS)
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -DPROFILE_SNAPSHOT=$(if $(filter %_nosnap,$@),0,1) tests/unit/test_core.c \
	  $(UNIT_CORE) -Wl,--wrap=malloc -Wl,--wrap=memset -lcmocka -o $@

TESTS     += $(UNIT_DIR)/test_core $(UNIT_DIR)/test_core_nosnap
TEST_DEPS += $(UNIT_DIR)/test_core $(UNIT_DIR)/test_core_nosnap

# profile_on's size arithmetic in the configurations at the edges: the default arc
# percentage (with snapshots), 1 and 100 (the arc table's cap), without a call graph (no
# snapshots), and no overflow entries or the most (CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS).
UNIT_LAYOUT_CFG_default := PROFILE_SNAPSHOT=1
UNIT_LAYOUT_CFG_pct1    := PROFILE_SNAPSHOT=1 CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=1
UNIT_LAYOUT_CFG_pct100  := PROFILE_SNAPSHOT=0 CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=100
UNIT_LAYOUT_CFG_nocg    := PROFILE_SNAPSHOT=0 CYGPKG_PROFILE_CALLGRAPH=0
UNIT_LAYOUT_CFG_ovf0    := PROFILE_SNAPSHOT=1 CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS=0
UNIT_LAYOUT_CFG_ovf256  := PROFILE_SNAPSHOT=0 CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS=256
UNIT_LAYOUT_CFG_bin2    := PROFILE_SNAPSHOT=1 CYGNUM_PROFILE_HIST_BIN_BYTES=2
UNIT_LAYOUT := $(patsubst %,$(UNIT_DIR)/layout-%/test_layout,default pct1 pct100 nocg ovf0 ovf256 bin2)
# (the first word is the snapshot setting, the rest CDL user values)
$(UNIT_DIR)/layout-%/include/pkgconf/profile_gprof.h: $(CDL_UNIT_DEPS) | $(SETUP_STAMP)
	$(CDL_CONFIGURE) -q --prefix $(UNIT_DIR)/layout-$* $(CDL_UNIT_FILES) \
	  $(wordlist 2,9,$(UNIT_LAYOUT_CFG_$*)) && touch $@
$(UNIT_DIR)/layout-%/test_layout: tests/unit/test_layout.c $(UNIT_DEPS) \
                                  $(UNIT_DIR)/layout-%/include/pkgconf/profile_gprof.h
	$(CC) -I$(UNIT_DIR)/layout-$*/include $(UNIT_CFLAGS) -D$(firstword $(UNIT_LAYOUT_CFG_$*)) \
	  tests/unit/test_layout.c $(UNIT_CORE) -Wl,--wrap=malloc -Wl,--wrap=memset -lcmocka -o $@
TESTS     += $(UNIT_LAYOUT)
TEST_DEPS += $(UNIT_LAYOUT)

# The core's tests without overflow entries (CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS=0: bins
# stick at 0xFF) and with the most, and with 16-bit bins (CYGNUM_PROFILE_HIST_BIN_BYTES=2),
# with snapshots.
UNIT_OVF := $(UNIT_DIR)/test_core_ovf0 $(UNIT_DIR)/test_core_ovf256 $(UNIT_DIR)/test_core_bin2
$(UNIT_OVF): $(UNIT_DIR)/test_core_%: $(UNIT_DEPS) $(UNIT_DIR)/layout-%/include/pkgconf/profile_gprof.h
	$(CC) -I$(UNIT_DIR)/layout-$*/include $(UNIT_CFLAGS) -DPROFILE_SNAPSHOT=1 tests/unit/test_core.c \
	  $(UNIT_CORE) -Wl,--wrap=malloc -Wl,--wrap=memset -lcmocka -o $@
TESTS     += $(UNIT_OVF)
TEST_DEPS += $(UNIT_OVF)

# The dithered sampling period (<cyg/profile/dither.h>): with the 16-bit halves' scaling and
# with a multiply-high.
UNIT_DITHER := $(UNIT_DIR)/test_dither $(UNIT_DIR)/test_dither_mulhigh
$(UNIT_DITHER): tests/unit/test_dither.c $(UNIT_DEPS)
	$(CC) $(UNIT_CFLAGS) $(if $(filter %_mulhigh,$@),-DMUL_HIGH) $< -lcmocka -o $@
TESTS     += $(UNIT_DITHER)
TEST_DEPS += $(UNIT_DITHER)

# The stack-profiling mode's core (target/src/stacks.c): 8 nodes, 6 frames, 2 threads.
$(UNIT_DIR)/test_stacks: tests/unit/test_stacks.c $(UNIT_DEPS)
	$(CC) $(UNIT_CFLAGS) -DPROFILE_SNAPSHOT=0 -DCYGPKG_PROFILE_STACKS=1 \
	  -DCYGNUM_PROFILE_STACKS_NODES=8 -DCYGNUM_PROFILE_STACKS_DEPTH=6 \
	  -DCYGNUM_PROFILE_STACKS_THREADS=2 tests/unit/test_stacks.c $(UNIT_CORE) \
	  -Wl,--wrap=malloc -Wl,--wrap=memset -lcmocka -o $@
TESTS     += $(UNIT_DIR)/test_stacks
TEST_DEPS += $(UNIT_DIR)/test_stacks
# Per-task time's core (target/src/tasks.c): 3 slots (a configuration of its own, made as the
# layouts' above), with the TFTP daemon's kept table.
UNIT_LAYOUT_CFG_tasks3 := PROFILE_SNAPSHOT=1 CYGNUM_PROFILE_TASKS=3
$(UNIT_DIR)/test_tasks: tests/unit/test_tasks.c $(UNIT_DEPS) $(UNIT_DIR)/layout-tasks3/include/pkgconf/profile_gprof.h
	$(CC) -I$(UNIT_DIR)/layout-tasks3/include $(UNIT_CFLAGS) -DCYGPKG_PROFILE_TFTP=1 \
	  tests/unit/test_tasks.c $(UNIT_CORE) -Wl,--wrap=malloc -Wl,--wrap=memset -lcmocka -o $@
TESTS     += $(UNIT_DIR)/test_tasks
TEST_DEPS += $(UNIT_DIR)/test_tasks
# ... and C++ exceptions unwinding through instrumented frames (the test is C++, built with
# -finstrument-functions; the core and its probe are C, not instrumented).
$(UNIT_DIR)/test_stacks_cxx: tests/unit/test_stacks_cxx.cc tests/unit/stacks_cxx_probe.c $(UNIT_DEPS)
	$(CXX) -std=gnu++17 -g -O1 -Wall -Wextra -fsanitize=address,undefined -fno-omit-frame-pointer \
	  -finstrument-functions -c tests/unit/test_stacks_cxx.cc -o $@.o
	$(CC) $(UNIT_CFLAGS) -DPROFILE_SNAPSHOT=0 -DCYGPKG_PROFILE_STACKS=1 $@.o \
	  tests/unit/stacks_cxx_probe.c $(UNIT_CORE) -Wl,--wrap=malloc -Wl,--wrap=memset -lstdc++ -o $@
TESTS     += $(UNIT_DIR)/test_stacks_cxx
TEST_DEPS += $(UNIT_DIR)/test_stacks_cxx

# ---- QEMU end to end: firmware with known call counts, extracted with gdb/gprof.gdb ----
$(eval $(call firmware,calls,tests/qemu/calls.c,tests/qemu/support.c))
TESTS     += tests/qemu/test_calls.py
TEST_DEPS += $(TB)/fw/calls.elf

# ---- benchmarks ----
# make bench: every benchmark on this board, then the target bench (instructions per mcount
# and per sample, bytes allocated) on every other board: each architecture's figures.
# (the workload twice: with -pg and without, tests/bench/work.h)
$(eval $(call firmware,bench,tests/bench/bench.c tests/bench/work_pg.c tests/bench/work_pg_O0.c,\
                             tests/bench/work_plain.c tests/bench/work_plain_O0.c))
BENCHES    += tests/bench/bench-target
BENCH_DEPS += $(TB)/fw/bench.elf
.PHONY: bench-board
bench-board: $(SETUP_STAMP) $(TB)/fw/bench.elf
	@tests/bench/bench-target

# ---- gdb extraction of the bench firmware's 64 KiB + 1000 arcs: under 2 s; fetch/dump ----
TESTS     += tests/qemu/test_gdb_speed.py
TEST_DEPS += $(TB)/fw/bench.elf

# ---- the install tree, used by an application outside the project ----
TESTS     += tests/install/test_install.sh
TEST_DEPS += $(PROFILE_LIB)
# ... and its CMake package and pkg-config file, on a Cortex-M board and a RISC-V board
# (riscv32-virt's package: the board suite's deps build it; mps2-an385's with
# CYGPKG_PROFILE_STACKS=1: test_stacks.py's)
TESTS     += tests/cmake/test_cmake.sh

# ---- bring your own board: the architecture-only tree (make BOARD=none) and a firmware with
# its own startup, linker script and CMSIS-style profile timer ----
TESTS += tests/byob/test_byob.sh

# ---- the package never gets -pg, and never touches FP registers ----
TESTS += tests/build/test_no_pg.sh tests/build/test_no_fp.sh

# ---- the HAL contract: every architecture HAL compiles against <cyg/profile/hal.h>, a HAL
# or board with a hook of another signature does not ----
TESTS += tests/build/test_hal_contract.sh

# ---- LWIP_DIR: the package built from a lwIP tree of one's own ----
TESTS += tests/build/test_lwip_dir.sh

# ---- TFTP extraction over lwIP (firmware in the TFTP configuration, tests, bench, demo-tftp) ----
include tests/qemu/tftp.mk

# ---- the README's main job: make demo and make demo-tftp run through ----
TESTS     += tests/qemu/test_demo.sh
TEST_DEPS += $(TB)/fw/demo.elf $(TFTP_FW)

# ---- the halting sweep: gdb halts the firmware at every instruction of the snapshot, reset
# and hot paths, dumps there, and every sample and call is accounted for exactly. On the
# reference board (Thumb-2) and on vexpress-a9 (ARM code: other instructions, other clones,
# another masking); the sweep's firmware needs a network (lwIP) ----
SWEEP_BOARDS := $(REFERENCE_BOARD) vexpress-a9
SWEEP_FW := $(BUILD)/$(BOARD)/net/sweep.elf
$(eval $(call net_firmware,sweep,tests/qemu/sweep.c,tests/qemu/sweep_support.c tests/qemu/support.c))
# (every profile timer sample is counted before the package sees it)
$(TB)/fw/sweep.elf: APP_LDFLAGS += -Wl,--wrap=__profile_hit
ifneq ($(filter $(BOARD),$(SWEEP_BOARDS)),)
test-board-deps: $(SWEEP_FW)
TESTS     += tests/qemu/test_sweep.py
TEST_DEPS += $(SWEEP_FW)
endif
TESTS += $(foreach b,$(filter-out $(BOARD),$(SWEEP_BOARDS)),tests/qemu/test_sweep.py@$(b))

# ---- gdb halting the TFTP firmware at random moments during real tftp-hpa gets ----
TESTS     += tests/qemu/test_tftp_halts.py
TEST_DEPS += $(TFTP_FW)

# ---- every board: the board suite (a board is a parameter, not a copy of the tests) ----
# What every board passes: exact call counts, the mcount stub's ABI from gdb, loss counters,
# gdb extraction (test_calls.py); code that runs from RAM, .ramfunc, where the linker script
# puts it and the startup copies it (test_ramfunc.py); make demo, and make demo-tftp where
# the board has a network interface (test_demo.sh); TFTP gets with real clients there too
# (test_tftp.py).
# mps2-an385, the reference board, runs everything above as well: the portable code's
# exactness sweeps, option builds and attacks do not depend on the board (REFERENCE_BOARD,
# at the top).
board_has_net = $(wildcard boards/$(1)/net.mk)
$(eval $(call firmware,ramfunc,tests/qemu/ramfunc.c,tests/qemu/support.c))
# (make test: this board's run; the other boards' suites below)
TESTS     += tests/qemu/test_ramfunc.py
TEST_DEPS += $(TB)/fw/ramfunc.elf
board_suite = tests/qemu/test_calls.py tests/qemu/test_ramfunc.py tests/qemu/test_demo.sh $(if $(call board_has_net,$(1)),tests/qemu/test_tftp.py)
BOARD_SUITE_DEPS := $(TB)/fw/calls.elf $(TB)/fw/ramfunc.elf $(TB)/fw/demo.elf $(if $(call board_has_net,$(BOARD)),$(TFTP_FW))

.PHONY: test-board test-board-deps
test-board-deps: $(SETUP_STAMP) $(BOARD_SUITE_DEPS)
# make BOARD=x test-board: that board's suite alone.
test-board: test-board-deps
	@tools/run-tests $(addsuffix @$(BOARD),$(call board_suite,$(BOARD)))

# make test: the board suite on every other board too, each built by a make of its own.
ALL_BOARDS   := $(patsubst boards/%/board.mk,%,$(wildcard boards/*/board.mk))
OTHER_BOARDS := $(filter-out $(BOARD),$(ALL_BOARDS))
TESTS     += $(foreach b,$(OTHER_BOARDS),$(addsuffix @$(b),$(call board_suite,$(b))))
OTHER_BOARD_DEPS := $(addprefix board-deps-,$(OTHER_BOARDS))
TEST_DEPS += $(OTHER_BOARD_DEPS)
# (a static pattern rule: make looks for no implicit rule for a phony target)
.PHONY: $(OTHER_BOARD_DEPS)
# (tgprof built here first: every board's test-board-deps names it, and sub-makes running
# side by side must not build one file at the same time)
$(OTHER_BOARD_DEPS): board-deps-%: $(SETUP_STAMP) $(BUILD)/host/tgprof
	@$(MAKE) --no-print-directory BOARD=$* test-board-deps

# =========================================================================================
# ---- profile_write, PROFILE_AUTOSTART, files through semihosting -------------
# =========================================================================================
# (autostart.c needs a linker script's _stext/_etext: the host unit tests leave it out; the
# recipes above expand UNIT_CORE when they run, so they see this too.)
UNIT_CORE := $(filter-out target/src/autostart.c,$(UNIT_CORE))

# profile_write on the host, the C library's open/write/close wrapped: with snapshots (a
# TFTP configuration's spare set) and without (profile_write lends itself one).
SEMIHOSTING_UNIT := $(UNIT_DIR)/test_write $(UNIT_DIR)/test_write_nosnap
$(SEMIHOSTING_UNIT): tests/semihosting/test_write.c $(UNIT_DEPS)
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -DPROFILE_SNAPSHOT=$(if $(filter %_nosnap,$@),0,1) tests/semihosting/test_write.c \
	  $(UNIT_CORE) -Wl,--wrap=malloc -Wl,--wrap=memset -Wl,--wrap=open -Wl,--wrap=write \
	  -Wl,--wrap=close -lcmocka -o $@
TESTS     += $(SEMIHOSTING_UNIT)
TEST_DEPS += $(SEMIHOSTING_UNIT)

# End to end on a board, no debugger (tests/semihosting/test_semihosting.py): make
# demo-semihosting; profile_write's files (exact, nothing lost or counted twice, errors,
# the 64 KiB write's time); an application linked with PROFILE_AUTOSTART and nothing else.
$(eval $(call firmware,semihosting-writes,tests/semihosting/writes.c,tests/semihosting/writes_support.c))
# (every profile timer sample is counted before the package sees it)
$(TB)/fw/semihosting-writes.elf: APP_LDFLAGS += -Wl,--wrap=__profile_hit
$(eval $(call firmware,semihosting-autostart,tests/semihosting/autostart_app.c,))
$(TB)/fw/semihosting-autostart.elf: APP_LDFLAGS += $(PROFILE_AUTOSTART_LDFLAGS)
# ... and on a heap that gives no block above 256 bytes: autostart's -ENOMEM message.
$(eval $(call firmware,semihosting-nomem,tests/semihosting/autostart_app.c,tests/semihosting/small_heap.c))
$(TB)/fw/semihosting-nomem.elf: APP_LDFLAGS += $(PROFILE_AUTOSTART_LDFLAGS) -Wl,--wrap=malloc -Wl,--wrap=calloc
# ... and on one that gives the profile its block but no other: profile_write's at exit.
$(eval $(call firmware,semihosting-nomem-write,tests/semihosting/autostart_app.c,tests/semihosting/small_heap.c))
$(TB)/fw/semihosting-nomem-write.elf: APP_LDFLAGS += $(PROFILE_AUTOSTART_LDFLAGS) -Wl,--wrap=malloc -Wl,--wrap=calloc
$(TB)/fw/semihosting-nomem-write/plain/tests/semihosting/small_heap.c.o: APP_CFLAGS += -DSMALL_HEAP_ONE_LARGE
SEMIHOSTING_FW    := $(TB)/fw/semihosting-writes.elf $(TB)/fw/semihosting-autostart.elf \
                     $(TB)/fw/demo-semihosting.elf $(TB)/fw/semihosting-nomem.elf \
                     $(TB)/fw/semihosting-nomem-write.elf
SEMIHOSTING_SUITE := tests/semihosting/test_semihosting.py

# The boards whose C library glue has files through semihosting: every board's (newlib's
# hal/common/src/syscalls.c and picolibc's picolibc.c share hostfile.c); not BOARD=none's,
# which has no glue.
board_has_semihosted_files = $(if $(wildcard boards/$(1)/board.mk),y)

# The board suite (make BOARD=x test-board, and make test on every other board) runs it too.
$(eval board_suite_before_semihosting = $(value board_suite))
board_suite = $(call board_suite_before_semihosting,$(1)) $(if $(call board_has_semihosted_files,$(1)),$(SEMIHOSTING_SUITE))
ifneq ($(call board_has_semihosted_files,$(BOARD)),)
test-board-deps: $(SEMIHOSTING_FW)
TESTS     += $(SEMIHOSTING_SUITE)
TEST_DEPS += $(SEMIHOSTING_FW)
endif
TESTS += $(foreach b,$(OTHER_BOARDS),$(if $(call board_has_semihosted_files,$(b)),$(SEMIHOSTING_SUITE)@$(b)))

# =========================================================================================
# ---- the profiler out of the user's numbers ----------------------------------
# =========================================================================================
# Samples in the package's own code are overhead, in no bin; their share agrees with an
# instruction trace (tests/qemu/test_overhead.py, on the bench firmware): on the reference
# board and on one board of every other architecture (each has its own stub and sample path).
OVERHEAD_BOARDS := $(REFERENCE_BOARD) microbit vexpress-a9 riscv32-virt
TESTS += $(if $(filter $(BOARD),$(OVERHEAD_BOARDS)),tests/qemu/test_overhead.py)
TESTS += $(foreach b,$(filter-out $(BOARD),$(OVERHEAD_BOARDS)),tests/qemu/test_overhead.py@$(b))
ifneq ($(filter $(BOARD),$(OVERHEAD_BOARDS)),)
test-board-deps: $(TB)/fw/bench.elf
endif

# =========================================================================================
# ---- no saturation -----------------------------------------------------
# =========================================================================================
# One bucket sampled 200,000 times at 10 us: every extraction path (gdb, profile_write) and
# both readers (GNU gprof, tgprof) show all of them. On every board (the board suite): the
# sample path and the file's records are each architecture's own; a few seconds a board.
$(eval $(call firmware,hot_bucket,,tests/qemu/hot_bucket.c))
# (the firmware counts the samples in its hot bucket before the package sees them)
$(TB)/fw/hot_bucket.elf: APP_LDFLAGS += -Wl,--wrap=__profile_hit
$(eval board_suite_before_hot_bucket = $(value board_suite))
board_suite = $(call board_suite_before_hot_bucket,$(1)) tests/qemu/test_hot_bucket.py
# (tgprof: host/host.mk's $(TGPROF), named here before that file is read)
test-board-deps: $(TB)/fw/hot_bucket.elf $(BUILD)/host/tgprof
TESTS     += tests/qemu/test_hot_bucket.py $(foreach b,$(OTHER_BOARDS),tests/qemu/test_hot_bucket.py@$(b))
TEST_DEPS += $(TB)/fw/hot_bucket.elf

# =========================================================================================
# ---- several ranges ---------------------------------------------------
# =========================================================================================
# The RAM-code firmware (tests/qemu/ramfunc.c) profiled over flash and .ramfunc with
# profile_on_ranges: exact arcs flash -> RAM -> flash, RAM code's samples in its own bins, a
# bucket past 65535 in the second range, gdb's file the firmware's own byte for byte. On
# every board (the board suite): a few seconds.
$(eval $(call firmware,ranges,tests/qemu/ranges.c,tests/qemu/support.c))
$(eval board_suite_before_ranges = $(value board_suite))
board_suite = $(call board_suite_before_ranges,$(1)) tests/qemu/test_ranges.py
test-board-deps: $(TB)/fw/ranges.elf
TESTS     += tests/qemu/test_ranges.py $(foreach b,$(OTHER_BOARDS),tests/qemu/test_ranges.py@$(b))
TEST_DEPS += $(TB)/fw/ranges.elf

# =========================================================================================
# ---- stack-profiling mode -------------------------------------------------------
# =========================================================================================
# tests/qemu/stacks.c in configurations of their own (CYGPKG_PROFILE_STACKS; and with a
# tree of 4 nodes, so that heavy and all after it get none, and shadow stacks of 4 frames),
# each built by a sub-make into that configuration's directory and copied to
# $(TB)/fw/stacks-mode.elf and stacks-small.elf; on a board of each architecture.
# (microbit's 16 KiB: the default tree, about 11 KiB with a snapshot's frozen counts, leaves
# profile_on too little heap; 64 nodes and 16 frames are plenty for this firmware)
STACKS_CFG       := CYGPKG_PROFILE_STACKS=1 $(if $(filter microbit,$(BOARD)),CYGNUM_PROFILE_STACKS_NODES=64 CYGNUM_PROFILE_STACKS_DEPTH=16)
STACKS_SMALL_CFG := CYGPKG_PROFILE_STACKS=1 CYGNUM_PROFILE_STACKS_NODES=4 CYGNUM_PROFILE_STACKS_DEPTH=4
STACKS_BOARDS    := mps2-an385 microbit vexpress-a9 riscv32-virt riscv64-virt
$(eval $(call firmware,stacks,tests/qemu/stacks.c,tests/qemu/support.c))
$(eval $(call firmware,threads,tests/qemu/threads.c,tests/qemu/threads_sched.c tests/qemu/support.c))
# $(TB)/fw/FW-NAME.elf: FW built in the configuration CFG (by a sub-make, in its directory).
# Two variants may share a configuration (stacks-mode, demo-stacks-mode): under make -j their
# sub-makes take turns (flock on the directory), not build one library at the same time.
# ($$(MAKE), not $(MAKE): the recipe must name $(MAKE) to get make -j's jobserver.)
define stacks_variant
.PHONY: $(TB)/fw/$(2)-$(1).elf
$(TB)/fw/$(2)-$(1).elf: | $(SETUP_STAMP)
	@d=$$$$($$(MAKE) --no-print-directory -s $(3) config-dir) && mkdir -p $$$$d && \
	  flock $$$$d/.make.lock $$(MAKE) --no-print-directory -s $(3) $$$$d/fw/$(2).elf && \
	  mkdir -p $$(@D) && cp $$$$d/fw/$(2).elf $$@
endef
$(eval $(call stacks_variant,mode,stacks,$(STACKS_CFG)))
$(eval $(call stacks_variant,small,stacks,$(STACKS_SMALL_CFG)))
STACKS_FW := $(TB)/fw/stacks-mode.elf $(TB)/fw/stacks-small.elf
ifneq ($(filter $(BOARD),$(STACKS_BOARDS)),)
test-board-deps: $(STACKS_FW)
endif
TESTS     += tests/qemu/test_stacks.py $(foreach b,$(filter-out $(BOARD),$(STACKS_BOARDS)),tests/qemu/test_stacks.py@$(b))
TEST_DEPS += $(STACKS_FW)
# make bench: the mode's cost per call and per sample, and its RAM (each STACKS_BOARDS board)
BENCHES    += tests/bench/bench-stacks
BENCH_DEPS += $(TB)/fw/stacks.elf $(TB)/fw/stacks-mode.elf
ifneq ($(filter $(BOARD),$(STACKS_BOARDS)),)
bench-board: bench-stacks-board
endif
.PHONY: bench-stacks-board
bench-stacks-board: $(TB)/fw/stacks.elf $(TB)/fw/stacks-mode.elf
	@tests/bench/bench-stacks
# make bench: a Dhrystone-like workload (tests/bench/ledger.h) without -pg, with -pg, and in
# the stack mode (its firmware built in that configuration): the whole slowdown of each
$(eval $(call firmware,ledger,tests/bench/ledger_pg.c,tests/bench/ledger.c tests/bench/ledger_plain.c))
$(eval $(call stacks_variant,mode,ledger,$(STACKS_CFG)))
BENCHES    += tests/bench/bench-ledger
BENCH_DEPS += $(TB)/fw/ledger.elf $(TB)/fw/ledger-mode.elf
ifneq ($(filter $(BOARD),$(STACKS_BOARDS)),)
bench-board: bench-ledger-board
endif
.PHONY: bench-ledger-board
bench-ledger-board: $(TB)/fw/ledger.elf $(TB)/fw/ledger-mode.elf
	@tests/bench/bench-ledger
# Two threads switched by PendSV (ARMv7-M), each on a shadow stack of its own: the
# reference board.
$(eval $(call stacks_variant,mode,threads,CYGPKG_PROFILE_STACKS=1 CYGNUM_PROFILE_STACKS_THREADS=3))
TESTS     += tests/qemu/test_stacks_threads.py
TEST_DEPS += $(TB)/fw/threads-mode.elf
# A preemptive kernel in miniature with FreeRTOS's ports' mechanisms (tests/qemu/
# rtos_kernel.c: priorities, a tick, a queue; its ports: rtos_port_cortexm.c, an SVC start
# and a naked PendSV switch; rtos_port_riscv.c, an ecall yield in its own trap handler and
# the machine-timer tick; rtos_port_armv7a.c, the A9 private timer's tick switching on the
# HAL's IRQ exit and an SVC yield), built at -O2 in both modes: each task's calls exact,
# each task's share of the CPU against an instruction trace (gmon.tasks), the port's file
# without the stack mode's hooks, and the link refusing a naked function hooked
# (tests/qemu/test_rtos.py). ARMv7-M (the reference board), ARMv6-M (microbit: a tree of 80
# nodes, shadow stacks of 12 frames), RISC-V (riscv32-virt, riscv64-virt) and Cortex-A9
# (vexpress-a9, in ARM and Thumb-2 code).
RTOS_BOARDS := $(REFERENCE_BOARD) microbit riscv32-virt riscv64-virt vexpress-a9 vexpress-a9-thumb
RTOS_CFG    := CYGPKG_PROFILE_STACKS=1 CYGNUM_PROFILE_STACKS_THREADS=6 $(if $(filter microbit,$(BOARD)),CYGNUM_PROFILE_STACKS_NODES=80 CYGNUM_PROFILE_STACKS_DEPTH=12)
RTOS_PORT   := tests/qemu/rtos_port_$(if $(filter riscv armv7a,$(ARCH)),$(ARCH),cortexm).c
$(eval $(call firmware,rtos,tests/qemu/rtos.c tests/qemu/rtos_kernel.c $(RTOS_PORT),tests/qemu/support.c))
$(eval $(call stacks_variant,mode,rtos,$(RTOS_CFG)))
# (the port's file without the stack mode's hooks, as the FreeRTOS kit builds FreeRTOS's)
$(TB)/fw/rtos/pg/$(RTOS_PORT).o: APP_CFLAGS += -finstrument-functions-exclude-file-list=$(RTOS_PORT)
RTOS_FW := $(TB)/fw/rtos.elf $(TB)/fw/rtos-mode.elf
ifneq ($(filter $(BOARD),$(RTOS_BOARDS)),)
test-board-deps: $(RTOS_FW)
TESTS     += tests/qemu/test_rtos.py
TEST_DEPS += $(RTOS_FW)
endif
TESTS += $(foreach b,$(filter-out $(BOARD),$(RTOS_BOARDS)),tests/qemu/test_rtos.py@$(b))
# The FreeRTOS kit (rtos/freertos/) built against a stand-in for FreeRTOS's tasks.c: the
# switch hook, the handler names, the task-count checks, the make fragment's flags.
TESTS     += tests/build/test_freertos_kit.py
TEST_DEPS += $(PKGCONF_H)
# gmon.stacks over TFTP: the TFTP firmware in the stack-profiling mode, real clients, on a
# LAN9118 board of each ARM architecture with one (ARMv7-M, ARMv7-A).
TFTP_STACKS_BOARDS := mps2-an385 vexpress-a9
$(eval $(call stacks_variant,stacks,tftp,$(TFTP_CONFIG) CYGPKG_PROFILE_STACKS=1))
ifneq ($(filter $(BOARD),$(TFTP_STACKS_BOARDS)),)
test-board-deps: $(TB)/fw/tftp-stacks.elf
endif
TESTS     += tests/qemu/test_tftp_stacks.py $(foreach b,$(filter-out $(BOARD),$(TFTP_STACKS_BOARDS)),tests/qemu/test_tftp_stacks.py@$(b))
# ... and gdb halting it at random moments during the gets (the reference board)
TESTS     += tests/qemu/test_tftp_halts_stacks.py
TEST_DEPS += $(TB)/fw/tftp-stacks.elf
# ... and the halting sweep in that mode: gdb halts the firmware at every instruction of the
# stack hooks, the freeze and thaw of snapshots (delivered, with the kept gmon.stacks, and
# abandoned), the compaction and the clear, and every call and sample is accounted for in
# the trees exactly (tests/qemu/sweep_stacks.c; 64 threads' shadow stacks of 16 frames, and
# as many task slots)
$(eval $(call firmware,sweep_stacks,tests/qemu/sweep_stacks.c,tests/qemu/sweep_stacks_support.c tests/qemu/sweep_support.c tests/qemu/support.c))
# (every profile timer sample counted before the package sees it, as in the plain sweep; and a
# flag up while an abandoned snapshot is merged back, which gdb reads with each dump)
$(TB)/fw/sweep_stacks.elf: APP_LDFLAGS += -Wl,--wrap=__profile_hit -Wl,--wrap=profile_snapshot_release
$(eval $(call stacks_variant,mode,sweep_stacks,$(TFTP_CONFIG) CYGPKG_PROFILE_STACKS=1 CYGNUM_PROFILE_STACKS_THREADS=64 CYGNUM_PROFILE_TASKS=64 CYGNUM_PROFILE_STACKS_DEPTH=16))
TESTS     += tests/qemu/test_sweep_stacks.py
TEST_DEPS += $(TB)/fw/sweep_stacks-mode.elf
include tests/truth.mk

# =========================================================================================
# ---- public headers stand alone ------------------------------------------------------------
# =========================================================================================
# Every installed header compiles with its own #include alone, and <cyg/hal/board_api.h>
# gives its constants (BOARD_CLOCK_HZ, ...): a Cortex-M and a RISC-V board.
TESTS += tests/build/test_headers.sh

# =========================================================================================
# ---- profile diffs ------------------------------------------------------------------------
# =========================================================================================
# One program in two builds (tests/qemu/diffprog.c; diff_slow with -DDIFF_SLOWER: one
# function slower, one called more often): tgprof --diff on their profiles, the base run
# twice (identical under -icount), and the CI limits' exit status. On the reference board.
$(eval $(call firmware,diff_base,tests/qemu/diffprog.c tests/qemu/diffprog_lib.c,tests/qemu/support.c))
$(eval $(call firmware,diff_slow,tests/qemu/diffprog.c tests/qemu/diffprog_lib.c,tests/qemu/support.c))
$(TB)/fw/diff_slow/pg/%.c.o: APP_CFLAGS += -DDIFF_SLOWER
# (functions start on bucket boundaries, as the README advises: no bucket is shared)
$(TB)/fw/diff_base/pg/%.c.o $(TB)/fw/diff_slow/pg/%.c.o $(TB)/fw/diff_base/plain/%.c.o $(TB)/fw/diff_slow/plain/%.c.o: APP_CFLAGS += -falign-functions=16
TESTS     += tests/qemu/test_diff.py
TEST_DEPS += $(TB)/fw/diff_base.elf $(TB)/fw/diff_slow.elf

# =========================================================================================
# ---- one command from a running target: --tftp, --gdb, --watch ------------------------------
# =========================================================================================
# tgprof fetching and analysing in one step, by gdb (the firmware below) and by TFTP (the
# TFTP firmware), and its live view in tmux, read with capture-pane as a person reads it
# (tests/qemu/test_watch.py). On the reference board.
$(eval $(call firmware,watchprog,tests/qemu/watchprog.c tests/qemu/watchprog_lib.c,tests/qemu/support.c))
TESTS     += tests/qemu/test_watch.py
TEST_DEPS += $(TB)/fw/watchprog.elf
# (functions start on bucket boundaries, as the README advises: no bucket is shared)
$(TB)/fw/watchprog/pg/%.c.o $(TB)/fw/watchprog/plain/%.c.o: APP_CFLAGS += -falign-functions=16
TEST_DEPS += $(TFTP_FW)
