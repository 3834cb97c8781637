#!/usr/bin/env python3
"""The halting sweep: wherever gdb halts the target, gprof_dump is exact.

The firmware (tests/qemu/sweep.c) runs rounds of snapshot transfers, delivered and
abandoned in turn (the TFTP daemon's path, without a network), with main calling -pg code
meanwhile and a -pg fast timer handler nesting anywhere; it profiles two ranges, and
buckets go past 0xFFFF (overflow entries) before and during every transfer. gdb (tests/qemu/sweep_gdb.py) puts
a breakpoint on every instruction of the snapshot take, release and merge-back, the reset
(slow path, clear, profile_reset), profile_on and profile_off, and the two hot paths with
their slow halves (sample, mcount), and runs gprof_dump at each the first time it is
reached, under -icount (the overflow entries' paths, and profile_on_ranges, too). Then:
  - every instruction of those functions that runs in this firmware is halted at (a
    second boot reaches none of the others);
  - every file's header agrees with its bins (samples = bins + profiler overhead + samples
    outside the range, which is what is left) and states the profile's sampling rate;
  - dumps + delivered snapshots + what profile_reset()/profile_on() discarded + what
    remains = every sample the timer took and every call the firmware made, exactly;
  - profile_on()/profile_off() from an interrupt handler were refused (the firmware checks
    and says so on the console).
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402

ELF = os.path.join(h.BUILD, h.BOARD, "net", "sweep.elf")
OUT = os.path.join(h.OUT_ROOT, "sweep")
NM = "arm-none-eabi-nm"
OBJDUMP = "arm-none-eabi-objdump"
# The functions swept (static ones by prefix: GCC may clone them, e.g. hit_miss.constprop.0).
SWEPT = ("profile_snapshot_take", "profile_snapshot_release", "merge_back", "step_begin",
         "merge_arc_losses", "merge_overflow_entries", "merge_bins", "merge_unbinned_samples",
         "merge_arcs", "zero_frozen_set",
         "profile_slow_path", "profile_clear", "profile_clear_counts",
         "__profile_hit", "hit_miss", "__profile_mcount", "mcount_miss", "profile_arc_add",
         "arc_insert", "arc_promote", "__gnu_mcount_nc", "profile_reset", "profile_on",
         "profile_off", "profile_stop",
         "profile_set_layout", "profile_start_timer", "profile_on_ranges",
         "hist_count_slow", "profile_bin_store", "profile_bin_count", "profile_ovf_lower_bound")
# (the task table's freeze, thaw, clear and switch: test_sweep_stacks.py, whose boots share
# the snapshot's masked sections among them; here each take has room for its own)
# gdb never reads inside a snapshot's release: it runs the target out of it first (its
# merge-back moves the bins and arcs a step at a time, the task table and the stack mode's
# tree in its last step: gdb/gprof.gdb, _release_frame). So a halt anywhere in it is a
# halt at its end, and its instructions are swept at every RELEASE_STRIDE-th (each costs
# the release it is reached in), not all of them.
RUN_OUT = ("profile_snapshot_release", "merge_back", "merge_arc_losses",
           "merge_overflow_entries", "merge_bins", "merge_unbinned_samples", "merge_arcs",
           "zero_frozen_set")
RELEASE_STRIDE = 6


def split_run_out(every, elf=ELF):
    """The swept functions but those gdb runs out of, and the instructions of those."""
    funcs = {n: v for n, v in every.items() if n.split(".")[0] not in RUN_OUT}
    return funcs, sorted(swept_instructions({n: v for n, v in every.items()
                                             if n not in funcs}, elf))


def check_run_out(t, hits, run_out):
    """The halts inside a release (each dumped after gdb ran the target out of it); the
    hits that remain for the coverage check."""
    inside = set(run_out)
    n = sum(1 for a in hits if a in inside)
    t.ok(n >= 10, "halts inside a snapshot's release (merge-back included): %d, each dumped "
         "after gdb ran the target out of it" % n)
    return [a for a in hits if a not in inside]


def tasks_samples(path):
    """gmon.tasks' header samples and its records' sum (doc/format.md; 4-byte ids,
    little-endian), or None if there is no file."""
    if not os.path.exists(path):
        return None
    d = open(path, "rb").read()
    n, samples = struct.unpack_from("<II", d, 20)
    total, off = 0, 32
    for _ in range(n):
        got, namelen = struct.unpack_from("<II", d, off + 4)
        total += got
        off += 12 + (namelen + 3) // 4 * 4
    return samples, total


def swept_functions(elf=ELF, swept=SWEPT, accept=lambda name, start: True):
    """{name: (start, size)} of the swept functions present in the ELF (and accepted: two
    files may each have a static function of that name)."""
    p = subprocess.run([NM, "-S", "--defined-only", elf], stdout=subprocess.PIPE, text=True,
                       check=True)
    funcs = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tT" and f[3].split(".")[0] in swept and \
                accept(f[3], int(f[0], 16) & ~1):
            funcs[f[3]] = (int(f[0], 16) & ~1, int(f[1], 16))
    return funcs


def instructions(start, size, elf=ELF):
    """The addresses of the instructions in [start, start + size): Thumb's halfwords (one
    or two) and ARM's words alike, literal pools (.word) left out. None is an error: a
    sweep of nothing would pass."""
    p = subprocess.run([OBJDUMP, "-d", "--start-address=0x%x" % start,
                        "--stop-address=0x%x" % (start + size), elf],
                       stdout=subprocess.PIPE, text=True, check=True)
    found = [int(m.group(1), 16) for m in
             re.finditer(r"^\s*([0-9a-f]+):\s+(?:[0-9a-f]{8}|[0-9a-f]{4}(?: [0-9a-f]{4})?)"
                         r"\s+(?!\.word)\S", p.stdout, re.M)]
    if not found:
        raise SystemExit("test_sweep: no instruction found in 0x%x..0x%x of %s"
                         % (start, start + size, elf))
    return found


def swept_instructions(funcs, elf=ELF):
    """{address: function name} of every instruction of funcs."""
    return {a: name for name, (start, size) in funcs.items()
            for a in instructions(start, size, elf)}


def run_gdb(cfg, name, elf=ELF, out=OUT):
    """Boots the firmware halted and runs sweep_gdb.py with cfg; returns its JSON result."""
    path = os.path.join(out, name + ".json")
    json.dump(cfg, open(path, "w"))
    os.environ["SWEEP_CFG"] = path
    with h.Qemu(elf, os.path.join(out, name + "-qemu.log")) as q:
        rc, gdb_out = h.gdb(elf, q.port, ["source " + os.path.join(os.path.dirname(
            os.path.abspath(__file__)), "sweep_gdb.py")], timeout=600)
    with open(os.path.join(out, name + "-gdb.log"), "w") as f:
        f.write(gdb_out)
    result = os.path.join(out, "probe.json" if cfg.get("probe") else "result.json")
    if not os.path.exists(result):
        print("# gdb: " + gdb_out[-1500:].replace("\n", "\n# "))
        return None
    return json.load(open(result))


def check_coverage(t, funcs, where, r, cfg, elf=ELF, out=OUT):
    """Prints what the sweep halted at, function by function; checks that most of it ran
    and that a second boot (cfg, with breakpoints on the rest alone, and no dumps) reaches
    none of the instructions not halted at."""
    # gdb cannot halt on an instruction inside an IT block (it moves such a breakpoint to
    # the IT instruction, which is swept itself).
    hit = set(r["hits"]) | {int(a) for a in r["adjusted"]}
    missed = sorted(a for a in where if a not in hit)
    print("# %d of %d instructions halted at and dumped (%d inside IT blocks: at the IT); "
          "%d dumps; %d halts with profiling off (before profile_on, inside a restart)"
          % (len(r["hits"]), len(where), len(r["adjusted"]), r["dumps"], r["off"]))
    for name in sorted(funcs):
        n = sum(1 for a in where.values() if a == name)
        m = [a for a in missed if where[a] == name]
        print("#   %-28s %3d of %3d%s" % (name, n - len(m), n, "; not reached: " + " ".join(
            "0x%x" % a for a in m) if m else ""))
    t.ok(len(hit) >= 0.85 * len(where), "most of the swept code runs in this firmware")
    p = run_gdb(dict(cfg, addresses=missed, out=out, probe=True), "probe", elf, out)
    t.ok(p is not None and p["reached"] == [],
         "every instruction the firmware runs was halted at (a second run reaches none of "
         "the %d others)" % len(missed), p and ["0x%x" % a for a in p["reached"]])


def gmon_totals(paths):
    """What gmon.out files hold, added up: samples, in_bins, out_of_range, overhead, calls
    (the arcs'), not_recorded; bad: the files whose header disagrees with their bins (or
    with a bin stuck at 0xFFFF); rates: {prof_rate: a file stating it}."""
    tot = dict(samples=0, in_bins=0, out_of_range=0, overhead=0, calls=0, not_recorded=0,
               bad=[], rates={})
    for path in paths:
        hdr, hist, arcs = h.gmon_parse(path)
        _, records, _ = h.gmon_records(path)
        tot["rates"].setdefault(hist[3], os.path.basename(path))
        file_bins = sum(hist[4])
        # (a stuck bin: 0xFFFF in a range's record; a one-bucket record of 65535 is a piece
        # of a bucket past 0xFFFF)
        stuck = any(0xFFFF in x[4] for x in records if x[2] > 1)
        if stuck or hdr[2] < file_bins + hdr[3]:
            tot["bad"].append((os.path.basename(path), hdr[2], file_bins, hdr[3]))
        tot["samples"] += hdr[2]
        tot["overhead"] += hdr[3]
        tot["out_of_range"] += hdr[2] - hdr[3] - file_bins
        tot["not_recorded"] += hdr[4]
        tot["in_bins"] += file_bins
        tot["calls"] += sum(a[2] for a in arcs)
    return tot


def dump_files(out=OUT):
    """The sweep's gmon.out files: every dump in order, then final.out."""
    return [os.path.join(out, f) for f in sorted(f for f in os.listdir(out)
                                                 if re.match(r"dump\d+\.out$", f))] + \
        [os.path.join(out, "final.out")]


