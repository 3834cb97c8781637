#!/usr/bin/env python3
"""Code that runs from RAM, on every board: functions in section ".ramfunc" are linked to run
in RAM (between _sramfunc and _eramfunc, outside _stext.._etext), loaded in CODE (at
_siramfunc), copied by the startup before main, and called from flash code, calling back
into flash (tests/qemu/ramfunc.c; its numbers in ramfunc.h).

From the ELF: the linker script's symbols and where the functions are; --gc-sections drops a
.ramfunc.* section nothing refers to. From QEMU and gdb: the CPU executes the RAM copy (the
pc at a breakpoint in a RAM function), the firmware's own checks (addresses, the copy equals
its load image, every result) pass, it reaches its done marker and exits 0.

This firmware profiles one range, _stext.._etext, with profile_on: a call whose call site is
in RAM is then not an arc but counted, exactly, in the header's "calls from outside the
range", and a sample in RAM counts as outside the range; nothing is lost silently.
tests/qemu/test_ranges.py runs the same code profiled over both ranges (profile_on_ranges):
there the RAM code has exact arcs and samples of its own."""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402

N = {}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ramfunc.h")) as f:
    for m in re.finditer(r"#define (\w+)\s+(\d+)", f.read()):
        N[m.group(1)] = int(m.group(2))

ELF = os.path.join(h.FW_DIR, "ramfunc.elf")
OUT = os.path.join(h.OUT_ROOT, "ramfunc")
RAM_FUNCS = ("ram_func", "ram_leaf", "ram_work")
FLASH_FUNCS = ("flash_caller", "flash_leaf", "flash_work", "run_calls")


def symbols(elf):
    """{name: address} of elf's symbol table (the board's nm)."""
    nm = re.sub(r"gprof$", "nm", h.GPROF)
    p = subprocess.run([nm, elf], stdout=subprocess.PIPE, text=True, check=True)
    syms = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 3:
            syms[f[2]] = int(f[0], 16)
    return syms


def main():
    t = h.Tap()
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)

    # ---- the link ----
    s = symbols(ELF)
    have = all(k in s for k in ("_sramfunc", "_eramfunc", "_siramfunc", "_stext", "_etext"))
    if not t.ok(have, "the linker script exports _sramfunc, _eramfunc, _siramfunc", s):
        return t.done()
    lo, hi, load = s["_sramfunc"], s["_eramfunc"], s["_siramfunc"]
    t.ok(lo < hi and lo % 16 == 0 and hi % 16 == 0,
         ".ramfunc 0x%x..0x%x: not empty, 16-byte aligned" % (lo, hi))
    t.ok(load != lo and (hi <= s["_stext"] or lo >= s["_etext"]),
         ".ramfunc runs apart from its load image (0x%x) and outside _stext.._etext "
         "(0x%x..0x%x)" % (load, s["_stext"], s["_etext"]))
    for f in RAM_FUNCS:
        t.ok(f in s and lo <= (s[f] & ~1) < hi, "%s is linked in RAM, in .ramfunc" % f,
             "0x%x" % s.get(f, 0))
    for f in FLASH_FUNCS:
        t.ok(f in s and s["_stext"] <= (s[f] & ~1) < s["_etext"],
             "%s is linked in flash, in _stext.._etext" % f, "0x%x" % s.get(f, 0))
    t.ok("ram_unused" not in s,
         "--gc-sections drops a .ramfunc.* section nothing refers to (no KEEP)")

    # ---- the run ----
    with h.Qemu(ELF, os.path.join(OUT, "qemu.log")) as q:
        rc, out = h.gdb(ELF, q.port, [
            "tbreak ram_leaf",
            "continue",
            "printf \"RAMPC 0x%lx\\n\", (unsigned long)$pc",
            "break phase_done",
            "continue",
            "cd " + OUT,
            "gprof_fetch",
            "printf \"RESULT 0x%lx\\n\", (unsigned long)ram_result",
            "delete",
            "continue",
        ], timeout=300)
        try:
            q.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        qrc = q.proc.poll()
    with open(os.path.join(OUT, "gdb.log"), "w") as f:
        f.write(out)
    con = open(os.path.join(OUT, "qemu.log")).read()

    m = re.search(r"^RAMPC (0x[0-9a-f]+)$", out, re.M)
    pc = int(m.group(1), 16) if m else None
    t.ok(pc is not None and (s["ram_leaf"] & ~1) <= pc < hi,
         "the CPU executes ram_leaf from RAM (pc %s at its breakpoint)"
         % (hex(pc) if pc is not None else None), out[-2000:])
    t.ok("ramfunc: layout ok" in con and "FIRMWARE FAILED" not in con,
         "firmware: RAM functions in [_sramfunc, _eramfunc), flash ones in [_stext, _etext), "
         "the RAM copy equals its load image", con)
    t.ok("ramfunc: calls done" in con and "FIRMWARE FAILED" not in con,
         "firmware: %d calls flash -> RAM -> flash (and RAM -> RAM) return the right results"
         % N["N_RAM_CALLS"], con)
    t.ok("ramfunc: done" in con and qrc == 0,
         "runs past its done marker to exit(0) (QEMU status %r)" % qrc, con[-2000:])

    # ---- the profile (over _stext.._etext) ----
    p = os.path.join(OUT, "gmon.out")
    if not t.ok(os.path.exists(p), "gprof_fetch wrote gmon.out at the done marker", out[-2000:]):
        return t.done()
    rc, text, err = h.gprof(ELF, p, "-b", "-q")
    t.eq(rc, 0, "%s reads the file" % os.path.basename(h.GPROF))
    arcs = h.call_graph(text)
    n = N["N_RAM_CALLS"]
    # Call sites in flash: arcs, exact, also the one into RAM.
    t.eq(arcs.get(("run_calls", "flash_caller")), n, "run_calls -> flash_caller")
    t.eq(arcs.get(("flash_caller", "ram_func")), n,
         "flash_caller -> ram_func (a call site in flash into RAM: an arc)")
    t.eq(arcs.get(("main", "ram_work")), N["N_RAM_WORK"], "main -> ram_work")
    t.eq(arcs.get(("main", "flash_work")), N["N_RAM_WORK"], "main -> flash_work")
    # One range: a call site in RAM is outside _stext.._etext, so ram_func -> flash_leaf
    # and ram_func -> ram_leaf are not arcs but counted, not lost silently, as calls from
    # outside the range (this firmware has no -pg interrupt handler adding to them).
    hdr = h.gmon_header(p)
    t.eq(hdr[4], 2 * n, "one range: the calls made from RAM count as calls from outside "
         "the range (ram_func -> flash_leaf, ram_func -> ram_leaf: 2 x N_RAM_CALLS)")
    t.ok(("ram_func", "flash_leaf") not in arcs and ("ram_func", "ram_leaf") not in arcs,
         "one range: no arc from a RAM call site", arcs)
    # One range: samples in ram_work land outside it (test_ranges.py: in bins of their own).
    m = re.search(r"gprof: samples (\d+), outside the range (\d+)", out)
    t.ok(m is not None and int(m.group(2)) > 0,
         "one range: samples in RAM code count as outside the range (%s)"
         % (m.group(0) if m else None), out[-2000:])
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
