#!/usr/bin/env python3
"""Stack-profiling mode, on a board of each architecture: tests/qemu/stacks.c
built with CYGPKG_PROFILE_STACKS (its -pg code also with -finstrument-functions), run under
QEMU, gmon.out and gmon.stacks fetched by gdb.

  - gmon.stacks field by field (doc/format.md): magic, version, byte order, address width,
    the node count, parents before children; its samples and overhead are gmon.out's, and
    every sample is in exactly one node (sum of the nodes' + overhead = samples);
  - every call path with its exact calls: main;light;work and main;heavy;work 400 each,
    recursion (a node per depth), the frames a longjmp leaves (dropped, 40 counted), a
    -pg interrupt handler the root of a tree of its own (its true count from the firmware),
    and the more urgent one it pends another root (nested inside it on Cortex-M),
    tail_caller;tail_target;
  - measured: heavy's work has far more samples than light's, which gprof's call graph
    splits 50/50 (it does: GNU gprof's arcs into work are 400 and 400);
  - gprof_dump resets the tree's counts with gmon.out's: the second fetch holds only the
    calls made since; profile_write (newlib's boards) writes the same tree as gmon.stacks
    beside its file, with its samples, and resets it;
  - with a tree of 4 nodes and shadow stacks of 4 frames: the tree fills, deeper calls go
    unkept, and still every call is a node's or counted unrecorded, every sample a node's,
    and the firmware runs to its end.
"""
import os
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402

N = {}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "stacks.h")) as f:
    for m in re.finditer(r"#define (\w+)\s+(\d+)", f.read()):
        N[m.group(1)] = int(m.group(2))
OUT = os.path.join(h.OUT_ROOT, "stacks")
HEADER = 56


def symbols(elf):
    """Sorted (address, name) of the ELF's functions, without the Thumb bit."""
    nm = re.sub(r"gprof$", "nm", h.GPROF)
    p = subprocess.run([nm, elf], stdout=subprocess.PIPE, text=True, check=True)
    return sorted((int(f[0], 16) & ~1, f[2]) for f in (ln.split() for ln in p.stdout.splitlines())
                  if len(f) == 3 and f[1] in "tTwW")


def namer(elf):
    """name_of(pc): the ELF's function holding pc (Thumb bit ignored), else hex."""
    import bisect
    syms = symbols(elf)
    addrs = [a for a, _ in syms]

    def name_of(pc):
        i = bisect.bisect_right(addrs, pc & ~1) - 1
        return syms[i][1] if i >= 0 else "0x%x" % pc
    return name_of


def read_stacks(path):
    """(header dict, [(parent, self, from, calls, samples)]) of a gmon.stacks, or raises."""
    b = open(path, "rb").read()
    if b[:4] != b"gmst":
        raise ValueError("magic %r" % b[:4])
    e = "<" if b[8:12] == b"\x04\x03\x02\x01" else ">"
    a = {4: "I", 8: "Q"}[b[12]]
    f = struct.unpack_from(e + "I", b, 4)[0], b[12]
    names = ("rate", "nodes", "samples", "overhead", "truncated", "unrecorded", "repaired",
             "unhooked", "switches_lost", "reserved")
    hdr = dict(zip(names, struct.unpack_from(e + "10I", b, 16)))
    hdr["version"], hdr["addr"] = f
    size = 12 + 2 * b[12]
    if len(b) != HEADER + hdr["nodes"] * size:
        raise ValueError("%d bytes for %d nodes" % (len(b), hdr["nodes"]))
    nodes = [struct.unpack_from(e + "I" + a + a + "II", b, HEADER + i * size)
             for i in range(hdr["nodes"])]
    return hdr, nodes


def paths(nodes, name_of):
    """{path: (calls, samples, node index)}: names joined by ';', a context as [ctx ID]."""
    out = {}
    for i, (parent, self_pc, from_pc, calls, samples) in enumerate(nodes):
        p, j = [], i
        while j != 0xFFFFFFFF:
            pj, sj, fj = nodes[j][:3]
            p.append(name_of(sj) if sj else "[ctx %x]" % fj)
            j = pj
        key = ";".join(reversed(p))
        c, s, _ = out.get(key, (0, 0, i))
        out[key] = (c + calls, s + samples, i)
    return out


