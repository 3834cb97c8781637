#!/usr/bin/env python3
"""gdb and TFTP at once: while real tftp-hpa gets of a 64 KiB histogram run, the target
is stopped at random moments (QEMU gets SIGSTOP, so the guest stops wherever it is: in the
daemon, in a snapshot's take, read, release or merge-back, in a sample or an mcount; gdb
then attaches, which halts it there once QEMU runs again), gdb runs gprof_dump and
detaches. Whatever the moments,
the gets that completed + the dumps + what remains at the end hold every sample
(the package's samples_total) and every call of work_a and work_b (the loop's iterations)
exactly once, and every file's header agrees with its bins. In the stack-profiling mode
(tests/qemu/test_tftp_halts_stacks.py: main(stacks=True)) each completed get is followed by
a get of gmon.stacks, and the gmon.stacks files (gets, dumps, the rest) hold the same
totals, each its gmon.out's samples.

Random but repeatable: the seed is fixed, and the moments are host delays, so the points
hit differ from run to run (tests/qemu/test_sweep.py is the deterministic, exhaustive
version of this, without a network)."""
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402
import tftplib as tl  # noqa: E402

ROUNDS = 16
# Rounds go on past ROUNDS (up to MAX_ROUNDS) until at least two dumps fell inside a transfer:
# where a halt lands in wall-clock time depends on the host's load.
MAX_ROUNDS = 48


def stopped_dump(tg, ddir):
    """SIGSTOP QEMU now; gdb connects meanwhile; SIGCONT: the guest halts about where it
    stopped; gprof_dump; detach (it runs on)."""
    pid = tg.qemu.proc.pid
    os.kill(pid, signal.SIGSTOP)
    try:
        args = h.gdb_args(tg.elf, tg.qemu.port, ["cd " + ddir, "gprof_dump", "detach"])
        p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             stdin=subprocess.DEVNULL)
        time.sleep(0.3)    # gdb starts and connects (the kernel accepts for QEMU)
    finally:
        os.kill(pid, signal.SIGCONT)
    out, _ = p.communicate(timeout=120)
    return p.returncode, out


def stacks_of(path):
    """gmon.stacks beside a gmon.out (NAME.gmon: NAME.stacks)."""
    return os.path.splitext(path)[0] + ".stacks"


