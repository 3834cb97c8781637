#!/usr/bin/env python3
"""Sampling goes on after interrupts were masked for longer than a period, on every profile
timer (tests/qemu/masked.c: masked 1 to 6 periods and a fraction, then open 2 to 6 periods,
for 0.4 s of board time, at 100 us and 16 us). A timer whose catch-up after such a section
set a deadline already past fell silent until its counter wrapped (a CMSDK timer for some
2^32 ticks, the nRF51's for 4 ms): no sample, nothing counted. Checked per phase: no silent
cycle, and at least 95% of the samples expected (one held back by each masked section, then
one a period open; the loop's own time between cycles, not counted there, adds more)."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402

ELF = os.path.join(h.FW_DIR, "masked.elf")
OUT = os.path.join(h.OUT_ROOT, "masked")


def main():
    t = h.Tap()
    os.makedirs(OUT, exist_ok=True)
    log = os.path.join(OUT, "qemu.log")
    with h.Qemu(ELF, log) as q:
        rc, out = h.gdb(ELF, q.port, ["continue"], timeout=300)
    con = open(log).read()
    t.ok("masked: done" in con and "FIRMWARE FAILED" not in con, "the firmware runs to its end",
         con[-2000:] + out[-1000:])
    phases = re.findall(r"masked: phase (\d), interval (\d+) us: cycles (\d+), samples (\d+), "
                        r"expected (\d+), silent cycles (\d+)", con)
    t.eq(len(phases), 2, "both phases report")
    for n, interval, cycles, got, want, silent in phases:
        got, want = int(got), int(want)
        t.eq(int(silent), 0, "%s us: no cycle without samples after its masked section "
             "(%s cycles)" % (interval, cycles))
        t.ok(got >= 0.95 * want, "%s us: %d samples, at least 95%% of the %d expected"
             % (interval, got, want))
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
