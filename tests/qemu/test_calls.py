#!/usr/bin/env python3
"""End to end on QEMU: the calls firmware runs under -icount, gdb extracts gmon.out with
gprof.gdb, GNU gprof reads it, and the call counts equal the known numbers exactly.

Interrupt safety of the arc table: the arc shared -> shared_leaf is updated both from main's
loop and from the fast-timer handler, which preempts main inside its own mcount call for
that arc; its count must be exactly N_HAMMER + the ticks the handler counted. Without the
interrupt masking in __profile_mcount (target/src/arcs.c) increments are lost and this
check fails (a few hundred of ~50000).

The mcount stub's ABI, checked with gdb (mcount_abi.py) at the entry of a -pg function in
main and in the fast-timer handler: the stub calls __profile_mcount with sp 8-byte aligned
(AAPCS; eCos's stub did not), and on return r0-r11, sp and lr hold what they held at the
function's entry (r4-r11 filled with sentinels first). The firmware's args4 check covers
r0-r3 at run time.

FP argument registers (hard-float builds for Cortex-M4F/M7/M33): fp_args() takes arguments
in all of s0-s15 and checks them bit for bit after its mcount call, N_FP_ARGS times from
main while the fast timer's handler calls it too (its FP use, lazily stacked, lands inside
main's mcount calls); gdb checks s0-s15 across the stub at fp_args in thread and handler
mode. On soft-float boards the same calls pass their arguments in core registers and on
the stack, and every count is the same."""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402

CALLS = {}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "calls.h")) as f:
    for m in re.finditer(r"#define (\w+)\s+(\d+)", f.read()):
        CALLS[m.group(1)] = int(m.group(2))

ELF = os.path.join(h.FW_DIR, "calls.elf")
OUT = os.path.join(h.OUT_ROOT, "calls")


def hard_float(elf):
    """True if elf passes FP arguments in FP registers (its EABI attributes say so)."""
    readelf = re.sub(r"gprof$", "readelf", h.GPROF)
    p = subprocess.run([readelf, "-A", elf], stdout=subprocess.PIPE, text=True, check=True)
    return re.search(r"Tag_ABI_VFP_args: VFP registers", p.stdout) is not None


def run(tag):
    """Boot, stop at main (before any timer runs: the target must run on from such a
    stop), stop at phase 1, fetch; reset and dump; run to phase 2, dump.
    Returns (dir, gdb output)."""
    d = os.path.join(OUT, tag)
    shutil.rmtree(d, ignore_errors=True)
    for sub in ("phase1", "zero", "phase2"):
        os.makedirs(os.path.join(d, sub))
    with h.Qemu(ELF, os.path.join(d, "qemu.log")) as q:
        rc, out = h.gdb(ELF, q.port, [
            "tbreak main",
            "continue",
            "break phase_done",
            "continue",
            "cd " + os.path.join(d, "phase1"),
            "gprof_fetch",
            "print tick_count",
            "print fp_tick_count",
            "dump binary memory %s/firmware-gmon.out gmon_copy gmon_copy+gmon_copy_len"
            % os.path.join(d, "phase1"),
            "cd " + os.path.join(d, "zero"),
            "gprof_reset",
            "gprof_dump",
            "continue",
            "cd " + os.path.join(d, "phase2"),
            "gprof_dump",
            "kill",
        ])
    with open(os.path.join(d, "gdb.log"), "w") as f:
        f.write(out)
    return d, out