def main(fw=None, stacks=False):
    t = h.Tap()
    rng = random.Random(1500)
    gets, dumps = [], []
    with tl.Target("halts-stacks" if stacks else "halts", fw=fw, range_bytes=512 * 1024) as tg:
        tg.wait_console(r"tftp-app: ready")
        ddir = os.path.join(tg.dir, "dump")
        os.makedirs(ddir)
        halted_inside = during = 0
        rounds = 0
        while rounds < ROUNDS or (during < 2 and rounds < MAX_ROUNDS):
            i = rounds
            rounds += 1
            dest = os.path.join(tg.dir, "get%02d.gmon" % i)
            result = {}

            def get():
                result["r"] = tl.tftp_hpa(tg.port, dest, timeout=60)

            th = threading.Thread(target=get)
            th.start()
            time.sleep(rng.uniform(0.0, 0.08))
            rc, out = stopped_dump(tg, ddir)
            halted_inside += "halted inside a profiler update" in out
            during += "a transfer (TFTP or profile_write) is in progress" in out
            if os.path.exists(os.path.join(ddir, "gmon.out")):
                path = os.path.join(tg.dir, "dump%02d.gmon" % i)
                shutil.move(os.path.join(ddir, "gmon.out"), path)
                if stacks and os.path.exists(os.path.join(ddir, "gmon.stacks")):
                    shutil.move(os.path.join(ddir, "gmon.stacks"), stacks_of(path))
                dumps.append(path)
            else:
                t.ok(False, "round %d: gprof_dump wrote gmon.out" % i, out[-1500:])
            th.join()
            rc, out, secs = result["r"]
            if tl.hpa_ok(rc, out, dest):
                gets.append(dest)
                if stacks:
                    tl.tftp_hpa(tg.port, stacks_of(dest), name="gmon.stacks", timeout=60)
        iterations, samples_total = tg.quiesce()
        rc, out = tg.gdb(["cd " + ddir, "gprof_fetch"])
        final = os.path.join(ddir, "gmon.out")
        t.ok(os.path.exists(final), "gprof_fetch of what remains", out[-1500:])
        stats = tg.stats()
        elf = tg.elf
        con = tg.console()
    print("# %d rounds: %d gets completed, %d dumps (%d during a transfer, %d halted inside a "
          "profiler update); daemon %s" % (rounds, len(gets), len(dumps), during,
                                           halted_inside, stats))
    t.ok(during >= 2, "gdb halted the target during transfers (%d times)" % during)
    t.ok(len(gets) >= rounds // 2, "most gets complete although gdb halts the target "
         "meanwhile (%d of %d)" % (len(gets), rounds))
    t.eq(stats.get("completed", 0) - stats.get("stacks_completed", 0), len(gets),
         "the daemon counts as completed exactly the gets the client received whole")
    files = gets + dumps + [final]
    bad, samples = [], 0
    for f in files:
        s, oor, bins, narcs = tl.gmon_summary(f)
        if s != bins + oor:
            bad.append((os.path.basename(f), s, bins, oor))
        samples += s
    t.ok(bad == [], "every file's header agrees with its bins (%d files)" % len(files), bad)
    t.eq(samples, samples_total, "samples: gets + dumps + what remains = the target's "
         "samples_total")
    for fn in ("work_a", "work_b"):
        total = 0
        for f in files:
            if tl.gmon_summary(f)[3] == 0:
                continue    # no arcs (gprof -q refuses such a file: "missing call-graph data")
            cg, err = tl.call_counts(elf, f)
            if cg is None:
                t.ok(False, "arm-none-eabi-gprof reads %s" % f, err)
                continue
            total += sum(n for (caller, callee), n in cg.items() if callee == fn)
        t.eq(total, iterations, "calls of %s: gets + dumps + what remains = the loop's "
             "iterations" % fn)
    if stacks:
        check_stacks(t, elf, files, iterations, samples_total)
    t.ok("lwip: assertion" not in con, "no lwIP assertion on the console", con[-2000:])
    return t.done()


def check_stacks(t, elf, files, iterations, samples_total):
    """The gmon.stacks files: each its gmon.out's samples; calls and samples over all of them
    the firmware's."""
    import test_stacks as ts
    import test_tftp_stacks as tts
    name_of = ts.namer(elf)
    missing, mismatched, samples, calls = [], [], 0, {"work_a": 0, "work_b": 0}
    for f in files:
        try:
            hdr, nodes = ts.read_stacks(stacks_of(f))
        except (OSError, ValueError, KeyError) as err:
            missing.append((os.path.basename(f), str(err)))
            continue
        g = h.gmon_header(f)
        if (hdr["samples"], hdr["overhead"]) != (g[2], g[3]) or \
                sum(n[4] for n in nodes) + hdr["overhead"] != hdr["samples"]:
            mismatched.append((os.path.basename(f), hdr["samples"], g[2]))
        samples += hdr["samples"]
        for k, v in tts.work_calls(nodes, name_of).items():
            calls[k] += v
    t.ok(missing == [], "a gmon.stacks with every gmon.out (%d)" % len(files), missing)
    t.ok(mismatched == [], "each gmon.stacks holds its gmon.out's samples, every one in a node",
         mismatched)
    t.eq((samples, calls), (samples_total, {"work_a": iterations, "work_b": iterations}),
         "gmon.stacks: samples and the calls of work_a and work_b over gets + dumps + what "
         "remains = the target's")


if __name__ == "__main__":
    sys.exit(main())
