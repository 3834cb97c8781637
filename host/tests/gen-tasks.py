#!/usr/bin/env python3
"""gen-tasks.py: a gmon.tasks (doc/format.md) for the host tests and the fuzzer's seeds.

  gen-tasks.py OUT SAMPLES [options]   SAMPLES: the header's samples (gmon.out's offset 8)
    --stacks FILE   one task per context id of this gmon.stacks (else --tasks N tasks)
    --tasks N       tasks with ids 0, 0x1000, 0x2000... (default 3)
    --names A,B     their names in slot order (default: main, then task1, task2...)
    --unknown K     leave the K-th context id of --stacks out ("[thread 0x...]" stays)
    --unregistered U  U switches found no slot: an "(other tasks)" record, id all-ones
    --seed S  --width 4|8  --big  --rate R
Each task gets a share of SAMPLES (every one counted once); prints "id name samples" per
task."""
import argparse, random, struct

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("samples", type=int)
ap.add_argument("--stacks")
ap.add_argument("--tasks", type=int, default=3)
ap.add_argument("--names")
ap.add_argument("--unknown", type=int)
ap.add_argument("--unregistered", type=int, default=0)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--width", type=int, default=8, choices=(4, 8))
ap.add_argument("--big", action="store_true")
ap.add_argument("--rate", type=int, default=100)
o = ap.parse_args()
rng = random.Random(o.seed)
ids = [0]
if o.stacks:
    b = open(o.stacks, "rb").read()
    e = "<" if b[8:12] == b"\x04\x03\x02\x01" else ">"
    a = b[12]
    n = struct.unpack(e + "I", b[20:24])[0]
    size = 12 + 2 * a
    for i in range(n):
        p = 56 + i * size
        parent = struct.unpack(e + "I", b[p:p + 4])[0]
        self_pc = int.from_bytes(b[p + 4:p + 4 + a], "big" if e == ">" else "little")
        frm = int.from_bytes(b[p + 4 + a:p + 4 + 2 * a], "big" if e == ">" else "little")
        if parent == 0xFFFFFFFF and self_pc == 0 and frm not in ids:
            ids.append(frm)
    if o.unknown is not None:
        del ids[o.unknown]
else:
    ids += [0x1000 * k for k in range(1, o.tasks)]
names = o.names.split(",") if o.names else ["main"] + ["task%d" % k for k in range(1, len(ids))]
recs = list(zip(ids, names))
if o.unregistered:
    recs.append(((1 << (8 * o.width)) - 1, "(other tasks)"))
cuts = sorted(rng.randrange(o.samples + 1) for _ in range(len(recs) - 1))
shares = [hi - lo for lo, hi in zip([0] + cuts, cuts + [o.samples])]
e = ">" if o.big else "<"
A = "Q" if o.width == 8 else "I"
hdr = b"gmtk" + struct.pack(e + "II", 1, 0x01020304) + bytes([o.width, 0, 0, 0])
hdr += struct.pack(e + "4I", o.rate, len(recs), o.samples, o.unregistered)
body = b""
for (tid, name), s in zip(recs, shares):
    nb = name.encode("utf-8", "surrogateescape")   # bytes of no UTF-8 character pass through
    body += struct.pack(e + A + "II", tid, s, len(nb)) + nb + b"\0" * (-len(nb) % 4)
    print("0x%x %s %d" % (tid, name, s))
open(o.out, "wb").write(hdr + body)
