#!/usr/bin/env python3
"""gmon.stacks over TFTP: the TFTP firmware built in the stack-profiling mode
(CYGPKG_PROFILE_STACKS with the daemon) runs in QEMU; real clients get gmon.out, then
gmon.stacks, while it keeps profiling.

  - gmon.stacks before any gmon.out was delivered: TFTP error 1 saying to get gmon.out
    first; nothing changes;
  - each gmon.stacks is the one of the gmon.out delivered just before: the same samples,
    overhead and rate, every sample in one node, and the tree's calls of work_a and work_b
    are that gmon.out's arcs main -> work_a and main -> work_b, exactly;
  - clients that never acknowledge or send an ERROR lose gmon.stacks to others and change
    nothing;
  - a get of gmon.stacks resets nothing: the next one is the same file byte for byte, and
    the work_a calls over every gmon.out (and what is left at the end) are the firmware's
    iterations, the samples its samples_total: nothing lost or counted twice;
  - still data: tftp's gmon.out and gmon.stacks are gdb's gprof_fetch files byte for byte;
  - tgprof reads a TFTP pair (NAME.out, NAME.stacks beside it) as measured, and refuses a
    gmon.stacks of another extraction (ignored with a warning if found beside);
  - profile_on() again drops the kept tree (a transfer of it then in flight ends, not
    sent): gmon.stacks is refused until the next gmon.out.
"""
import os
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402
import tftplib as tl  # noqa: E402
import test_stacks as ts  # noqa: E402

FW = os.path.join(h.FW_DIR, "tftp-stacks.elf")


def work_calls(nodes, name_of):
    """{callee: calls} of the tree's nodes of work_a and work_b."""
    out = {}
    for n in nodes:
        name = name_of(n[1]) if n[1] else None
        if name in ("work_a", "work_b"):
            out[name] = out.get(name, 0) + n[3]
    return out


def stacks_error(port, name="gmon.stacks"):
    """The ERROR a raw client's request for name gets: (code, message) or None."""
    c = tl.Raw(port)
    try:
        c.rrq(name)
        p = c.recv(5.0)
        return tl.parse_error(p) if p else None
    finally:
        c.close()


def check_pair(t, elf, gmon, stacks, name_of, what):
    """gmon.stacks goes with gmon.out: returns the tree's work calls, or None."""
    try:
        hdr, nodes = ts.read_stacks(stacks)
    except (OSError, ValueError, KeyError, struct.error) as err:
        t.ok(False, "%s: gmon.stacks reads (%s)" % (what, err))
        return None
    g = h.gmon_header(gmon)
    t.eq((hdr["samples"], hdr["overhead"], hdr["rate"]), (g[2], g[3], h.gmon_records(gmon)[1][0][3]),
         "%s: gmon.stacks's samples, overhead and rate are its gmon.out's" % what)
    t.eq(sum(n[4] for n in nodes) + hdr["overhead"], hdr["samples"],
         "%s: every sample in exactly one node" % what)
    calls = work_calls(nodes, name_of)
    arcs, err = tl.call_counts(elf, gmon)
    arcs = arcs or {}
    want = {k: v for k, v in (("work_a", arcs.get(("main", "work_a"), 0)),
                              ("work_b", arcs.get(("main", "work_b"), 0))) if v}
    t.ok({k: v for k, v in calls.items() if v} == want,
         "%s: the tree's calls of work_a and work_b are gmon.out's arcs from main (%s, %s)"
         % (what, calls, want), err)
    return calls