def main():
    t = h.Tap()
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    every = swept_functions()
    t.ok({"profile_snapshot_take", "profile_snapshot_release", "__profile_hit",
          "__profile_mcount", "profile_slow_path"} <= set(every),
         "the swept functions are in the firmware", sorted(every))
    funcs, run_out = split_run_out(every)
    where = swept_instructions(funcs)
    r = run_gdb({"addresses": sorted(set(where) | set(run_out[::RELEASE_STRIDE])),
                 "out": OUT}, "sweep")
    console = open(os.path.join(OUT, "sweep-qemu.log")).read()
    t.ok(r is not None, "the sweep ran to its end", console[-2000:])
    if r is None:
        return t.done()
    t.ok("sweep: in an interrupt handler profile_on: %d, profile_off: %d" % (-1, -1)
         in console, "profile_on/profile_off in an interrupt handler: refused (-EPERM)", console)
    t.ok(r["refused"] == [], "gprof_fetch/gprof_reset worked at every halt", r["refused"][:10])

    # What the sweep did not halt at must be what this firmware never runs (a bucket
    # saturating, the arc table full, a configuration without a spare set, profile_on or
    # profile_off from another thread during a release: the unit tests cover those).
    r["hits"] = check_run_out(t, r["hits"], run_out)
    check_coverage(t, funcs, where, r, {})

    # Every file whole; totals exact.
    files = dump_files()
    g = gmon_totals(files)
    samples, in_bins, oor, overhead, calls, not_recorded, bad, rates = (
        g[k] for k in ("samples", "in_bins", "out_of_range", "overhead", "calls",
                       "not_recorded", "bad", "rates"))
    # What was delivered or discarded, counted by the firmware: added up as one.
    d = {k: r["delivered"][k] + r["discarded"][k] for k in r["delivered"]}
    t.ok(bad == [], "every dump's header agrees with its bins (%d files)" % len(files), bad[:10])
    # gmon.tasks beside each: the same snapshot (the task table's counts are worked out at
    # the running task's switch, reset and snapshot, never counted in the sample path)
    odd = []
    for path in files:
        got = tasks_samples(path[:-4] + ".tasks")
        want = h.gmon_header(path)[2]
        if got != (want, want):
            odd.append((os.path.basename(path), want, got))
    t.ok(odd == [], "every dump's gmon.tasks holds its gmon.out's samples, every one in a "
         "task (%d files)" % len(files), odd[:10])
    t.eq(sorted(rates), [1000000 // 25], "every file states the sampling rate (25 us: 40000 Hz)")
    t.ok(r["discarded"]["files"] > 64 and r["discarded"]["samples"] > 0,
         "profile_reset() and profile_on_ranges() discarded data (up to 64 and 192 times; "
         "none when gdb had just asked for a reset)", r["discarded"])
    t.ok(d["samples"] == d["in_bins"] + d["out_of_range"] + d["overhead"],
         "the delivered and discarded data's headers agree with their bins", d)
    t.eq(r["delivered"]["files"], 32, "transfers delivered")
    t.eq(r["frozen_outstanding"], 0, "no snapshot outstanding at the end")
    t.eq(samples + d["samples"], r["samples_taken"],
         "samples: dumps + delivered + discarded + remaining = every sample the timer took")
    t.eq(in_bins + oor + overhead + d["in_bins"] + d["out_of_range"] + d["overhead"],
         r["samples_taken"], "bins + samples outside the range + overhead, over all files = "
         "every sample")
    t.ok(oor > 0 and not_recorded > 0, "the slow paths ran: samples and calls outside the range",
         (oor, not_recorded))
    t.ok(overhead + d["overhead"] > 0, "samples in the package's own code: profiler overhead, "
         "in no bin (%d)" % (overhead + d["overhead"]))
    t.eq(calls + not_recorded + d["calls"] + d["not_recorded"], r["calls"],
         "calls: dumps + delivered + discarded + remaining = every call the firmware made")
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
