#!/usr/bin/env python3
"""Nothing is lost silently, end to end: the bench firmware (tests/bench/bench.c) built with
CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=1 has fewer arc records than call sites (1000 of
them call leaf() in thousand_sites()), so the table fills up. gprof_dump must say how many
calls were dropped and warn, and every call the firmware made up to the third bench_mark
(bench_mark twice, call_empty, empty three times, thousand_sites, leaf 1000 times, spin:
1008) is either in gmon.out's arcs or counted as dropped, exactly."""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))
import harness as h  # noqa: E402

VALUES = ["CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=1"]
CALLS = 2 + 1 + 3 + 1 + 1000 + 1


def make(*args):
    env = dict(os.environ)
    for v in list(env):   # not the values of a `make test CYG...=...` that runs us
        if v in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "CONFIG") or v.startswith("CYG"):
            del env[v]
    return subprocess.run(["make", "--no-print-directory", "-s", "-C", ROOT, "BOARD=" + h.BOARD]
                          + VALUES + list(args), env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def main():
    t = h.Tap()
    tb = make("config-dir").stdout.strip()    # as make names it: BUILD may be absolute
    p = make("-j%d" % (os.cpu_count() or 2), os.path.join(tb, "fw", "bench.elf"))
    elf = os.path.join(ROOT, tb, "fw", "bench.elf")
    if not t.ok(p.returncode == 0 and os.path.exists(elf),
                "the bench firmware builds with ARC_PERCENTAGE=1", p.stdout):
        return t.done()
    out_dir = os.path.join(h.OUT_ROOT, "losses.%d" % os.getpid())
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    private = os.path.join(out_dir, "bench.elf")   # other runs may rebuild the original
    shutil.copyfile(elf, private)
    with h.Qemu(private, os.path.join(out_dir, "qemu.log")) as q:
        rc, out = h.gdb(private, q.port, ["break *bench_mark", "continue", "continue",
                                          "continue", "delete", "cd " + out_dir, "gprof_dump",
                                          "kill"], timeout=300)
    m = re.search(r"gprof: arcs (\d+) of (\d+), calls dropped \(arc table full\) (\d+)", out)
    if not t.ok(m is not None, "gprof_dump prints the arc counters", out[-2000:]):
        return t.done()
    used, capacity, dropped = (int(x) for x in m.groups())
    t.ok(used == capacity and capacity < 1000, "the table is full: %d of %d arc records" % (used, capacity))
    t.ok(dropped > 0, "calls dropped: %d" % dropped)
    t.ok("gprof: warning: the arc table overflowed" in out, "gprof_dump warns about it", out[-1500:])
    hdr, hist, arcs = h.gmon_parse(os.path.join(out_dir, "gmon.out"))
    t.eq(len(arcs), used, "gmon.out holds every arc record")
    t.eq(sum(a[2] for a in arcs) + dropped, CALLS,
         "calls in gmon.out + calls dropped = every call the firmware made")
    rc, text, err = h.gprof(private, os.path.join(out_dir, "gmon.out"), "-b", "-q")
    t.ok(rc == 0, "arm-none-eabi-gprof reads it", err)
    shutil.rmtree(out_dir, ignore_errors=True)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
