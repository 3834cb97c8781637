#!/usr/bin/env python3
"""The native gprof flow, no debugger: files through semihosting into QEMU's directory.

  - make demo-semihosting (tests/semihosting/run-demo-semihosting) runs to the end and
    GNU gprof shows the demo's known counts;
  - profile_write (tests/semihosting/writes.c), with samples and a -pg interrupt handler's
    calls landing inside the writes: each file holds exactly the work done since the last
    write, its header agrees with its bins, and the files plus what remains are every
    sample the timer took and every call the handler made; a bad path and a call from an
    interrupt handler are refused and lose nothing, profiling off writes no file; the time
    a 64 KiB histogram with 1000 arcs takes;
  - an application linked with PROFILE_AUTOSTART and nothing else
    (tests/semihosting/autostart_app.c): gmon.out at exit, with main's own call, a
    constructor's and an atexit handler's; on the reference board, built again with the
    CYG..._AUTOSTART_* options set, which take effect;
  - the same application on a heap with no block above 256 bytes
    (tests/semihosting/small_heap.c): autostart's profile_on fails with -ENOMEM, and the
    console says so in words a person can act on: the figures (bytes needed, the largest
    free block) and what to change; on one that gives the profile its block and no other
    large one, the same for profile_write's -ENOMEM at exit.
"""
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "qemu"))
import harness as h  # noqa: E402

OUT = os.path.join(h.OUT_ROOT, "semihosting")
N_A, N_B, N_C, SAMPLE_US = 1000, 2000, 300, 50          # tests/semihosting/writes.h


def private_copy(name):
    """The firmware copied here: other runs may rebuild it meanwhile."""
    src = os.path.join(h.FW_DIR, name + ".elf")
    dst = os.path.join(OUT, name + ".elf")
    shutil.copy(src, dst)
    return dst


