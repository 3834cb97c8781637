#!/usr/bin/env python3
"""The profiler is not the user's hot spot: a timer sample whose PC lies in the
package's own code (the linker script's run __profile_text_start..__profile_text_end: the
mcount stub, __profile_mcount and what it calls, ...) is counted as profiler overhead and
put in no bin.

The bench firmware (tests/bench/bench.c) runs its call-heavy -pg workload (work.h) as
CALLS calls in a pseudo-random order with pseudo-random arguments (a stream without period:
under QEMU -icount, a deterministic program with a period would lock the fixed-period
timer onto a few of its phases), under a 10 us profile timer, profiling _stext.._etext,
between two markers.
gdb resets the counts at the first marker; from there to the second, QEMU (-icount,
single-stepping, its exec log) traces every instruction. Then:
  - GNU gprof's flat profile of the dump names no function of the package's run;
  - the header's overhead + the bins' samples + the samples outside the range (what
    gprof_fetch prints) = the header's samples = what profile_get_stats() said;
  - the overhead share of the samples agrees within 1 point with the package's share of
    the instructions executed outside the profile timer's interrupt (which no sample can
    see: it is the most urgent interrupt, and masked code is sampled where it unmasks).
The board is a parameter (BOARD, PROFILE_TB), as for the board suite.
"""
import bisect
import os
import re
import shutil
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402

ELF = os.path.join(h.FW_DIR, "bench.elf")
OUT = os.path.join(h.OUT_ROOT, "overhead")
CALLS = 20000   # about 20000 samples: the share to a few tenths of a point
NM = re.sub(r"gprof$", "nm", h.GPROF)
SAMPLE_PATH = h.SAMPLE_PATH


def symbols():
    """{name: (start, size)} of the ELF's symbols (functions: Thumb bit off)."""
    p = subprocess.run([NM, "-S", "--defined-only", ELF], stdout=subprocess.PIPE, text=True,
                       check=True)
    syms = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 4:
            syms[f[3]] = (int(f[0], 16) & ~1, int(f[1], 16))
        elif len(f) == 3:
            syms.setdefault(f[2], (int(f[0], 16) & ~1, 0))
    return syms


class TraceCounter(threading.Thread):
    """Reads QEMU's exec log from a FIFO as it is written ("Trace N: host [cs/pc/...]",
    one line an instruction when single-stepping) and counts instructions: all, and those
    in the package's run, outside the profile timer's interrupt."""

    def __init__(self, fifo, isr_entry, in_package, in_sample_path):
        super().__init__(daemon=True)
        self.fifo, self.isr_entry = fifo, isr_entry
        self.in_package, self.in_sample_path = in_package, in_sample_path
        self.all = self.package = self.isr = self.isr_entries = 0

    def run(self):
        trace = h.ExecTrace(self.fifo, self.isr_entry, self.in_sample_path)
        for pc, in_isr in trace:
            if in_isr:
                self.isr += 1
                continue
            self.all += 1
            if self.in_package(pc):
                self.package += 1
        self.isr_entries = trace.isr_entries


