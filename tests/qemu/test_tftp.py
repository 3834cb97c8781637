#!/usr/bin/env python3
"""TFTP extraction end to end: the TFTP firmware runs in QEMU (-icount, sleep=off, user
networking); real clients (tftp-hpa, curl with 1428-byte blocks negotiated) fetch gmon.out
while it keeps profiling.
Consecutive gets hold disjoint data whose totals equal the target's counters; GNU gprof
reads every file; a get of still data equals gdb's gprof_fetch byte for byte."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402
import tftplib as tl  # noqa: E402


def main():
    t = h.Tap()
    with tl.Target("gets") as tg:
        m = tg.wait_console(r"tftp-app: ready")
        con = tg.console()
        t.ok("profile: TFTP daemon serving gmon.out and gmon.tasks on 10.0.2.15 UDP port 69" in con,
             "profile_on started the daemon after init_all_network_interfaces()", con)
        time.sleep(1.0)

        files, secs = [], []
        p1 = os.path.join(tg.dir, "get1.gmon")
        rc, out, s = tl.tftp_hpa(tg.port, p1, connect=True)
        t.ok(tl.hpa_ok(rc, out, p1) and re.search(r"Received \d+ bytes", out),
             "get 1 with tftp-hpa, the eCos session (connect, binary, get), while the "
             "firmware runs (%.2f s)" % s, out)
        files.append(p1)
        secs.append(s)
        time.sleep(1.0)

        # curl asks for a block size (RFC 2348) and the size (RFC 2349): the OACK grants both.
        p2 = os.path.join(tg.dir, "get2.gmon")
        rc, out, s = tl.curl(tg.port, p2, blksize=1428, verbose=True)
        size = os.path.getsize(p2) if os.path.exists(p2) else -1
        t.ok(tl.hpa_ok(rc, out, p2) and "blksize parsed from OACK (1428)" in out and
             "tsize parsed from OACK (%d)" % size in out,
             "get 2 with curl --tftp-blksize 1428 while the firmware runs: the OACK grants "
             "blksize 1428 and says the size, %d bytes (%.2f s)" % (size, s), out)
        files.append(p2)
        secs.append(s)

        iterations, samples_total = tg.quiesce()
        gdir = os.path.join(tg.dir, "gdb")
        os.makedirs(gdir)
        rc, out = tg.gdb(["cd " + gdir, "gprof_fetch"])
        pg = os.path.join(gdir, "gmon.out")
        t.ok(os.path.exists(pg), "gprof_fetch of the still data", out)

        p3 = os.path.join(tg.dir, "get3.gmon")
        rc, out, s = tl.tftp_hpa(tg.port, p3)
        files.append(p3)
        data3 = open(p3, "rb").read() if os.path.exists(p3) else b""
        t.ok(rc == 0 and len(data3) > 0 and data3 == open(pg, "rb").read(),
             "get 3 (still data) is byte for byte what gprof_fetch wrote (%d bytes)" % len(data3), out)

        p4 = os.path.join(tg.dir, "get4.gmon")
        rc, out, s = tl.tftp_hpa(tg.port, p4)
        samples4, oor4, bins4, narcs4 = tl.gmon_summary(p4)
        t.ok(rc == 0 and (samples4, oor4, bins4, narcs4) == (0, 0, 0, 0),
             "get 4 right after a completed get: zero counts (a completed transfer resets)",
             (samples4, oor4, bins4, narcs4))

        stats = tg.stats()
        beats = tg.heartbeats()
        host_secs = time.time() - tg.t0
        con = tg.console()
        elf = tg.elf

    # ---- the files ----
    summ = [tl.gmon_summary(f) for f in files]
    for i, (f, (samples, oor, bins, narcs)) in enumerate(zip(files, summ), 1):
        hdr = h.gmon_header(f)
        t.eq(hdr[:2], (b"gmon", 1), "get %d: gmon.out header" % i)
        t.eq(bins + oor, samples, "get %d: samples in the header = sum of bins + outside the range" % i)
    t.ok(summ[0][0] > 0 and summ[1][0] > 0,
         "gets 1 and 2 each hold samples (%d, %d)" % (summ[0][0], summ[1][0]))
    total = sum(s[0] for s in summ)
    t.eq(total, samples_total, "samples over gets 1..3 = the target's samples_total (nothing lost "
         "or counted twice)")

    counts = []
    for i, f in enumerate(files, 1):
        cg, err = tl.call_counts(elf, f)
        t.ok(cg is not None, "arm-none-eabi-gprof reads get %d" % i, err)
        counts.append(cg or {})
    for fn in ("work_a", "work_b"):
        per = [c.get(("main", fn), 0) for c in counts]
        t.ok(per[0] > 0 and per[1] > 0, "main -> %s in get 1 and in get 2 (%s)" % (fn, per))
        t.eq(sum(per), iterations, "main -> %s summed over gets 1..3 = the loop's iterations" % fn)

    # ---- the daemon and the clock ----
    t.eq((stats.get("transfers"), stats.get("completed"), stats.get("abandoned")), (4, 4, 0),
         "daemon: 4 transfers, 4 completed, none abandoned")
    t.eq(stats.get("ignored"), 0, "no retransmission under -icount (no duplicate ACK, no resent request)")
    t.ok("lwip: assertion" not in con, "no lwIP assertion on the console", con[-2000:])
    if len(beats) >= 2:
        ratio = (beats[-1][0] - beats[0][0]) / 1000.0 / max(host_secs, 1e-3)
        print("# guest time ran %.1fx host time (-icount shift=5, sleep=off); TFTP gets took %s s"
              % (ratio, ", ".join("%.2f" % s for s in secs)))
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
