#!/usr/bin/env python3
"""No saturation, end to end: one bucket sampled 200,000 times at a
10 us interval (tests/qemu/hot_bucket.c: hot_loop spins in a 16-byte bucket of its own until
the profile timer has sampled it 200,000 times, which a wrapper of __profile_hit counts).
A 16-bit bin would stick at 65535; the overflow entry keeps the rest, and gmon.out holds
the bucket as one-bucket records of 65535, 65535, 65535 and 3395, which gprof adds up.
warm_loop, in the next bucket, gets 70,000 before (records 65535 and 4465, right after
hot_loop's: two overflowed buckets side by side).

  - gdb's gprof_fetch at hot_done: the bucket holds exactly 200,000 (the records add up),
    the header's samples are every sample the timer took, nothing is saturated; the file
    is byte for byte the firmware's own serializer output of the same moment;
  - GNU gprof: hot_loop's self seconds are 200,000 samples at the file's rate (2.00 s at
    100 kHz), and exactly 200,000 with the same file's rate set to 1 Hz (seconds =
    samples); tgprof prints the same flat profile and, in its JSON, 200,000 samples;
  - profile_write("hot.out") through semihosting (boards whose C library has files): the
    same 200,000 in GNU gprof and tgprof.
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402

HOT_SAMPLES = 200000
# The loops' samples (hot_bucket.c), and their buckets' offsets from hot_loop's.
LOOPS = {"hot_loop": (HOT_SAMPLES, 0), "warm_loop": (70000, 16)}
ELF = os.path.join(h.FW_DIR, "hot_bucket.elf")
OUT = os.path.join(h.OUT_ROOT, "hot_bucket")
TGPROF = os.path.join(h.BUILD, "host", "tgprof")
# The boards whose C library glue has files through semihosting (tests/tests.mk's
# board_has_semihosted_files: newlib's, not picolibc's).
HAS_FILES = (h.board_var("LIBC") or "newlib") != "picolibc"


def symbol(elf, name):
    """(address, size) of an ELF symbol."""
    nm = re.sub(r"gprof$", "nm", h.GPROF)
    p = subprocess.run([nm, "-S", elf], stdout=subprocess.PIPE, text=True, check=True)
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[3] == name:
            return int(f[0], 16) & ~1, int(f[1], 16)
    return None, None


def with_rate(src, dst, rate):
    """A copy of a 32- or 64-bit little-endian gmon.out with every histogram record's rate
    set to rate."""
    try:
        h.gmon_records(src, 4)
        a = 4
    except (ValueError, struct.error):
        a = 8
    data = bytearray(open(src, "rb").read())
    pos = 20
    while pos < len(data):
        tag = data[pos]
        pos += 1
        if tag == 0:
            n = struct.unpack_from("<I", data, pos + 2 * a)[0]
            struct.pack_into("<I", data, pos + 2 * a + 4, rate)
            pos += 2 * a + 8 + 16 + 2 * n
        else:
            pos += 2 * a + 4
    open(dst, "wb").write(bytes(data))


def flat_seconds(text, name):
    """hot_loop's self seconds in gprof -b -p output, as printed."""
    for line in text.splitlines():
        f = line.split()
        if f and f[-1] == name and len(f) >= 4:
            return f[2]
    return None


