#!/usr/bin/env python3
"""gen-hrecs.py: a GNU gmon.out of many histogram records (tag 0) and nothing else, for
the tests of how records are matched by range (host/src/histidx.c).

  gen-hrecs.py OUT BASE N disjoint SEED   N one-bin records of disjoint 2-byte ranges
                                          from BASE, in a shuffled order
  gen-hrecs.py OUT BASE N random SEED     N records of 1 to 4 bins (2 bytes each, so all
                                          have gprof's same scale) in 64 bytes from BASE:
                                          some repeat an earlier range, some overlap one
  --width 4|8  (the ELF's address width, little-endian)"""
import argparse, random, struct

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("base", type=lambda s: int(s, 0))
ap.add_argument("n", type=int)
ap.add_argument("mode", choices=("disjoint", "random"))
ap.add_argument("seed", type=int)
ap.add_argument("--width", type=int, default=8, choices=(4, 8))
o = ap.parse_args()
rng = random.Random(o.seed)
vma = "<Q" if o.width == 8 else "<I"
recs = []
if o.mode == "disjoint":
    recs = [(o.base + 2 * i, o.base + 2 * i + 2) for i in range(o.n)]
    rng.shuffle(recs)
else:
    for _ in range(o.n):
        if recs and rng.random() < 0.4:
            recs.append(rng.choice(recs))
        else:
            lo = o.base + 2 * rng.randrange(32)
            recs.append((lo, lo + 2 * rng.randint(1, 4)))
out = bytearray(b"gmon" + struct.pack("<I", 1) + bytes(12))
for lo, hi in recs:
    nb = (hi - lo) // 2
    out += bytes([0]) + struct.pack(vma, lo) + struct.pack(vma, hi)
    out += struct.pack("<II", nb, 100) + b"seconds".ljust(15, b"\0") + b"s"
    out += b"".join(struct.pack("<H", rng.randrange(1, 50)) for _ in range(nb))
open(o.out, "wb").write(out)