def boot(elf, workdir, timeout=120):
    """Runs elf in QEMU with workdir as QEMU's current directory (where semihosting's
    files go), no gdb. Returns (exit status, [(seconds since boot, console line)])."""
    os.makedirs(workdir, exist_ok=True)
    start = time.monotonic()
    p = subprocess.Popen([h.RUN_QEMU, "--timeout", str(timeout), elf], cwd=workdir,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines = [(time.monotonic() - start, line.rstrip("\r\n")) for line in p.stdout]
    rc = p.wait()
    with open(os.path.join(workdir, "console.log"), "w") as f:
        f.write("".join("%8.3f %s\n" % line for line in lines))
    return rc, lines


def call_graph(elf, gmon):
    rc, out, err = h.gprof(elf, gmon, "-b", "-q")
    return h.call_graph(out) if rc == 0 else {("gprof failed", err): 0}


def whole(gmon):
    """The header's samples agree with the bins (+ samples outside the range); no bin
    saturated. Returns (header, hist, arcs)."""
    hdr, hist, arcs = h.gmon_parse(gmon)
    return hdr, hist, arcs, hdr[2] == sum(hist[4]) + hdr[3] and 0xFFFF not in hist[4]


def test_demo(t):
    elf = private_copy("demo-semihosting")
    out = os.path.join(OUT, "demo")
    env = dict(os.environ, GPROF=h.GPROF)
    p = subprocess.run([os.path.join(HERE, "run-demo-semihosting"), h.RUN_QEMU, elf, out],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    text = p.stdout
    t.ok(p.returncode == 0, "make demo-semihosting: runs to the end", text[-2000:])
    t.eq(len(re.findall(r"^\[demo-semihosting [1-3]/3\]", text, re.M)), 3,
         "make demo-semihosting: three progress lines")
    t.ok("console: profile: wrote gmon.out" in text,
         "make demo-semihosting: the firmware wrote gmon.out at exit, no debugger", text[:1500])
    if not os.path.exists(os.path.join(out, "gmon.out")):
        return
    hdr, hist, arcs, ok = whole(os.path.join(out, "gmon.out"))
    t.ok(ok and hdr[2] > 0, "make demo-semihosting: gmon.out's header agrees with its bins",
         hdr)
    flat = h.flat(text)
    t.eq(flat.get("crc8", (0, None))[1], 128000, "make demo-semihosting: crc8 called 128000 times")
    t.ok(re.search(r"^\s*[\d.]+\s+[\d.]+\s+[\d.]+\s+128000 .* crc8$",
                   text.split(" time ", 1)[-1].split("\n", 2)[1] if " time " in text else "", re.M)
         is not None, "make demo-semihosting: crc8 on top of the flat profile")
    t.ok(re.search(r"2000/2000 +crc_packet", text) and re.search(r"250/250 +insertion_sort", text),
         "make demo-semihosting: call graph, main -> crc_packet 2000/2000, median -> "
         "insertion_sort 250/250")


def test_writes(t):
    elf = private_copy("semihosting-writes")
    work = os.path.join(OUT, "writes")
    os.makedirs(os.path.join(work, "no", "such"), exist_ok=True)   # but no "dir" in it
    rc, lines = boot(elf, work)
    console = [line for _, line in lines]
    text = "\n".join(console)
    t.ok(rc == 0 and "writes: done" in console, "the profile_write firmware runs to the end",
         text[-2000:])
    if rc != 0:
        return
    t.ok("files: ok" in console, "the C library's files through semihosting: stdio and fds "
         "(write, append, read, seek, tell, fstat, errors)", text[:1000])
    stdio = os.path.join(work, "stdio.txt")
    t.eq(open(stdio, "rb").read() if os.path.exists(stdio) else None, b"One 1\ntwo\n",
         "stdio.txt on the host: written, appended to, overwritten in place")
    writes = {m.group(1): tuple(int(x) for x in m.group(2, 3, 4))
              for m in (re.match(r"write (\S+) rc (-?\d+) ticks (\d+) (\d+)$", c) for c in console) if m}
    t.ok(all(writes.get(f, (1,))[0] == 0 for f in ("w1.out", "w2.out", "w3.out", "w4.out")),
         "profile_write returned 0 for w1..w4", writes)

    files = {}
    for f in ("w1.out", "w2.out", "w3.out", "w4.out"):
        path = os.path.join(work, f)
        if os.path.exists(path):
            files[f] = whole(path) + (call_graph(elf, path),)
    t.eq(sorted(files), ["w1.out", "w2.out", "w3.out", "w4.out"], "the four files are on the host")
    if len(files) != 4:
        return
    t.ok(all(v[3] for v in files.values()), "every file's header agrees with its bins",
         {f: v[0] for f, v in files.items()})
    t.eq(sorted({v[1][3] for v in files.values()}), [1000000 // SAMPLE_US],
         "every file states the sampling rate")

    def arcs(f, caller, callee):
        return files[f][4].get((caller, callee), 0)

    # Each file: exactly the work since the last write.
    t.eq([arcs(f, "work_a", "leaf_a") for f in ("w1.out", "w2.out", "w3.out", "w4.out")],
         [N_A, 0, 0, N_C], "work_a -> leaf_a per file: N_A, none, none, N_C (the failed writes "
         "lost nothing)")
    t.eq([arcs(f, "work_b", "leaf_b") for f in ("w1.out", "w2.out", "w3.out", "w4.out")],
         [0, N_B, 0, 0], "work_b -> leaf_b per file: only in w2")
    t.eq([arcs(f, "main", "work_a") for f in ("w1.out", "w2.out", "w3.out", "w4.out")],
         [1, 0, 0, 1], "main -> work_a per file")

    # The interrupt handler's calls: landing anywhere, inside the writes too; each counted
    # once, in the file of the write that came after it.
    m = re.search(r"^fast ticks (\d+)$", text, re.M)
    ticks = int(m.group(1)) if m else -1
    isr = [arcs(f, "fast_tick", "isr_leaf") for f in ("w1.out", "w2.out", "w3.out", "w4.out")]
    t.eq(sum(isr), ticks, "fast_tick -> isr_leaf over the files = the handler's calls")
    b1, a1 = writes["w1.out"][1:]
    b2, a2 = writes["w2.out"][1:]
    t.ok(a1 > b1 and a2 > b2, "the handler ran during the writes (%d and %d times)"
         % (a1 - b1, a2 - b2))
    t.ok(b1 <= isr[0] <= a1 and b2 <= isr[0] + isr[1] <= a2 and isr[3] == 0,
         "each file holds the handler's calls up to its write: w1 in [%d, %d], w1+w2 in "
         "[%d, %d], none after the timer stopped" % (b1, a1, b2, a2), isr)

    m = re.search(r"^samples taken (\d+) remaining (\d+)$", text, re.M)
    taken, remaining = (int(m.group(1)), int(m.group(2))) if m else (-1, -1)
    in_files = sum(v[0][2] for v in files.values())
    t.eq(in_files + remaining, taken,
         "samples: the files + what remains = every sample the timer took (%d in the files)"
         % in_files)

    t.ok("bad path: -ENOENT" in console and writes.get("no/such/dir/w.out", (0,))[0] < 0,
         "a path in a directory that does not exist: -ENOENT")
    t.ok("in an interrupt handler: -EPERM" in console, "from an interrupt handler: -EPERM")
    t.ok("profiling off: -ENODATA" in console, "profiling off: -ENODATA")
    t.ok(not any(os.path.exists(os.path.join(work, f))
                 for f in ("off.out", "isr.out", "no/such/dir")),
         "refused writes leave no file")

    # The 64 KiB histogram with 1000 arcs: seconds between the console lines around it.
    when = {line: at for at, line in lines}
    if "big: writing" in when and "big: written, rc 0" in when:
        secs = when["big: written, rc 0"] - when["big: writing"]
        path = os.path.join(work, "big.out")
        hdr, hist, big_arcs, ok = whole(path)
        m = re.search(r"^big: (\d+) us of board time$", text, re.M)
        print("# a 64 KiB histogram and %d arcs (%d bytes) written through QEMU's "
              "semihosting in %.3f s (%s us of board time: the target's own work, e.g. "
              "instructions at 32 ns under -icount 5)"
              % (len(big_arcs), os.path.getsize(path), secs, m and m.group(1)))
        g = call_graph(elf, path)
        calls = sum(n for (caller, callee), n in g.items() if callee == "leaf_a")
        t.ok(hist[2] == 32768 and len(big_arcs) >= 1000 and calls == 1000,
             "big.out: 32768 bins (64 KiB), 1000 arcs into leaf_a, one call each "
             "(the last a tail call from main)", (hist[2], len(big_arcs), calls))
        t.ok(secs < 2.0, "the 64 KiB write takes under 2 s (%.3f s)" % secs)
    else:
        m = re.search(r"^big: no room \((-?\d+)\)$", text, re.M)
        t.ok(m is not None, "big.out: written, or no room on this board", text[-500:])
        print("# no room on this board for a 64 KiB histogram: %s" % (m and m.group(0)))


def test_autostart(t):
    elf = private_copy("semihosting-autostart")
    work = os.path.join(OUT, "autostart")
    rc, lines = boot(elf, work)
    console = [line for _, line in lines]
    t.ok(rc == 0 and "app: done" in console and "profile: wrote gmon.out" in console,
         "PROFILE_AUTOSTART: the application runs, gmon.out is written at exit", console)
    path = os.path.join(work, "gmon.out")
    if not os.path.exists(path):
        return
    hdr, hist, arcs, ok = whole(path)
    t.ok(ok and hdr[2] > 0, "PROFILE_AUTOSTART: the header agrees with the bins", hdr)
    rc, out, err = h.gprof(elf, path, "-b", "-p")
    flat = h.flat(out)
    t.eq(flat.get("main", (0, None))[1], 1, "PROFILE_AUTOSTART: main's own call is counted")
    g = call_graph(elf, path)
    t.eq((g.get(("main", "from_main")), g.get(("app_ctor", "from_ctor")),
          g.get(("app_atexit", "from_atexit"))), (500, 20, 30),
         "PROFILE_AUTOSTART: main, a constructor and an atexit handler are profiled")


def test_autostart_nomem(t):
    elf = private_copy("semihosting-nomem")
    work = os.path.join(OUT, "autostart-nomem")
    rc, lines = boot(elf, work)
    console = [line for _, line in lines]
    text = "\n".join(console)
    t.ok(rc == 0 and "app: done" in console and not os.path.exists(os.path.join(work, "gmon.out")),
         "PROFILE_AUTOSTART on a heap too small: the application runs anyway, no gmon.out", text)
    m = re.search(r"^profile: autostart: profile_on failed \(-12\): no room on the heap for the "
                  r"profile of all code \(_stext\.\._etext\): it needs (\d+) bytes, the largest "
                  r"free block is (\d+) bytes$", text, re.M)
    t.ok(m is not None and int(m.group(1)) > 256 and int(m.group(2)) == 256,
         "autostart's -ENOMEM line: what failed, the bytes needed, the largest free block (256)",
         text)
    t.ok(re.search(r"^profile: to fit: set CYGNUM_PROFILE_AUTOSTART_BUCKET above \d+ \(each "
                   r"doubling halves the histogram\), or give the heap more RAM, or call "
                   r"profile_on\(\) on a smaller range instead of linking PROFILE_AUTOSTART$",
                   text, re.M) is not None,
         "autostart's -ENOMEM hint: what to change (the bucket option, the heap, a smaller range)",
         text)


def test_write_nomem(t):
    elf = private_copy("semihosting-nomem-write")
    work = os.path.join(OUT, "write-nomem")
    rc, lines = boot(elf, work)
    console = [line for _, line in lines]
    text = "\n".join(console)
    t.ok(rc == 0 and "app: done" in console and not os.path.exists(os.path.join(work, "gmon.out")),
         "profile_write at exit with no room for its copy: the application ends, no gmon.out", text)
    m = re.search(r"^profile: could not write gmon\.out \(-12\): no room on the heap for the "
                  r"write's copy of the profile: it needs (\d+) bytes, the largest free block "
                  r"is (\d+) bytes$", text, re.M)
    t.ok(m is not None and int(m.group(1)) > 256 and int(m.group(2)) == 256,
         "profile_write's -ENOMEM line: what failed, the bytes needed, the largest free block",
         text)
    t.ok(re.search(r"^profile: to make room, allocate long-lived buffers before profiling "
                   r"starts, or shrink the profile: set CYGNUM_PROFILE_AUTOSTART_BUCKET above "
                   r"\d+ ", text, re.M) is not None,
         "profile_write's -ENOMEM hint: what to change", text)


def test_autostart_options(t):
    """The CDL options take effect: the autostart firmware built in a configuration of
    its own (a build directory of its own, as make CYG...=VALUE does)."""
    cfg = ["CYGNUM_PROFILE_AUTOSTART_BUCKET=4", "CYGNUM_PROFILE_AUTOSTART_INTERVAL_US=500",
           'CYGDAT_PROFILE_AUTOSTART_FILE="prof.out"']
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "PROFILE_TB") and not k.startswith("CYG")}
    make = ["make", "--no-print-directory", "-s", "-C", h.ROOT, "BOARD=" + h.BOARD,
            "BUILD=" + os.path.relpath(h.BUILD, h.ROOT)] + cfg
    p = subprocess.run(make + ["config-dir"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, env=env)
    tb = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    target = os.path.join(tb, "fw", "semihosting-autostart.elf")
    b = subprocess.run(make + ["-j2", target], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, env=env)
    built = os.path.join(h.ROOT, target)
    if not t.ok(b.returncode == 0 and os.path.exists(built),
                "the autostart firmware builds with the options set", (p.stdout + b.stdout)[-1500:]):
        return
    shutil.copy(built, os.path.join(OUT, "autostart-options.elf"))
    work = os.path.join(OUT, "autostart-options")
    rc, lines = boot(os.path.join(OUT, "autostart-options.elf"), work)
    console = [line for _, line in lines]
    path = os.path.join(work, "prof.out")
    t.ok(rc == 0 and "profile: wrote prof.out" in console and os.path.exists(path) and
         not os.path.exists(os.path.join(work, "gmon.out")),
         "CYGDAT_PROFILE_AUTOSTART_FILE: the file is prof.out", console)
    if os.path.exists(path):
        hdr, hist, arcs, ok = whole(path)
        t.eq(((hist[1] - hist[0]) // hist[2], hist[3]), (4, 2000),
             "CYGNUM_PROFILE_AUTOSTART_BUCKET 4 and _INTERVAL_US 500: 4-byte buckets, 2000 Hz")


def main():
    t = h.Tap()
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    test_demo(t)
    test_writes(t)
    test_autostart(t)
    test_autostart_nomem(t)
    test_write_nomem(t)
    # (once, on the reference board: the options do not depend on the board)
    if h.BOARD == "mps2-an385":
        test_autostart_options(t)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