def pieces_of(count):
    return sorted([65535] * (count // 65535) + ([count % 65535] if count % 65535 else []))


def check_file(t, what, path, hot):
    """The loops' samples in one file, read by us, GNU gprof and tgprof."""
    hdr, hists, arcs = h.gmon_records(path)
    counts = h.hist_counts(hists)
    sizes = {(x[1] - x[0]) // x[2] for x in hists}
    t.eq(sizes, {16}, "%s: every record has the histogram's scale (16 bytes a bin)" % what)
    rate = hists[0][3] if hists else 0
    rc, text, err = h.gprof(ELF, path, "-b", "-p")
    one_hz = path + ".1hz"
    with_rate(path, one_hz, 1)
    rc1, text1, err1 = h.gprof(ELF, one_hz, "-b", "-p")
    for name, (n, off) in sorted(LOOPS.items()):
        pieces = [x[4][0] for x in hists if x[0] == hot + off and x[2] == 1]
        t.eq(counts.get(hot + off), n, "%s: %s's bucket holds all %d samples" % (what, name, n))
        t.eq(sorted(pieces), pieces_of(n), "%s: %s's bucket as one-bucket records of 65535 "
             "and the rest" % (what, name))
        want = "%.2f" % (n / rate if rate else 0)
        t.ok(rc == 0 and flat_seconds(text, name) == want,
             "%s: GNU gprof: %s's self seconds %s (%d samples at %d Hz)"
             % (what, name, want, n, rate), text[:1500] + err)
        t.eq(flat_seconds(text1, name), "%d.00" % n,
             "%s: GNU gprof, the file at 1 Hz: %s has exactly %d samples" % (what, name, n))
    if not os.access(TGPROF, os.X_OK):
        t.ok(False, "%s: tgprof is built (%s)" % (what, TGPROF))
        return hdr, counts
    p = subprocess.run([TGPROF, "-b", "-p", "--json=" + path + ".json", ELF, path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t.ok(p.returncode == 0 and p.stdout == text, "%s: tgprof prints GNU gprof's flat profile"
         % what, p.stdout[:800] + p.stderr[:800])
    t.ok("saturated" not in p.stderr, "%s: tgprof calls nothing saturated" % what, p.stderr)
    try:
        fns = {f["name"]: f["samples"] for f in json.load(open(path + ".json"))["functions"]}
    except (OSError, ValueError, KeyError):
        fns = {}
    t.eq({k: fns.get(k) for k in LOOPS}, {k: v[0] for k, v in LOOPS.items()},
         "%s: tgprof: every sample of the loops" % what)
    return hdr, counts


def main():
    t = h.Tap()
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(os.path.join(OUT, "gdb"))
    elf = os.path.join(OUT, "hot_bucket.elf")   # other runs may rebuild the original
    shutil.copyfile(ELF, elf)
    hot, size = symbol(elf, "hot_loop")
    warm, wsize = symbol(elf, "warm_loop")
    t.ok(hot is not None and hot % 16 == 0 and size == 16 and warm == hot + 16 and wsize == 16,
         "hot_loop and warm_loop fill one 16-byte bucket each, side by side (0x%x, %s bytes; "
         "0x%x, %s bytes)" % (hot or 0, size, warm or 0, wsize))
    with h.Qemu(elf, os.path.join(OUT, "qemu.log"), cwd=OUT) as q:
        rc, out = h.gdb(elf, q.port, [
            "break hot_done", "continue",
            "cd " + os.path.join(OUT, "gdb"),
            "gprof_fetch",
            "print samples_taken", "print hot_samples",
            "dump binary memory %s hot_copy hot_copy+hot_copy_len"
            % os.path.join(OUT, "gdb", "firmware-gmon.out"),
            "delete", "continue",
        ], timeout=300)
    with open(os.path.join(OUT, "gdb.log"), "w") as f:
        f.write(out)
    console = open(os.path.join(OUT, "qemu.log")).read()
    t.ok("hot: %d samples in hot_loop's bucket, %d in warm_loop's"
         % (HOT_SAMPLES, LOOPS["warm_loop"][0]) in console and "HOT FAILED" not in console,
         "the firmware sampled hot_loop's bucket %d times at a %d us interval, warm_loop's %d"
         % (HOT_SAMPLES, 10, LOOPS["warm_loop"][0]), console[-1500:])
    m = re.search(r"\$1 = (\d+)\s+\$2 = (\d+)", out)
    taken, in_hot = (int(m.group(1)), int(m.group(2))) if m else (None, None)
    t.eq(in_hot, HOT_SAMPLES, "gdb: the wrapper counted %d samples in the bucket" % HOT_SAMPLES)
    t.ok("buckets saturated 0" in out and "buckets past 65535 samples 2 (" in out,
         "gprof_fetch: no bucket saturated, two past 65535", out[-2000:])

    path = os.path.join(OUT, "gdb", "gmon.out")
    if not t.ok(os.path.exists(path), "gprof_fetch wrote gmon.out", out[-2000:]):
        return t.done()
    hdr, counts = check_file(t, "gdb", path, hot)
    m = re.search(r"gprof: samples \d+, outside the range (\d+)", out)
    outside = int(m.group(1)) if m else -1
    t.eq(hdr[2], taken, "gdb: the header's samples are every sample the timer took")
    t.eq(sum(counts.values()) + hdr[3] + outside, hdr[2],
         "gdb: samples = the buckets' counts + profiler overhead + outside the range")
    fw = os.path.join(OUT, "gdb", "firmware-gmon.out")
    t.ok(os.path.exists(fw) and open(fw, "rb").read() == open(path, "rb").read(),
         "gprof_fetch writes byte for byte what the target's own serializer produces")

    m = re.search(r"hot: profile_write (-?\d+)", console)
    write_rc = int(m.group(1)) if m else None
    if HAS_FILES:
        t.eq(write_rc, 0, "profile_write(\"hot.out\") through semihosting returned 0")
        written = os.path.join(OUT, "hot.out")
        if t.ok(os.path.exists(written), "hot.out is on the host"):
            whdr, wcounts = check_file(t, "profile_write", written, hot)
            t.ok(whdr[2] >= hdr[2] and whdr[2] >= sum(wcounts.values()) + whdr[3],
                 "profile_write: the header holds every sample since profile_on (%d), at "
                 "least the buckets' and the overhead" % whdr[2])
    else:
        t.skip("profile_write", "%s's C library has no files through semihosting" % h.BOARD)
    t.ok("hot: done" in console, "the firmware ran to its end", console[-800:])
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
