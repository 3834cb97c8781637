#!/usr/bin/env python3
"""Several ranges profiled at once, on every board: the RAM-code
firmware (tests/qemu/ramfunc.c, run by tests/qemu/ranges.c) profiled with
profile_on_ranges over flash (_stext.._etext) and the code in RAM (_sramfunc.._eramfunc).

  - exact arcs whatever range the call site and the callee are in: flash -> flash,
    flash -> RAM (flash_caller -> ram_func), RAM -> flash (ram_func -> flash_leaf),
    RAM -> RAM (ram_func -> ram_leaf): N_RAM_CALLS each; no call counted as from outside
    the ranges;
  - samples in RAM code in its own bins: ram_work (the same loop as flash_work, in RAM)
    in the flat profile with about flash_work's share; none outside the ranges;
  - gmon.out: a histogram record per range, in address order (here flash's then RAM's,
    each with the histogram's scale); ram_hot's bucket, in the RAM range (not the fast
    path's), with 70,000 samples as several records: GNU gprof and tgprof show all;
  - gprof_fetch's file is the firmware's own serializer output byte for byte; the file
    profile_write writes through semihosting next (boards whose C library has files) has
    the same records, arcs and ram_hot's samples;
  - tgprof prints what GNU gprof prints (flat profile and call graph).
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402
from test_hot_bucket import flat_seconds, with_rate  # noqa: E402

N = {}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ramfunc.h")) as f:
    for m in re.finditer(r"#define (\w+)\s+(\d+)", f.read()):
        N[m.group(1)] = int(m.group(2))
N_INJECT = 70000                                  # tests/qemu/ranges.c
ELF = os.path.join(h.FW_DIR, "ranges.elf")
OUT = os.path.join(h.OUT_ROOT, "ranges")
TGPROF = os.path.join(h.BUILD, "host", "tgprof")


def symbols(elf):
    """{name: address} (the board's nm; code addresses without the Thumb bit)."""
    nm = re.sub(r"gprof$", "nm", h.GPROF)
    p = subprocess.run([nm, elf], stdout=subprocess.PIPE, text=True, check=True)
    syms = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 3:
            syms[f[2]] = int(f[0], 16) & ~1
    return syms


def main():
    t = h.Tap()
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    elf = os.path.join(OUT, "ranges.elf")   # other runs may rebuild the original
    shutil.copyfile(ELF, elf)
    s = symbols(elf)
    flash = (s["_stext"], s["_etext"])
    ram = (s["_sramfunc"], s["_eramfunc"])
    t.ok(ram[0] <= s["ram_hot"] < ram[1] and ram[0] <= s["ram_work"] < ram[1]
         and flash[0] <= s["flash_work"] < flash[1],
         "ram_work and ram_hot are linked in RAM (0x%x..0x%x), flash_work in flash "
         "(0x%x..0x%x)" % (ram + flash))

    with h.Qemu(elf, os.path.join(OUT, "qemu.log"), cwd=OUT) as q:
        rc, out = h.gdb(elf, q.port, [
            "break phase_done", "continue",
            "cd " + OUT,
            "gprof_fetch",
            "dump binary memory %s ranges_copy ranges_copy+ranges_copy_len"
            % os.path.join(OUT, "firmware-gmon.out"),
            "delete", "continue",
        ], timeout=300)
        try:
            q.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        qrc = q.proc.poll()
    with open(os.path.join(OUT, "gdb.log"), "w") as f:
        f.write(out)
    con = open(os.path.join(OUT, "qemu.log")).read()
    t.ok(re.search(r"ranges: profile_on_ranges\(\S+, \S+\) = 0", con) is not None,
         "profile_on_ranges over RAM and flash code returned 0", con[-1500:])
    t.ok("ramfunc: calls done" in con and "FIRMWARE FAILED" not in con,
         "the firmware's calls flash -> RAM -> flash return the right results", con[-1500:])
    t.ok("ramfunc: done" in con and qrc == 0, "runs to its end (QEMU status %r)" % qrc,
         con[-1500:])

    p = os.path.join(OUT, "gmon.out")
    if not t.ok(os.path.exists(p), "gprof_fetch wrote gmon.out", out[-2000:]):
        return t.done()
    m = re.search(r"gprof: wrote .* over (0x[0-9a-f]+)-(0x[0-9a-f]+), (0x[0-9a-f]+)-(0x[0-9a-f]+),",
                  out)
    t.ok(m is not None and int(m.group(1), 16) == flash[0] and int(m.group(3), 16) == ram[0],
         "gprof_fetch names both ranges", out[-2000:])
    fw = os.path.join(OUT, "firmware-gmon.out")
    t.ok(os.path.exists(fw) and open(fw, "rb").read() == open(p, "rb").read(),
         "gprof_fetch writes byte for byte what the target's own serializer produces")

    hdr, hists, arcs_raw = h.gmon_records(p)
    lows = [x[0] for x in hists]
    t.ok(lows == sorted(lows) and lows[0] == flash[0]
         and any(x[0] == ram[0] for x in hists)
         and all(flash[0] <= x[0] < flash[1] or ram[0] <= x[0] < ram[1] for x in hists),
         "gmon.out: histogram records in address order, flash's then RAM's",
         [(hex(x[0]), hex(x[1]), x[2]) for x in hists])
    t.eq({(x[1] - x[0]) // x[2] for x in hists}, {16}, "every record has the scale 16 bytes a bin")
    counts = h.hist_counts(hists)
    hot = [x[4][0] for x in hists if x[0] == s["ram_hot"] and x[2] == 1]
    t.eq(sorted(hot), [N_INJECT - 65535, 65535],
         "ram_hot's bucket, in the RAM range, past 65535: records of 65535 and the rest")
    m = re.search(r"gprof: samples (\d+), outside the range (\d+)", out)
    outside = int(m.group(2)) if m else -1
    t.eq(outside, 0, "no sample outside the two ranges")
    t.eq(sum(counts.values()) + hdr[3] + outside, hdr[2],
         "samples = the buckets of both ranges + profiler overhead + outside")
    t.eq(hdr[4], 0, "no call counted as from outside the ranges (call sites in RAM included)")

    rc, text, err = h.gprof(elf, p, "-b", "-q")
    t.eq(rc, 0, "%s reads the file" % os.path.basename(h.GPROF))
    arcs = h.call_graph(text)
    n = N["N_RAM_CALLS"]
    for (caller, callee), want, what in (
            (("run_calls", "flash_caller"), n, "flash -> flash"),
            (("flash_caller", "ram_func"), n, "flash -> RAM"),
            (("ram_func", "flash_leaf"), n, "RAM -> flash"),
            (("ram_func", "ram_leaf"), n, "RAM -> RAM"),
            (("main", "ram_work"), N["N_RAM_WORK"], "flash -> RAM"),
            (("main", "flash_work"), N["N_RAM_WORK"], "flash -> flash")):
        t.eq(arcs.get((caller, callee)), want, "GNU gprof: %s -> %s (%s)" % (caller, callee, what))

    rc, flat_text, err = h.gprof(elf, p, "-b", "-p")
    fl = h.flat(flat_text)
    rw, fw_ = fl.get("ram_work", (0,))[0], fl.get("flash_work", (0,))[0]
    t.ok(rw > 0 and fw_ > 0 and 0.8 <= rw / fw_ <= 1.25,
         "GNU gprof: ram_work (in RAM) has samples, about flash_work's, the same loop "
         "(%.2f%% against %.2f%%)" % (rw, fw_), flat_text[:1500])
    rate = hists[0][3]
    t.eq(flat_seconds(flat_text, "ram_hot"), "%.2f" % (N_INJECT / rate),
         "GNU gprof: ram_hot's self seconds (%d samples at %d Hz)" % (N_INJECT, rate))
    with_rate(p, p + ".1hz", 1)
    rc, text1, err = h.gprof(elf, p + ".1hz", "-b", "-p")
    t.eq(flat_seconds(text1, "ram_hot"), "%d.00" % N_INJECT,
         "GNU gprof, the file at 1 Hz: ram_hot has exactly %d samples" % N_INJECT)

    if not t.ok(os.access(TGPROF, os.X_OK), "tgprof is built (%s)" % TGPROF):
        return t.done()
    rc, ref, err = h.gprof(elf, p, "-b")
    q = subprocess.run([TGPROF, "-b", "--json=" + p + ".json", elf, p],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t.ok(q.returncode == 0 and q.stdout == ref,
         "tgprof prints GNU gprof's flat profile and call graph", q.stdout[:800] + q.stderr[:800])
    try:
        fns = {f["name"]: f["samples"] for f in json.load(open(p + ".json"))["functions"]}
    except (OSError, ValueError, KeyError):
        fns = {}
    t.eq(fns.get("ram_hot"), N_INJECT, "tgprof: ram_hot has %d samples" % N_INJECT)

    # profile_write, right after gdb's read: the same ranges, arcs and ram_hot's bucket.
    if (h.board_var("LIBC") or "newlib") == "picolibc":
        t.skip("profile_write", "%s's C library has no files through semihosting" % h.BOARD)
        return t.done()
    # (on microbit too: its 16 KiB of RAM hold the second set profile_write borrows)
    m = re.search(r"ranges: profile_write (-?\d+)", con)
    t.eq(int(m.group(1)) if m else None, 0, "profile_write(\"ranges.out\") returned 0")
    w = os.path.join(OUT, "ranges.out")
    if not t.ok(os.path.exists(w), "ranges.out is on the host"):
        return t.done()
    whdr, whists, warcs = h.gmon_records(w)
    wcounts = h.hist_counts(whists)
    t.ok([(x[0], x[1], x[2]) for x in whists if x[2] > 1] == [(x[0], x[1], x[2]) for x in hists if x[2] > 1]
         and wcounts.get(s["ram_hot"]) == N_INJECT and whdr[2] >= hdr[2] and whdr[4] == 0,
         "profile_write's file: the same records of both ranges, ram_hot's %d samples, no "
         "call from outside the ranges" % N_INJECT)
    rc, wtext, err = h.gprof(elf, w, "-b", "-q")
    t.eq(h.call_graph(wtext), arcs, "profile_write's file: GNU gprof's call graph is gdb's")
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