def run(elf, out_dir, t):
    """Runs elf to phase_done(1) (gprof_dump) and (2) (gprof_fetch to gmon2.out)."""
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    with h.Qemu(elf, os.path.join(out_dir, "qemu.log"), cwd=out_dir) as q:
        rc, out = h.gdb(elf, q.port, [
            "break phase_done", "continue", "cd " + out_dir, "gprof_dump",
            "continue", "python gprof_fetch('gmon2.out')", "delete", "continue",
        ], timeout=300)
        try:
            q.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        qrc = q.proc.poll()
    with open(os.path.join(out_dir, "gdb.log"), "w") as f:
        f.write(out)
    con = open(os.path.join(out_dir, "qemu.log")).read()
    t.ok("stacks: done" in con and qrc == 0, "%s runs to its end (QEMU status %r)"
         % (os.path.basename(elf), qrc), con[-1500:] + out[-1500:])
    return con, out


def check_file(t, out_dir, name, what):
    """Header checks shared by every file: returns (hdr, nodes) or None."""
    gmon = os.path.join(out_dir, name + ".out")
    path = os.path.join(out_dir, name + ".stacks")
    if not t.ok(os.path.exists(path), "%s: %s.stacks beside %s.out" % (what, name, name)):
        return None
    try:
        hdr, nodes = read_stacks(path)
    except (ValueError, KeyError, struct.error) as err:
        t.ok(False, "%s: %s.stacks reads (%s)" % (what, name, err))
        return None
    g = h.gmon_header(gmon)
    t.ok(hdr["version"] == 1 and hdr["addr"] == (8 if h.board_var("ARCH") == "riscv64" or
                                                   "64" in h.BOARD else 4),
         "%s: version 1, the target's address width" % what, hdr)
    t.ok(all(p == 0xFFFFFFFF or p < i for i, (p, *_r) in enumerate(nodes)),
         "%s: every node's parent comes before it" % what)
    t.eq((hdr["samples"], hdr["overhead"], hdr["rate"]), (g[2], g[3], h.gmon_records(gmon)[1][0][3]),
         "%s: samples, overhead and rate are gmon.out's" % what)
    t.eq(sum(n[4] for n in nodes) + hdr["overhead"], hdr["samples"],
         "%s: every sample in exactly one node (nodes + overhead = samples)" % what)
    return hdr, nodes


def tgprof(*args, san=False):
    exe = os.path.join(h.BUILD, "host", "tgprof-san" if san else "tgprof")
    return subprocess.run([exe] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)


def callers_of(text, fn):
    """{caller: (self, children)} of fn's entry in a call graph."""
    out = {}
    for block in text.split("-----------------------------------------------"):
        lines = block.strip("\n").splitlines()
        at = [i for i, ln in enumerate(lines) if re.match(r"\[\d+\].* %s \[\d+\]$" % fn, ln)]
        if not at:
            continue
        for ln in lines[:at[0]]:
            m = re.match(r"\s+([\d.]+)\s+([\d.]+)\s+\d+/\d+\s+(\S+) \[", ln)
            if m:
                out[m.group(3)] = (float(m.group(1)), float(m.group(2)))
    return out


