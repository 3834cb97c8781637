#!/usr/bin/env python3
"""gdb extraction on QEMU, with the bench firmware (tests/bench/bench.c): a 64 KiB histogram
(512 KiB of code at 16 bytes a bucket: 32768 16-bit bins) and 1000 distinct call sites.

Proves the stated requirement that gprof_fetch extracts 64 KiB of histogram plus 1000 arcs
in under 2 seconds over QEMU's gdbstub (wall-clock time of gprof_fetch alone, measured in
gdb's Python around the call, without gdb's start or attach; it takes ~0.01 s here, so the
bound has a wide margin; one gdb command per bin takes over 2 s and fails it). Because a
fetch that reads memory bin by bin with bulk-read calls still takes only ~1.5 s over a local
gdbstub (but far longer over a real probe), the number of memory-read packets is checked
too, which does not depend on the host's speed: a bulk fetch needs ~60, one read per bin or
arc needs thousands.

Also proves the macros' reset semantics: gprof_fetch keeps the counts (two fetches while
halted give identical, non-empty files; a reset would make the second one empty), and
gprof_dump resets them (a fetch right after it holds zero samples and no arcs, and after
the target runs on, the file holds only what was recorded since: main -> bench_mark, main ->
spin, once each)."""
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402

ELF = os.path.join(h.FW_DIR, "bench.elf")
OUT = os.path.join(h.OUT_ROOT, "gdb_speed")
LIMIT_SECONDS = 2.0
NBINS = 64 * 1024 // 2


def main():
    t = h.Tap()
    shutil.rmtree(OUT, ignore_errors=True)
    dirs = {k: os.path.join(OUT, k) for k in ("fetch1", "fetch2", "dump", "after_dump", "later")}
    for p in dirs.values():
        os.makedirs(p)
    with h.Qemu(ELF, os.path.join(OUT, "qemu.log")) as q:
        rc, out = h.gdb(ELF, q.port, [
            # bench_mark(3), before its mcount call: profiling on over 512 KiB,
            # thousand_sites() and spin() done.
            "break *bench_mark", "continue", "continue", "continue", "delete",
            "cd " + dirs["fetch1"],
            "python import time; t0 = time.perf_counter(); gprof_fetch(); "
            "print('FETCH_SECONDS %.6f' % (time.perf_counter() - t0))",
            "cd " + dirs["fetch2"], "set debug remote 1", "gprof_fetch", "set debug remote 0",
            "cd " + dirs["dump"], "gprof_dump",
            "cd " + dirs["after_dump"], "gprof_fetch",
            # The target applies the reset itself and records afresh: bench_mark(3)'s own
            # mcount call, then spin()'s, up to the next profile_on (the workload's).
            "tbreak *profile_on", "continue",
            "cd " + dirs["later"], "gprof_fetch",
            "kill",
        ], timeout=300)
    with open(os.path.join(OUT, "gdb.log"), "w") as f:
        f.write(out)

    def load(k):
        p = os.path.join(dirs[k], "gmon.out")
        return open(p, "rb").read() if os.path.exists(p) else b""

    f1 = load("fetch1")
    t.ok(len(f1) > 0, "gprof_fetch wrote gmon.out (%d bytes)" % len(f1), out)
    if not f1:
        return t.done()
    hdr, hist, arcs = h.gmon_parse(os.path.join(dirs["fetch1"], "gmon.out"))
    t.eq(hist[2], NBINS, "the histogram has 32768 bins (64 KiB of 16-bit counters)")
    t.eq(len(hist[4]), NBINS, "the file holds all 32768 bins")
    t.ok(len(arcs) >= 1000, "the file holds >= 1000 arcs (%d)" % len(arcs))
    t.ok(hdr[2] > 0 and sum(hist[4]) > 0, "the file holds samples (%d)" % hdr[2])

    m = re.search(r"FETCH_SECONDS ([\d.]+)", out)
    secs = float(m.group(1)) if m else None
    t.ok(secs is not None and secs < LIMIT_SECONDS,
         "gprof_fetch of 64 KiB of histogram and %d arcs over QEMU's gdbstub in under %.0f s "
         "(%s s)" % (len(arcs), LIMIT_SECONDS, "%.3f" % secs if secs is not None else "?"),
         None if m else out)

    # Counted on the second fetch (logging every packet slows it): memory is read in bulk,
    # not bin by bin or arc by arc (that stays under 2 s here but is what made eCos's macro
    # take tens of seconds on a real probe).
    reads = len(re.findall(r"Sending packet: \$[mx][0-9a-fA-F]+,", out))
    t.ok(0 < reads < 1000, "gprof_fetch reads memory in bulk: %d memory-read packets for %d "
         "bytes (fewer than one per arc)" % (reads, len(f1)))

    f2 = load("fetch2")
    t.ok(f2 == f1, "gprof_fetch keeps the counts: a second fetch while halted gives the same "
         "file (%d bytes)" % len(f2))

    t.ok(load("dump") == f1, "gprof_dump writes the same data as gprof_fetch")
    p = os.path.join(dirs["after_dump"], "gmon.out")
    if t.ok(os.path.exists(p), "a fetch after gprof_dump wrote a file", out):
        hz, hh, ha = h.gmon_parse(p)
        t.ok(hz[2:] == (0, 0, 0) and sum(hh[4]) == 0 and ha == [] and hh[2] == NBINS,
             "gprof_dump resets: the next fetch holds zero samples and no arcs",
             "header %r, bins sum %d, arcs %d" % (hz, sum(hh[4]), len(ha)))

    p = os.path.join(dirs["later"], "gmon.out")
    if t.ok(os.path.exists(p), "a fetch after the target ran on wrote a file", out):
        rc, text, err = h.gprof(ELF, p, "-b", "-q")
        graph = h.call_graph(text)
        t.eq(graph, {("main", "bench_mark"): 1, ("main", "spin"): 1},
             "after the target ran on, only what it recorded since the reset (arcs)")
        hl, hist_l, _ = h.gmon_parse(p)
        t.ok(hl[2] > 0 and sum(hist_l[4]) + hl[3] == hl[2],
             "after the target ran on, it records samples again (%d)" % hl[2])
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