def run_abi():
    """Boot again and check the mcount stub's ABI with gdb at args4 (main, thread mode), at
    tick_work (the fast-timer handler, handler mode) and at fp_args from main and from the
    handler. Returns {name: (handler_sp, FP registers checked, changed registers)} and the
    gdb output."""
    d = os.path.join(OUT, "abi")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with h.Qemu(ELF, os.path.join(d, "qemu.log")) as q:
        rc, out = h.gdb(ELF, q.port, [
            "source " + os.path.join(os.path.dirname(os.path.abspath(__file__)), "mcount_abi.py"),
            "tbreak *args4", "continue", "python stub_abi('args4')",
            "tbreak *tick_work", "continue", "python stub_abi('tick_work')",
            # (tick_work again: its arc exists, so the stub's own lookup finds it)
            "tbreak *tick_work", "continue", "python stub_abi('tick_work_again')",
            # (the path with profiling off: the stub's gate closed for one call, here in
            # handler mode and at site_a below in thread mode; the profile timer runs on)
            "tbreak *tick_work", "continue", "python abi_gate(0)",
            "python stub_abi('tick_work_off')", "python abi_gate(1)",
            "tbreak *fp_args", "continue", "python stub_abi('fp_args')",
            "tbreak *fp_args if $_abi_in_handler()", "continue",
            "python stub_abi('fp_args_handler')",
            "tbreak *site_a", "continue", "python abi_gate(0)",
            "python stub_abi('site_a_off')", "python abi_gate(1)",
            "kill",
        ])
    with open(os.path.join(d, "gdb.log"), "w") as f:
        f.write(out)
    res = {}
    for m in re.finditer(r"^ABI (\w+) path=(slow|fast|off) handler_sp=(-|0x[0-9a-f]+) fp=(\d+) "
                         r"changed=(\S+)$", out, re.M):
        sp = None if m.group(3) == "-" else int(m.group(3), 16)
        res[m.group(1)] = (m.group(2), sp, int(m.group(4)), m.group(5))
    return res, out