def check_tgprof(t, elf, stacks, name_of):
    """tgprof on the phase-1 files: measured call graph, folded, flame graph, speedscope;
    the same report as GNU gprof without gmon.stacks; bad gmon.stacks files refused."""
    import json
    import xml.etree.ElementTree as ET
    hdr, nodes = stacks
    gmon = os.path.join(OUT, "gmon.out")
    folded, flame, speed = (os.path.join(OUT, n) for n in ("stacks.folded", "flame.svg",
                                                            "speedscope.json"))
    q = tgprof("-b", "-q", "--time-unit=us", "--folded=" + folded, "--flame-graph=" + flame,
               "--speedscope=" + speed, elf, gmon)
    t.ok(q.returncode == 0 and "measured:" in q.stdout,
         "tgprof finds gmon.stacks beside gmon.out and marks its call graph measured",
         q.stdout[:600] + q.stderr[:600])
    p = paths(nodes, name_of)
    want_light = p.get("[ctx 0];main;light;work", (0, 0))[1]
    want_heavy = p.get("[ctx 0];main;heavy;work", (0, 0))[1]
    c = callers_of(q.stdout, "work")
    got = (c.get("light", (0, 0))[0], c.get("heavy", (0, 0))[0])
    t.ok(sum(got) > 0 and want_heavy + want_light > 0 and
         abs(got[1] / sum(got) - want_heavy / (want_heavy + want_light)) < 0.01,
         "measured: work's self time split between light and heavy as their frames' samples "
         "(%s us; %d and %d samples)" % (got, want_light, want_heavy))
    try:
        lines = [ln.rsplit(" ", 1) for ln in open(folded).read().splitlines()]
        fold = {k: int(v) for k, v in lines}
    except (OSError, ValueError):
        fold = {}
    t.eq(sum(fold.values()), hdr["samples"] - hdr["overhead"],
         "folded: every sample in exactly one stack")
    # (a stack with no sample has no line: 0)
    t.eq((fold.get("main;light;work", 0), fold.get("main;heavy;work", 0)),
         (want_light, want_heavy), "folded: main;light;work and main;heavy;work as in the tree")
    try:
        root = ET.parse(flame).getroot()
        rects = root.findall(".//{http://www.w3.org/2000/svg}g/{http://www.w3.org/2000/svg}rect")
        titles = [g.find("{http://www.w3.org/2000/svg}title").text
                  for g in root.findall(".//{http://www.w3.org/2000/svg}g")]
    except (OSError, ET.ParseError, AttributeError):
        rects, titles = [], []
    frames = set()
    for k in fold:
        parts = k.split(";")
        for i in range(len(parts)):
            frames.add(";".join(parts[:i + 1]))
    t.eq(len(rects), len(frames) + 1, "flame graph: well-formed SVG, a frame for every stack "
         "prefix and one for all")
    t.ok(any(x.startswith("all (%d samples" % (hdr["samples"] - hdr["overhead"])) for x in titles),
         "flame graph: 'all' holds every sample")
    try:
        j = json.load(open(speed))
        prof = j["profiles"][0]
        ok = (j["$schema"].endswith("file-format-schema.json") and prof["type"] == "sampled"
              and len(prof["samples"]) == len(prof["weights"]) and
              all(0 <= i < len(j["shared"]["frames"]) for st in prof["samples"] for i in st) and
              sum(prof["weights"]) == hdr["samples"] - hdr["overhead"] == prof["endValue"])
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        ok = False
    t.ok(ok, "speedscope: the file format's fields, every sample weighed once")

    alone = os.path.join(OUT, "alone")
    os.makedirs(alone, exist_ok=True)
    shutil.copyfile(gmon, os.path.join(alone, "gmon.out"))
    q = tgprof("-b", elf, os.path.join(alone, "gmon.out"))
    rc, ref, err = h.gprof(elf, os.path.join(alone, "gmon.out"), "-b")
    t.ok(q.returncode == 0 and q.stdout == ref, "without gmon.stacks: GNU gprof's report, "
         "byte for byte")

    raw = open(os.path.join(OUT, "gmon.stacks"), "rb").read()
    bad = {"empty": b"", "10 bytes": raw[:10], "header less one": raw[:55],
           "a node short": raw[:-1], "a byte more": raw + b"\0",
           "magic": b"gmsx" + raw[4:], "version": raw[:4] + b"\2\0\0\0" + raw[8:],
           "byte order": raw[:8] + b"\1\1\1\1" + raw[12:],
           "address width": raw[:12] + b"\3" + raw[13:],
           "node count huge": raw[:20] + b"\xff\xff\xff\x7f" + raw[24:],
           "samples disagree": raw[:24] + struct.pack("<I", hdr["samples"] + 1) + raw[28:]}
    size = 12 + 2 * hdr["addr"]
    if hdr["nodes"] > 1:   # node 1's parent made itself
        at = HEADER + size
        bad["parent after"] = raw[:at] + struct.pack("<I", 1) + raw[at + 4:]
    failed = []
    for what, data in sorted(bad.items()):
        f = os.path.join(OUT, "bad.stacks")
        open(f, "wb").write(data)
        q = tgprof("-b", "--stacks=" + f, elf, gmon, san=True)
        if (q.returncode == 0 or f not in q.stderr or "offset" not in q.stderr or
                "Sanitizer" in q.stderr or "runtime error" in q.stderr):
            failed.append((what, q.returncode, q.stderr[-300:]))
    t.eq(failed, [], "bad gmon.stacks files (%d kinds) are refused with the file and offset, "
         "non-zero, no sanitizer report" % len(bad))


