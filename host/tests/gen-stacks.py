#!/usr/bin/env python3
"""gen-stacks.py: a gmon.stacks (doc/format.md) for the host tests and the fuzzer's seeds.

  gen-stacks.py OUT ADDRS [options]   ADDRS: function addresses (hex, comma-separated)
    --tree N      N nodes in a random tree over ADDRS, with contexts and handlers (default)
    --chain D     a chain of D frames under main's context, ADDRS in turn
    --every       with --chain: a sample on every frame (else 1000 on the deepest only)
    --seed S  --width 4|8  --big  --overhead O
Prints "SAMPLES OVERHEAD" (the header's words, for gen-gmon's -l SAMPLES,OVERHEAD,0)."""
import argparse, random, struct

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("addrs")
ap.add_argument("--tree", type=int, default=60)
ap.add_argument("--chain", type=int)
ap.add_argument("--every", action="store_true")
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--width", type=int, default=8, choices=(4, 8))
ap.add_argument("--big", action="store_true")
ap.add_argument("--overhead", type=int, default=0)
o = ap.parse_args()
rng = random.Random(o.seed)
addrs = [int(a, 16) for a in o.addrs.split(",")]
nodes = []                        # (parent, self, from, calls, samples)
NONE = 0xFFFFFFFF
if o.chain:
    nodes.append((NONE, 0, 0, 1, 0))
    for d in range(o.chain):
        last = d == o.chain - 1
        nodes.append((d, addrs[d % len(addrs)], 0x40 + d, 1,
                      1 if o.every else (1000 if last else 0)))
else:
    for i in range(o.tree):
        r = rng.random()
        if i == 0 or r < 0.05:    # a thread's context (the first: the stack started on)
            nodes.append((NONE, 0, 0 if i == 0 else rng.randrange(1, 1 << 20), 1, rng.randrange(3)))
        elif r < 0.08:            # an interrupt handler's own tree
            nodes.append((NONE, rng.choice(addrs), 0, rng.randrange(1, 9), rng.randrange(5)))
        else:
            nodes.append((rng.randrange(i), rng.choice(addrs), rng.choice(addrs) + 4,
                          rng.randrange(1, 100), rng.choice((0, 0, 1, 7, 40))))
e = ">" if o.big else "<"
samples = sum(n[4] for n in nodes) + o.overhead
a = "Q" if o.width == 8 else "I"
hdr = b"gmst" + struct.pack(e + "II", 1, 0x01020304) + bytes([o.width, 0, 0, 0])
hdr += struct.pack(e + "10I", 100, len(nodes), samples, o.overhead, 0, 0, 0, 0, 0, 0)
body = b"".join(struct.pack(e + "I" + a + a + "II", *n) for n in nodes)
open(o.out, "wb").write(hdr + body)
print(samples, o.overhead)
