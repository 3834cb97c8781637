#!/usr/bin/env python3
"""Checks of a tgprof DOT file against GNU gprof's call graph (gprof -b -q) of the same
profile, for outputs.sh:
  dotcheck.py count DOT              number of nodes
  dotcheck.py thresholds CG          "T1 N1 T2 N2": thresholds in wide gaps of %time, entries above
  dotcheck.py edges DOT CG MIN       edges = gprof's arcs (caller, callee, count), at least MIN
  dotcheck.py hottest DOT CG         the reddest node is the entry with the most %time"""
import re, sys

def dot(path):
    text = open(path).read()
    nodes = {}
    for m in re.finditer(r'^  n(\d+) \[label="((?:[^"\\]|\\.)*)", fillcolor="([\d.]+) ', text, re.M | re.S):
        nodes[m.group(1)] = (m.group(2).split("\n")[0].split(" (")[0], float(m.group(3)))
    edges = [(nodes[m.group(1)][0], nodes[m.group(2)][0], int(m.group(3)))
             for m in re.finditer(r'^  n(\d+) -> n(\d+) \[label="(\d+)', text, re.M)]
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
