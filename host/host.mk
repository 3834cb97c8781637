# host/: tgprof, the gprof-compatible analyzer.  Included by the top Makefile.
#   make build/host/tgprof     the tool (also: make host)
#   make test                  host/tests/*.sh compare tgprof with GNU gprof byte for byte
#   make test-host             the same host tests alone (no QEMU)
#   make bench                 host/bench/run.sh times both tools on large generated inputs
#   make fuzz                  libFuzzer on the gmon.out, ELF, gmon.stacks and gmon.tasks readers
#   make install-host          $(PREFIX)/bin/tgprof and $(PREFIX)/share/man/man1/tgprof.1

HOST_CC     ?= gcc
HOST_CFLAGS ?= -O2 -g
HOST_WARN   := -std=gnu11 -Wall -Wextra
# libelf and zlib linked statically: a run takes milliseconds, and loading two
# more shared libraries was a twentieth of it
HOST_LIBS   := -Wl,-Bstatic -lelf -lz -Wl,-Bdynamic -lm -ldl
HOST_SAN    := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow -fno-omit-frame-pointer
HB          := $(BUILD)/host

HOST_SRCS   := $(sort $(wildcard host/src/*.c))
HOST_HDRS   := $(wildcard host/src/*.h)
HOST_LIB_SRCS := $(filter-out host/src/main.c,$(HOST_SRCS))
TGPROF      := $(HB)/tgprof
TGPROF_SAN  := $(HB)/tgprof-san
HOST_GEN    := $(HB)/gen-gmon

$(TGPROF): $(HOST_SRCS) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_WARN) $(HOST_CFLAGS) $(HOST_SRCS) $(HOST_LIBS) -o $@

$(TGPROF_SAN): $(HOST_SRCS) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_WARN) -O1 -g $(HOST_SAN) $(HOST_SRCS) $(HOST_LIBS) -o $@

$(HOST_GEN): host/tests/gen-gmon.c
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_WARN) -O2 -g $< -lelf -o $@

.PHONY: host
host: $(TGPROF)

HOST_TESTS := host/tests/compare-native.sh host/tests/compare-synthetic.sh host/tests/robustness.sh host/tests/outputs.sh host/tests/compare-firmware.sh \
             host/tests/install.sh host/tests/regressions.sh host/tests/clones.sh host/tests/tasks.sh
TESTS     += $(HOST_TESTS)
TEST_DEPS += $(TGPROF) $(TGPROF_SAN) $(HOST_GEN)

# make test-host: the host tests alone (no QEMU; compare-firmware.sh compares whatever
# firmware profiles $(BUILD) already holds).
.PHONY: test-host
test-host: $(TGPROF) $(TGPROF_SAN) $(HOST_GEN)
	@BUILD=$(BUILD) tools/run-tests $(HOST_TESTS)

BENCHES    += host/bench/run.sh
BENCH_DEPS += $(TGPROF) $(HOST_GEN)


# ---- fuzzing (clang's libFuzzer) ------------------------------------------------------
# make fuzz: FUZZ_SECS seconds in all; make fuzz FUZZ_RUNS=10000000: that many executions
# of each reader instead. Undefined behaviour aborts as a finding, as a crash does.
FUZZ_SECS ?= 60
FUZZ_RUNS ?=
HOST_FUZZERS := $(HB)/fuzz-gmon $(HB)/fuzz-elf $(HB)/fuzz-stacks $(HB)/fuzz-tasks
$(HB)/fuzz-%: host/fuzz/fuzz-%.c host/fuzz/fixed-analysis.h $(HOST_LIB_SRCS) $(HOST_HDRS)
	@mkdir -p $(@D)
	clang $(HOST_WARN) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Ihost/src $< $(HOST_LIB_SRCS) $(HOST_LIBS) -o $@
.PHONY: fuzz
fuzz: $(HOST_FUZZERS) $(HOST_GEN)
	host/fuzz/run.sh $(HB) $(FUZZ_SECS) $(FUZZ_RUNS)

# ---- install ------------------------------------------------------------------------
.PHONY: install-host
install: install-host
install-host: $(TGPROF)
	@mkdir -p $(PREFIX)/bin $(PREFIX)/share/man/man1 $(PREFIX)/share/gprof-rtos
	cp $(TGPROF) $(PREFIX)/bin/tgprof
	cp host/tgprof.1 $(PREFIX)/share/man/man1/tgprof.1
	cp gdb/gprof.gdb $(PREFIX)/share/gprof-rtos/gprof.gdb   # tgprof --gdb finds it there