def main():
    t = h.Tap()
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    syms = symbols()
    lo, hi = syms["__profile_text_start"][0], syms["__profile_text_end"][0]
    stext, etext = syms["_stext"][0], syms["_etext"][0]
    t.ok(stext <= lo < hi <= etext, "the linker script gathers the package's code in one run "
         "inside _stext.._etext (0x%x..0x%x)" % (lo, hi))
    in_run = [n for n, (a, size) in syms.items() if lo <= a < hi and size]
    t.ok({"__profile_mcount", "__profile_hit"} <= set(in_run) and not any(
         n.startswith(("work_", "bench_", "main")) for n in in_run),
         "the run holds the package's functions, none of the application's", sorted(in_run))

    isr_name = h.board_var("BOARD_PROFILE_ISR")
    isr_entry = syms[isr_name][0]
    ranges = sorted((a, a + max(size, 2)) for n, (a, size) in syms.items()
                    if n == isr_name or n.split(".")[0] in SAMPLE_PATH)
    starts = [r[0] for r in ranges]

    def in_sample_path(pc):
        if not stext <= pc < etext:
            return True
        i = bisect.bisect_right(starts, pc) - 1
        return i >= 0 and pc < ranges[i][1]

    fifo = os.path.join(OUT, "trace.fifo")
    os.mkfifo(fifo)
    counter = TraceCounter(fifo, isr_entry, lambda pc: lo <= pc < hi, in_sample_path)
    counter.start()
    with h.Qemu(ELF, os.path.join(OUT, "qemu.log")) as q:
        rc, out = h.gdb(ELF, q.port, [
            # (at the bench's first mark: after the startup has zeroed .bss)
            "break bench_mark", "continue", "delete",
            "set var overhead_calls = %d" % CALLS,
            "break overhead_begin", "break overhead_end", "break overhead_done",
            "continue",
            "gprof_reset",
            "monitor logfile " + fifo, "monitor singlestep on", "monitor log exec,nochain",
            "continue",
            "monitor log none", "monitor singlestep off",
            "cd " + OUT, "gprof_fetch",
            "continue",
            "print overhead_stats",
            "kill",
        ], timeout=600)
    with open(os.path.join(OUT, "gdb.log"), "w") as f:
        f.write(out)
    counter.join(timeout=60)
    t.ok(not counter.is_alive() and counter.all > 100000,
         "the exec trace was read (%d instructions, %d in the package, %d in %d profile-timer "
         "interrupts)" % (counter.all, counter.package, counter.isr, counter.isr_entries),
         out[-2000:])

    gmon = os.path.join(OUT, "gmon.out")
    if not t.ok(os.path.exists(gmon), "gprof_fetch wrote gmon.out", out[-2000:]):
        return t.done()
    hdr, hist, arcs = h.gmon_parse(gmon)
    samples, overhead, bins = hdr[2], hdr[3], sum(hist[4])
    m = re.search(r"gprof: samples (\d+), outside the range (\d+)", out)
    outside = int(m.group(2)) if m else -1
    t.ok(samples > 2000 and overhead > 0 and bins > 0,
         "samples %d: %d in bins, %d profiler overhead, %d outside the range"
         % (samples, bins, overhead, outside))
    t.eq(overhead + bins + outside, samples,
         "profiler overhead + the histogram's samples + outside the range = all samples")
    m = re.search(r"gprof: profiler overhead: [\d.]+% of samples \((\d+) of (\d+)\), not "
                  r"charged to any function", out)
    t.ok(m is not None and (int(m.group(1)), int(m.group(2))) == (overhead, samples),
         "gprof_fetch's summary says the overhead, as the header does", out[-1500:])
    m = re.search(r"samples = (\d+).*samples_overhead = (\d+)", out)
    st = (int(m.group(1)), int(m.group(2))) if m else (-1, -1)
    # (profile_get_stats ran a little after the dump, past the end marker's own mcount
    # call: a few more samples may fall between them)
    t.ok(0 <= st[0] - samples <= 4 and 0 <= st[1] - overhead <= st[0] - samples,
         "profile_get_stats() reports the same (samples %d, overhead %d)" % st)

    rc, text, err = h.gprof(ELF, gmon, "-b", "-p")
    flat = h.flat(text)
    package = sorted(n for n in flat if n in syms and lo <= syms[n][0] < hi)
    t.ok(rc == 0 and flat and not package,
         "%s's flat profile names no function of the package (%d functions)"
         % (os.path.basename(h.GPROF), len(flat)), package or text[:1500])
    t.ok(any(n.startswith("work_pg_") for n in flat), "it names the workload's functions",
         text[:1500])

    share = 100.0 * overhead / samples
    expected = 100.0 * counter.package / counter.all if counter.all else -100
    print("# profiler overhead: %.2f%% of the samples; the package ran %.2f%% of the "
          "instructions outside the profile timer's interrupt" % (share, expected))
    t.ok(abs(share - expected) <= 1.0,
         "the overhead share (%.2f%%) agrees with the package's share of the instructions "
         "(%.2f%%) within 1 point" % (share, expected))
    os.remove(fifo)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