def main():
    t = h.Tap()
    name_of = namer(os.path.join(h.FW_DIR, "stacks-mode.elf"))
    elf = os.path.join(h.FW_DIR, "stacks-mode.elf")
    con, out = run(elf, OUT, t)
    m = re.search(r"stacks: phase 1, (\d+) handler calls, (\d+) nested", con)
    isr, nested = (int(m.group(1)), int(m.group(2))) if m else (-1, -1)
    r = r0 = check_file(t, OUT, "gmon", "phase 1")
    if r:
        hdr, nodes = r
        p = paths(nodes, name_of)
        roots = [k for k, (c, s, i) in p.items() if nodes[i][0] == 0xFFFFFFFF and nodes[i][1]]
        handler = [k for k in roots if k + ";isr_leaf" in p]
        soft = [k for k in roots if k + ";nested_leaf" in p]
        t.eq((len(roots), len(handler), len(soft)), (2, 1, 1),
             "two interrupt handler roots: the fast timer's and the nested one's (%s)" % roots)
        hname = handler[0] if handler else "?"
        sname = soft[0] if soft else "?"
        want = {
            "[ctx 0];main;light;work": N["N_WORK"],
            "[ctx 0];main;heavy;work": N["N_WORK"],
            "[ctx 0];main;light": 1, "[ctx 0];main;heavy": 1, "[ctx 0];main;jumper": 1,
            "[ctx 0];main;tail_caller": N["TAIL_REPS"],
            "[ctx 0];main;tail_caller;tail_target": N["TAIL_REPS"],
            hname: isr, hname + ";isr_leaf": isr,
            sname: nested, sname + ";nested_leaf": nested,
        }
        rec = "[ctx 0];main"
        for d in range(N["REC_DEPTH"] + 1):
            rec += ";rec"
            want[rec] = N["REC_REPS"]
        want[rec + ";work"] = N["REC_REPS"]
        jump = "[ctx 0];main;jumper"
        for d in range(N["JMP_DEPTH"] + 1):
            jump += ";deep_jump"
            want[jump] = N["JMP_REPS"]
        got = {k: p.get(k, (None,))[0] for k in want}
        t.eq(got, want, "every call path with its exact calls (handler %s, %d calls; nested %s, "
             "%d)" % (hname, isr, sname, nested))
        t.eq(hdr["repaired"], N["JMP_REPS"] * (N["JMP_DEPTH"] + 1),
             "the frames each longjmp left are dropped and counted")
        t.eq((hdr["truncated"], hdr["unrecorded"], hdr["unhooked"]), (0, 0, 0),
             "the tree and the shadow stacks had room")
        light = p.get("[ctx 0];main;light;work", (0, 0))[1]
        heavy = p.get("[ctx 0];main;heavy;work", (0, 0))[1]
        t.ok(heavy >= 5 * max(light, 1), "measured: work called from heavy has %d samples, "
             "from light %d (gprof would split them 50/50)" % (heavy, light))
        rc, text, err = h.gprof(elf, os.path.join(OUT, "gmon.out"), "-b", "-q")
        arcs = h.call_graph(text)
        t.eq((arcs.get(("light", "work")), arcs.get(("heavy", "work")),
              arcs.get(("tail_caller", "tail_target"))),
             (N["N_WORK"], N["N_WORK"], N["TAIL_REPS"]),
             "gmon.out's arcs are exact too (what GNU gprof splits work's time by)")

    r = check_file(t, OUT, "gmon2", "after gprof_dump")
    if r:
        hdr, nodes = r
        p = paths(nodes, name_of)
        calls = {k: c for k, (c, s, i) in p.items() if c}
        t.eq(calls, {"[ctx 0];main;light": 1, "[ctx 0];main;light;work": N["N_WORK"]},
             "gprof_dump reset the tree's counts: only the calls made since")
        t.eq(hdr["repaired"], 0, "and its counters")
        gdb_calls, gdb_nodes = calls, nodes
    else:
        gdb_calls, gdb_nodes = None, None

    # profile_write, right after: the same calls in its gmon.stacks, then none left.
    if (h.board_var("LIBC") or "newlib") == "picolibc":
        t.skip("profile_write", "%s's C library has no files through semihosting" % h.BOARD)
    else:
        t.eq(re.findall(r"stacks: profile_write (-?\d+)", con), ["0", "0"],
             "profile_write returned 0 twice")
        r1 = check_file(t, OUT, "stacks-w1", "profile_write")
        r2 = check_file(t, OUT, "stacks-w2", "profile_write again")
        if r1 and r2:
            c1 = {k: c for k, (c, s, i) in paths(r1[1], name_of).items() if c}
            t.eq(c1, gdb_calls, "profile_write's gmon.stacks: the calls gdb saw")
            t.ok(gdb_nodes is not None and [n[:4] for n in r1[1]] == [n[:4] for n in gdb_nodes],
                 "the target's serializer and gdb's write the same node records (parent, "
                 "function, call site, calls; the samples went on)")
            t.eq(sum(n[3] for n in r2[1]), 0, "what profile_write wrote was reset: none left")

    if r0 is not None:
        check_tgprof(t, elf, r0, name_of)

    # A tree of 4 nodes, shadow stacks of 4 frames: full, and still exact.
    small = os.path.join(h.FW_DIR, "stacks-small.elf")
    out_small = OUT + "-small"
    con, out = run(small, out_small, t)
    m = re.search(r"stacks: phase 1, (\d+) handler calls, (\d+) nested", con)
    isr, nested = (int(m.group(1)), int(m.group(2))) if m else (-1, -1)
    r = check_file(t, out_small, "gmon", "4 nodes, 4 frames")
    if r:
        hdr, nodes = r
        made = (1 + N["N_WORK"]) * 2 + (N["REC_DEPTH"] + 2) * N["REC_REPS"] + 1 + \
            (N["JMP_DEPTH"] + 1) * N["JMP_REPS"] + 2 * N["TAIL_REPS"] + 2 * isr + 2 * nested
        t.eq(hdr["nodes"], 4, "the tree is full")
        t.ok(hdr["unrecorded"] > 0 and hdr["unhooked"] > 0 and hdr["truncated"] > 0,
             "calls without a node, frames not kept and samples in the deepest node kept "
             "are counted", hdr)
        t.eq(sum(n[3] for n in nodes) + hdr["unrecorded"], made,
             "every call is a node's or counted unrecorded (%d calls)" % made)
        t.ok("calling-context tree is full (4 nodes)" in out and
             "calls were deeper than a shadow stack keeps" in out,
             "gdb reports the full tree and the frames not kept", out[-1500:])
        q = tgprof("-b", "-q", small, os.path.join(out_small, "gmon.out"))
        t.ok(q.returncode == 0 and "calling-context tree was full" in q.stderr and
             "deeper than a shadow stack keeps" in q.stderr,
             "tgprof warns of them too", q.stderr[-800:])
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
