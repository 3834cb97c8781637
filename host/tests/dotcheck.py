#!/usr/bin/env python3
"""Checks of a tgprof DOT file against GNU gprof's call graph (gprof -b -q) of the same
profile, for outputs.sh:
  dotcheck.py count DOT              number of nodes
  dotcheck.py thresholds CG          "T1 N1 T2 N2": thresholds in wide gaps of %time, entries above
  dotcheck.py edges DOT CG MIN       edges = gprof's arcs (caller, callee, count), at least MIN
  dotcheck.py hottest DOT CG         the reddest node is the entry with the most %time
  dotcheck.py has DOT ITEM...        each ITEM is there: "f" a node, "f>g" an edge; "!f", "!f>g"
                                     not there (a node by its name: its label up to " (")
  dotcheck.py names DOT WIDTH        "LABEL<TAB>TOOLTIP" of each node, the label's lines joined
                                     by "|"; exit 1 if a line is longer than WIDTH characters
  dotcheck.py gmon ELF OUT SAMPLES ARCS
                                     write a gmon.out (100 Hz) for ELF's functions: SAMPLES
                                     "f=N ...", ARCS "f>g=COUNT ..."
"""
import re, struct, subprocess, sys

NODE = re.compile(r'^  n(\d+) \[label="((?:[^"\\]|\\.)*)", (?:tooltip="((?:[^"\\]|\\.)*)", )?'
                  r'fillcolor="([\d.]+) ', re.M | re.S)

def dot(path):
    text = open(path).read()
    nodes = {}
    for m in NODE.finditer(text):
        nodes[m.group(1)] = (m.group(2).split("\n")[0].split(" (")[0], float(m.group(4)))
    # counts are written 1,234,567
    edges = [(nodes[m.group(1)][0], nodes[m.group(2)][0], int(m.group(3).replace(",", "")))
             for m in re.finditer(r'^  n(\d+) -> n(\d+) \[label="([\d,]+)', text, re.M)]
    return nodes, edges

def strip(name):
    return re.sub(r" <cycle \d+>$", "", name)

def gprof_graph(path):
    """primary entries (name, %time) and the arcs (caller, callee, count) of gprof -b -q"""
    entries, arcs = [], []
    primary = None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("-----"):
            primary = None
            continue
        # [index] %time self children [called[+self]] name [index]
        m = re.match(r"^\[\d+\]\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+(?:\d+(?:\+\d+)?\s+)?(.*) \[\d+\]$", line)
        if m:
            primary = strip(m.group(2))
            entries.append((primary, float(m.group(1))))
            continue
        if primary and not primary.startswith("<cycle"):
            m = re.match(r"^\s+(?:[\d.]+\s+[\d.]+\s+)?(\d+)(?:/\d+)?\s+(.*?) \[\d+\]$", line)
            if m:
                arcs.append((primary, strip(m.group(2)), int(m.group(1))))
    return entries, arcs

mode = sys.argv[1]
if mode == "count":
    print(len(dot(sys.argv[2])[0]))
elif mode == "thresholds":
    # two thresholds in the middle of wide gaps between entries' %time, and how many
    # entries lie above each: "T1 N1 T2 N2"
    p = sorted((t for _, t in gprof_graph(sys.argv[2])[0]), reverse=True)
    gaps = [(p[k - 1] - p[k], k) for k in range(1, len(p)) if p[k - 1] - p[k] >= 0.4]
    lo = min(gaps, key=lambda g: abs(g[1] - 3))[1]
    hi = min((g for g in gaps if g[1] > lo + 2), key=lambda g: abs(g[1] - 10))[1]
    print("%.2f %d %.2f %d" % ((p[lo - 1] + p[lo]) / 2, lo, (p[hi - 1] + p[hi]) / 2, hi))
elif mode == "edges":
    nodes, edges = dot(sys.argv[2])
    _, arcs = gprof_graph(sys.argv[3])
    ours = sorted(edges)
    if ours != sorted(arcs) or len(arcs) < int(sys.argv[4]):
        print("DOT edges %d, gprof arcs %d; only in DOT: %s; only in gprof: %s" % (
            len(ours), len(arcs), sorted(set(ours) - set(arcs))[:3], sorted(set(arcs) - set(ours))[:3]))
        sys.exit(1)
elif mode == "hottest":
    nodes, _ = dot(sys.argv[2])
    entries, _ = gprof_graph(sys.argv[3])
    top = max(t for _, t in entries)
    hue = min(h for _, h in nodes.values())
    hot = {n for n, h in nodes.values() if h == hue}
    want = {n for n, t in entries if t == top}
    if not hot & want or abs(hue - 0.6 * (1 - top / 100)) > 0.001:
        print("reddest %s (hue %.3f), hottest %s (%.1f%%)" % (hot, hue, want, top))
        sys.exit(1)
elif mode == "has":
    nodes, edges = dot(sys.argv[2])
    names = {n for n, _ in nodes.values()}
    pairs = {(a, b) for a, b, _ in edges}
    wrong = []
    for item in sys.argv[3:]:
        want = not item.startswith("!")
        what = item.lstrip("!")
        there = tuple(what.split(">")) in pairs if ">" in what else what in names
        if there != want:
            wrong.append(item)
    if wrong:
        print("wrong: %s; nodes %s" % (wrong, sorted(names)))
        sys.exit(1)
elif mode == "names":
    width, bad = int(sys.argv[3]), 0
    for m in NODE.finditer(open(sys.argv[2]).read()):
        label, tip = m.group(2), m.group(3) or ""
        lines = label.split("\n")
        if max(len(l) for l in lines) > width:
            print("too wide: %r" % label[:200], file=sys.stderr)
            bad = 1
        print("%s\t%s" % (label.replace("\n", "|"), tip))
    sys.exit(bad)
elif mode == "gmon":
    elf, out = sys.argv[2], sys.argv[3]
    fns = {}
    for line in subprocess.run(["nm", "-S", "--defined-only", elf], capture_output=True,
                               text=True, check=True).stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tT":
            fns[f[3]] = (int(f[0], 16), int(f[1], 16))
    low = min(a for a, _ in fns.values()) & ~1
    high = (max(a + n for a, n in fns.values()) + 1) & ~1
    bins = [0] * ((high - low) // 2)
    for item in sys.argv[4].split():
        name, n = item.split("=")
        a, size = fns[name]
        bins[(a + size // 2 - low) // 2] += int(n)   # a bin in the middle of the function
    data = b"gmon" + struct.pack("<I", 1) + bytes(12)
    data += b"\0" + struct.pack("<QQII", low, high, len(bins), 100) + b"seconds".ljust(15, b"\0") + b"s"
    data += struct.pack("<%dH" % len(bins), *bins)
    for item in sys.argv[5].split():
        edge, n = item.split("=")
        caller, callee = edge.split(">")
        a, size = fns[caller]
        data += b"\1" + struct.pack("<QQI", a + min(4, size - 1), fns[callee][0], int(n))
    open(out, "wb").write(data)