def main():
    t = h.Tap()
    elf_src = FW
    name_of = ts.namer(elf_src)
    files = []      # (gmon.out, gmon.stacks) pairs, in order
    with tl.Target("stacks", fw=elf_src) as tg:
        tg.wait_console(r"tftp-app: ready")
        d = tg.dir
        t.ok("profile: TFTP daemon serving gmon.out, gmon.stacks and gmon.tasks on 10.0.2.15 UDP port 69"
             in tg.console(), "the daemon says it serves both files", tg.console()[-1500:])
        t.eq(stacks_error(tg.port), (1, "gmon.stacks goes with a gmon.out: get gmon.out first "
                                        "(none delivered since profile_on)"),
             "gmon.stacks before any gmon.out: TFTP error 1, get gmon.out first")
        time.sleep(1.0)

        # Pair 1: tftp-hpa, gmon.out then gmon.stacks (twice: the same file).
        g1, s1, s1b = (os.path.join(d, n) for n in ("get1.out", "get1.stacks", "again.stacks"))
        rc, out, s = tl.tftp_hpa(tg.port, g1)
        t.ok(tl.hpa_ok(rc, out, g1), "get 1: gmon.out with tftp-hpa", out)
        rc, out, s = tl.tftp_hpa(tg.port, s1, name="gmon.stacks")
        t.ok(rc == 0 and "Error code" not in out and os.path.exists(s1),
             "get 1: gmon.stacks with tftp-hpa, right after", out)
        time.sleep(0.5)
        rc, out, s = tl.curl(tg.port, s1b, name="gmon.stacks")
        t.ok(rc == 0 and os.path.exists(s1b) and open(s1b, "rb").read() == open(s1, "rb").read(),
             "gmon.stacks again (curl), later: the same file byte for byte (a get of it "
             "resets nothing, the tree goes with the gmon.out delivered)", out)
        files.append((g1, s1))
        time.sleep(1.0)

        # Pair 2: curl, and a raw client for gmon.stacks.
        g2, s2 = os.path.join(d, "get2.out"), os.path.join(d, "get2.stacks")
        rc, out, s = tl.curl(tg.port, g2)
        t.ok(tl.hpa_ok(rc, out, g2), "get 2: gmon.out with curl", out)
        c = tl.Raw(tg.port)
        data, why = c.get(name="gmon.stacks")
        c.close()
        t.ok(data is not None, "get 2: gmon.stacks with a lock-step client", why)
        open(s2, "wb").write(data or b"")
        files.append((g2, s2))

        # Clients that misbehave on gmon.stacks: one that never acknowledges loses it to
        # another that does (offered block 1, takes the transfer over); one that sends an
        # ERROR gives it up; neither changes the file.
        silent, other = tl.Raw(tg.port), tl.Raw(tg.port)
        silent.rrq("gmon.stacks")
        first = silent.recv(5.0)
        data, why = other.get(name="gmon.stacks")
        silent.close()
        other.close()
        t.ok(first is not None and tl.parse_op(first) == tl.DATA and data == open(s2, "rb").read(),
             "a client that acknowledges nothing: another one gets gmon.stacks (taken over), "
             "the same file", why)
        quitter = tl.Raw(tg.port)
        quitter.rrq("gmon.stacks")
        first = quitter.recv(5.0)
        quitter.error()
        quitter.close()
        c = tl.Raw(tg.port)
        data, why = c.get(name="gmon.stacks")
        c.close()
        t.ok(first is not None and data == open(s2, "rb").read(),
             "a client that sends an ERROR: the next one gets the same gmon.stacks", why)

        # Still data: tftp's files are gdb's.
        iterations, samples_total = tg.quiesce()
        gdir = os.path.join(d, "gdb")
        os.makedirs(gdir)
        rc, out = tg.gdb(["cd " + gdir, "gprof_fetch"])
        g3, s3 = os.path.join(d, "get3.out"), os.path.join(d, "get3.stacks")
        rc, out3, s = tl.tftp_hpa(tg.port, g3)
        rc, outs3, s = tl.tftp_hpa(tg.port, s3, name="gmon.stacks")
        same = [open(a, "rb").read() == open(os.path.join(gdir, b), "rb").read()
                if os.path.exists(a) and os.path.exists(os.path.join(gdir, b)) else None
                for a, b in ((g3, "gmon.out"), (s3, "gmon.stacks"))]
        t.ok(same == [True, True], "still data: tftp's gmon.out and gmon.stacks are gdb's "
             "gprof_fetch files byte for byte (%s)" % same, out + out3 + outs3)
        files.append((g3, s3))
        g4, s4 = os.path.join(d, "get4.out"), os.path.join(d, "get4.stacks")
        tl.tftp_hpa(tg.port, g4)
        tl.tftp_hpa(tg.port, s4, name="gmon.stacks")
        files.append((g4, s4))

        # profile_on again, while a client holds gmon.stacks's last block unacknowledged: the
        # kept tree goes with the data; the final ACK closes that transfer as ended, not sent.
        late = tl.Raw(tg.port)
        late.rrq("gmon.stacks")
        first = late.recv(5.0)
        tg.gdb(["set var restart = 1"])
        tg.wait_console(r"tftp-app: restarted: profile_on: 0")
        late.ack(1)
        try:
            m = tg.wait_console(r"profile: tftp: transfer of gmon.stacks ended after (\d+) of (\d+) bytes", 10)
        except RuntimeError:
            m = None
        late.close()
        t.ok(first is not None and m is not None and m.group(1) == m.group(2),
             "profile_on() between gmon.stacks's last block and its ACK: the transfer ends as "
             "ended by it, not sent", tg.console()[-1500:])
        t.eq(stacks_error(tg.port), (1, "gmon.stacks goes with a gmon.out: get gmon.out first "
                                        "(none delivered since profile_on)"),
             "profile_on() again dropped the kept gmon.stacks: refused until the next gmon.out")
        stats = tg.stats()
        con = tg.console()

    totals = {"work_a": 0, "work_b": 0}
    samples = 0
    for i, (g, s) in enumerate(files, 1):
        calls = check_pair(t, elf_src, g, s, name_of, "pair %d" % i) or {}
        for k in totals:
            totals[k] += calls.get(k, 0)
        samples += h.gmon_header(g)[2]
    t.eq(totals, {"work_a": iterations, "work_b": iterations},
         "work_a and work_b calls over the gmon.stacks files = the firmware's iterations "
         "(nothing lost or counted twice)")
    t.eq(samples, samples_total, "samples over the gmon.out files = samples_total")
    t.ok("its gmon.stacks is served until the next gmon.out" in con and
         "profile: tftp: sent gmon.stacks (" in con,
         "the console says what was sent, and that gmon.stacks goes with the gmon.out", con[-2000:])
    t.ok((stats.get("stacks_completed"), stats.get("completed"), stats.get("taken_over"),
          stats.get("abandoned")) == (7, 11, 1, 2), "the daemon counts 4 gmon.out and 7 gmon.stacks transfers completed, "
         "one taken over", stats)

    # tgprof reads the TFTP pair: NAME.stacks beside NAME.out.
    q = subprocess.run([os.path.join(h.BUILD, "host", "tgprof"), "-b", "-q", elf_src, g1],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t.ok(q.returncode == 0 and "measured:" in q.stdout,
         "tgprof finds get1.stacks beside get1.out and marks its call graph measured",
         q.stdout[:600] + q.stderr[:600])
    rc, ref, err = h.gprof(elf_src, g1, "-b")
    t.ok(rc == 0, "GNU gprof reads the gmon.out of the pair", err)

    # A mismatched pair (get 2's gmon.stacks beside get 1's gmon.out): found beside, it is
    # ignored with a warning (GNU gprof's report); named, an error with the file and offset.
    mixed = os.path.join(os.path.dirname(g1), "mixed")
    os.makedirs(mixed, exist_ok=True)
    mg = os.path.join(mixed, "gmon.out")
    open(mg, "wb").write(open(g1, "rb").read())
    open(os.path.join(mixed, "gmon.stacks"), "wb").write(open(files[1][1], "rb").read())
    q = subprocess.run([os.path.join(h.BUILD, "host", "tgprof"), "-b", elf_src, mg],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t.ok(q.returncode == 0 and q.stdout == ref and "not the tree of this profile, ignored" in q.stderr,
         "tgprof: another extraction's gmon.stacks beside gmon.out is ignored, with a warning "
         "(GNU gprof's report byte for byte)", q.stderr[-600:])
    bad = os.path.join(mixed, "gmon.stacks")
    q = subprocess.run([os.path.join(h.BUILD, "host", "tgprof"), "-b", "--stacks=" + bad, elf_src, mg],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t.ok(q.returncode != 0 and bad + ": offset 24" in q.stderr,
         "tgprof: named with --stacks, it is an error naming the file and offset", q.stderr[-600:])
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