def main():
    t = h.Tap()
    d, out = run("run1")
    p1 = os.path.join(d, "phase1", "gmon.out")
    con = open(os.path.join(d, "qemu.log")).read()
    t.ok("FIRMWARE FAILED" not in con and "calls: phase 1 done" in con,
         "firmware checks passed (profile_on: bad arguments and no memory -> error, left off; "
         "mcount keeps r0-r3)", con)
    t.ok("fp_args" not in con and "calls: phase 1 done" in con,
         "FP arguments (s0-s15 under hard float) arrive bit for bit after mcount, %d calls "
         "from main with an FP-using handler preempting, and from the handler"
         % (CALLS["N_FP_ARGS"] + 1), con)
    t.ok("calls: C library time ok" in con,
         "time(), clock() and gettimeofday() follow the board clock", con)
    if not t.ok(os.path.exists(p1), "gprof_fetch wrote gmon.out in gdb's current directory", out):
        return t.done()  # the firmware died early: nothing further to check
    m = re.search(r"\$1 = (\d+)", out)
    ticks = int(m.group(1)) if m else -1
    t.ok(ticks > 100, "the fast timer interrupted the hammer loop (%d ticks)" % ticks, out)
    m = re.search(r"\$2 = (\d+)", out)
    fp_ticks = int(m.group(1)) if m else -1
    t.ok(fp_ticks > 100, "the fast timer interrupted the fp_args loop (%d ticks)" % fp_ticks, out)

    rc, text, err = h.gprof(ELF, p1, "-b", "-q")
    t.eq(rc, 0, "%s reads the phase 1 file" % os.path.basename(h.GPROF))
    arcs = h.call_graph(text)
    want = {
        ("site_a", "leaf"): CALLS["N_SITE_A"],
        ("site_b", "leaf"): CALLS["N_SITE_B"],
        ("main", "site_a"): 1,
        ("main", "site_b"): 1,
        ("main", "recurse"): CALLS["N_RECURSE"],
        ("recurse", "recurse"): CALLS["N_RECURSE"] * (CALLS["DEPTH"] - 1),
        ("main", "work1"): CALLS["N_WORK"],
        ("main", "work3"): CALLS["N_WORK"],
        ("main", "args4"): 1,
        ("main", "hammer"): CALLS["N_HAMMER"],
        ("main", "shared"): CALLS["N_HAMMER"],
        ("main", "fp_args"): CALLS["N_FP_ARGS"] + 1,
    }
    for (caller, callee), n in want.items():
        t.eq(arcs.get((caller, callee)), n, "phase 1: %s -> %s" % (caller, callee))
    soft = [k for k in arcs if k[1] == "isr_work"]
    t.eq(sum(arcs[k] for k in soft), CALLS["N_SOFT_IRQ"], "isr_work called from the interrupt handler")
    t.ok(all(k[0].endswith("Handler") or "IRQ" in k[0] for k in soft),
         "isr_work's caller is the interrupt handler", soft)
    t.eq(sum(v for k, v in arcs.items() if k[1] == "tick_work"), ticks,
         "tick_work counted exactly once per fast-timer interrupt (no count lost to nesting)")
    # The one arc updated from both contexts: main's calls and the handler's, which preempt
    # main inside its own mcount call for this arc. Unmasked, increments are lost.
    t.eq(sorted(v for k, v in arcs.items() if k[1] == "shared" and k[0] != "main"), [ticks],
         "shared called once per fast-timer interrupt, from the handler only")
    t.ok(all(k[0] == "main" or k[0].endswith("Handler") for k in arcs if k[1] == "shared"),
         "shared's callers are main and the fast-timer handler",
         [k for k in arcs if k[1] == "shared"])
    t.eq(arcs.get(("shared", "shared_leaf")), CALLS["N_HAMMER"] + ticks,
         "shared -> shared_leaf, updated from main and from the fast-timer handler, "
         "loses no count (N_HAMMER + ticks)")

    t.eq(sorted(v for k, v in arcs.items() if k[1] == "fp_args" and k[0] != "main"), [fp_ticks],
         "fp_args called once per fast-timer interrupt of the FP phase, from the handler only")

    hdr = h.gmon_header(p1)
    t.eq(hdr[:2], (b"gmon", 1), "header magic and version")
    handler_calls = CALLS["N_SOFT_IRQ"] + ticks + fp_ticks
    if h.board_var("ARCH") == "armv7a":
        # Cortex-A9: the IRQ entry calls each handler from armv7a_irq_dispatch, in .text:
        # its calls are arcs from there, none from outside the range.
        disp = sum(c for (a, b), c in arcs.items() if a == "armv7a_irq_dispatch")
        t.eq((hdr[4], disp), (0, handler_calls),
             "the handlers' calls are arcs from armv7a_irq_dispatch, none from outside the range")
    elif h.board_var("ARCH") in ("armv7m", "armv6m"):
        # Cortex-M: each handler's own mcount sees EXC_RETURN as its caller: an arc from the
        # interrupt entry (from_pc 0xFFFFFFxx, which GNU gprof leaves out), none unrecorded.
        _, _, raw = h.gmon_records(p1)
        entries = sum(c for f, _, c in raw if f >= 0xFFFFFF00)
        t.eq((hdr[4], entries), (0, handler_calls),
             "the handlers' calls are arcs from the interrupt entry, none from outside the range")
    else:
        # The trap entry (outside the range) calls the handlers: counted in the header.
        t.eq(hdr[4], handler_calls, "calls from outside the range are counted in the header")
    t.ok(re.search(r"calls from outside the range %d" % hdr[4], out) is not None,
         "gprof_fetch prints the loss counters", out)
    _, hist, _ = h.gmon_parse(p1)
    # The header's second spare word is the profiler's overhead (samples in its own code, in
    # no bin); samples outside the range are what is left, and gprof_fetch prints them.
    m = re.search(r"gprof: samples \d+, outside the range (\d+)", out)
    t.eq(sum(hist[4]) + hdr[3] + (int(m.group(1)) if m else -1), hdr[2],
         "samples = sum of bins + profiler overhead + samples outside the range")

    rc, text, err = h.gprof(ELF, p1, "-b", "-p")
    fl = h.flat(text)
    w1, w3 = fl.get("work1", (0,))[0], fl.get("work3", (0,))[0]
    ratio = w3 / w1 if w1 else 0
    t.ok(2.85 <= ratio <= 3.15, "work3 gets 3x the samples of work1 (%.2f%% / %.2f%% = %.3f)"
         % (w3, w1, ratio), text)

    fw = open(os.path.join(d, "phase1", "firmware-gmon.out"), "rb").read()
    t.ok(fw == open(p1, "rb").read(),
         "gprof_fetch writes byte for byte what the target's own serializer produces")

    hz, zh, za = h.gmon_parse(os.path.join(d, "zero", "gmon.out"))
    t.ok(sum(zh[4]) == 0 and za == [] and hz[2:] == (0, 0, 0),
         "gprof_reset then gprof_dump: zero counts")
    rc, text, err = h.gprof(ELF, os.path.join(d, "zero", "gmon.out"), "-b")
    t.eq(rc, 0, "arm-none-eabi-gprof reads the empty file")

    p2 = os.path.join(d, "phase2", "gmon.out")
    rc, text, err = h.gprof(ELF, p2, "-b", "-q")
    arcs2 = h.call_graph(text)
    t.eq(arcs2.get(("site_a", "leaf")), CALLS["N_SITE_A"], "phase 2 after the reset: site_a -> leaf")
    t.ok(sorted(k for k in arcs2 if k[1] != "site_a") == [("site_a", "leaf")],
         "phase 2 holds nothing recorded before the reset", arcs2)

    abi, out = run_abi()
    # FP argument registers exist where the firmware passes arguments in them.
    fp_regs = 16 if hard_float(ELF) else 0
    for name, where in (("args4", "main"), ("tick_work", "the fast-timer handler"),
                        ("fp_args", "main"), ("fp_args_handler", "the fast-timer handler"),
                        ("tick_work_again", "the fast-timer handler"),
                        ("tick_work_off", "the fast-timer handler"), ("site_a_off", "main")):
        path, sp, nfp, changed = abi.get(name, (None, None, None, None))
        t.ok(path in ("fast", "off") or (sp is not None and sp % 8 == 0),
             "mcount stub: %s path%s, from %s at %s"
             % (path, " calls __profile_mcount with sp 8-byte aligned (AAPCS), sp 0x%x" % sp
                if path == "slow" else " (its own lookup found the arc)" if path == "fast"
                else " (profiling off: the gate)", where, name), out)
        t.eq(nfp, fp_regs, "FP argument registers checked by gdb at %s" % name)
        t.eq(changed, "-", "mcount stub preserves r0-r11, sp and lr (the pushed word is "
             "consumed into lr)%s, from %s at %s; changed"
             % (" and s0-s15" if fp_regs else "", where, name))

    paths = sorted({v[0] for v in abi.values()})
    t.eq(paths, ["fast", "off", "slow"], "the ABI was checked on each of the stub's paths (a "
         "new arc through __profile_mcount, an existing one found by the stub, profiling off)")

    d2, out2 = run("run2")
    for sub in ("phase1", "phase2"):
        a = open(os.path.join(d, sub, "gmon.out"), "rb").read()
        b = open(os.path.join(d2, sub, "gmon.out"), "rb").read()
        t.ok(a == b, "two runs give identical %s files (%d bytes)" % (sub, len(a)))
    # gdb with the ELF but no live target: says so (it used to read the file's static image
    # and report "profiling is off"), for every macro, and writes no file.
    nodir = os.path.join(h.OUT_ROOT, "calls-notarget")
    shutil.rmtree(nodir, ignore_errors=True)
    os.makedirs(nodir)
    for macro in ("gprof_dump", "gprof_fetch", "gprof_reset", "gprof_stats"):
        p = subprocess.run(h.gdb_args(ELF, None, [macro]), cwd=nodir, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=60)
        t.ok("gprof: no running target" in p.stdout and "profiling is off" not in p.stdout
             and not os.listdir(nodir), "%s without a target: 'no running target'" % macro,
             p.stdout[-600:])
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
