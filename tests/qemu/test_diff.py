#!/usr/bin/env python3
"""Profile diffs for CI: tests/qemu/diffprog.c in two builds, diff_base and diff_slow
(checksum() 40% more rounds, validate() called once more every 8 blocks), each run under
QEMU with -icount and its gmon.out fetched by gdb at phase_done(1).

  - the base build run twice gives identical files, and `tgprof --diff` of the two says no
    function changed, exit 0 even with --fail-slower=0 --fail-calls: a profile is a
    regression test;
  - base against slow: checksum is the first row, its self time up by 25% to 55% (the
    instruction trace of its loop: 14/10 rounds, less what the rest of the program dilutes
    nothing, as self time is its own), validate's calls up by exactly BLOCKS/8, every other
    function's calls the same, exit 0 without limits;
  - --fail-slower=5: exit 2, naming checksum and not validate or tokenize; --fail-calls:
    exit 2 naming validate only; --fail-slower=80 alone: exit 0;
  - --json: the same rows (checksum "changed", calls equal; validate's calls);
  - bad use: two files, or --fail-calls without --diff: exit 1 with a sentence.
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402

OUT = os.path.join(h.OUT_ROOT, "diff")
TGPROF = os.path.join(h.BUILD, "host", "tgprof")
BLOCKS = 400


def profile(t, name, run):
    """Run firmware name, fetch its gmon.out by gdb at phase_done(1): (elf, gmon path)."""
    d = os.path.join(OUT, "%s-%d" % (name, run))
    os.makedirs(d)
    elf = os.path.join(d, name + ".elf")
    shutil.copyfile(os.path.join(h.FW_DIR, name + ".elf"), elf)
    with h.Qemu(elf, os.path.join(d, "qemu.log"), cwd=d) as q:
        rc, out = h.gdb(elf, q.port, ["break phase_done", "continue", "cd " + d,
                                      "gprof_fetch", "delete", "kill"], timeout=300)
    with open(os.path.join(d, "gdb.log"), "w") as f:
        f.write(out)
    gmon = os.path.join(d, "gmon.out")
    t.ok(os.path.exists(gmon), "%s (run %d): gdb fetched gmon.out" % (name, run), out[-1500:])
    return elf, gmon


def gprof_self(elf, gmon):
    """{function: (self seconds, calls or None)} from GNU gprof's flat profile."""
    rows = {}
    for line in h.gprof(elf, gmon, "-b", "-p")[1].splitlines():
        f = line.split()
        if len(f) >= 4 and re.match(r"^[\d.]+$", f[0]) and re.match(r"^[\d.]+$", f[2]):
            rows[f[-1]] = (float(f[2]), int(f[3]) if len(f) == 7 else None)
    return rows


def tgprof(*args):
    p = subprocess.run([TGPROF] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    return p.returncode, p.stdout, p.stderr


def rows(report):
    """{function: (self old, self new, calls old, calls new)} from the table."""
    r = {}
    for line in report.splitlines():
        f = line.split()
        if len(f) >= 7 and f[0].replace(".", "").isdigit() and "." in f[0]:
            nums = [x for x in f if x.replace(".", "").isdigit()]
            if len(nums) >= 6:
                r[line.split("  ")[-1].strip()] = (float(nums[0]), float(nums[1]),
                                                   int(nums[4]), int(nums[5]))
    return r


def main():
    t = h.Tap()
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    base1 = profile(t, "diff_base", 1)
    base2 = profile(t, "diff_base", 2)
    slow = profile(t, "diff_slow", 1)
    if not all(os.path.exists(g) for _, g in (base1, base2, slow)):
        return t.done()

    t.ok(open(base1[1], "rb").read() == open(base2[1], "rb").read(),
         "the base build run twice under -icount: identical gmon.out files")
    rc, out, err = tgprof("--diff", "--fail-slower=0", "--fail-calls", base1[0], base1[1],
                          base2[0], base2[1])
    t.ok(rc == 0 and "No function changed" in out and "--fail" not in err,
         "base against base: no function changed, exit 0 with --fail-slower=0 --fail-calls",
         "rc %d\n%s%s" % (rc, out, err))

    rc, out, err = tgprof("--diff", base1[0], base1[1], slow[0], slow[1])
    with open(os.path.join(OUT, "report.txt"), "w") as f:
        f.write(out + err)
    r = rows(out)
    t.ok(rc == 0, "base against slow without limits: exit 0", "rc %d %s" % (rc, err))
    first = [line for line in out.splitlines() if line.strip().endswith(
        ("checksum", "tokenize", "validate", "main", "fill"))]
    t.ok(first and first[0].split()[-1] == "checksum",
         "checksum is the most changed function, first in the table", out)
    c = r.get("checksum")
    t.ok(c and c[0] > 0 and 1.25 <= c[1] / c[0] <= 1.55 and c[2] == c[3] == BLOCKS,
         "checksum: self time up 25-55%% (14 rounds for 10), its %d calls the same" % BLOCKS,
         "%r\n%s" % (c, out))
    v = r.get("validate")
    t.ok(v and v[3] - v[2] == BLOCKS // 8,
         "validate: called %d more times, exactly" % (BLOCKS // 8), "%r\n%s" % (v, out))
    others = {k: x for k, x in r.items() if k not in ("checksum", "validate") and x[2] != x[3]}
    t.ok(not others, "every other function's calls the same", repr(others))

    rc, out, err = tgprof("--diff", "--fail-slower=5", base1[0], base1[1], slow[0], slow[1])
    t.ok(rc == 2 and "checksum: self time +" in err and "validate" not in err
         and "tokenize" not in err and "main:" not in err,
         "--fail-slower=5: exit 2, checksum named by its self time (not validate, tokenize, "
         "or main, whose total time rose with checksum's)",
         "rc %d\n%s" % (rc, err))
    rc, out, err = tgprof("--diff", "--fail-calls", base1[0], base1[1], slow[0], slow[1])
    t.ok(rc == 2 and "--fail-calls: validate: called %d times, was %d"
         % (BLOCKS + BLOCKS // 8, BLOCKS) in err and "checksum" not in err,
         "--fail-calls: exit 2, validate's calls named (and nothing else)",
         "rc %d\n%s" % (rc, err))
    rc, out, err = tgprof("--diff", "--fail-slower=80", base1[0], base1[1], slow[0], slow[1])
    t.ok(rc == 0 and "--fail" not in err, "--fail-slower=80: within the limit, exit 0",
         "rc %d\n%s" % (rc, err))

    js = os.path.join(OUT, "diff.json")
    rc, out, err = tgprof("--diff", "--fail-slower=5", "--fail-calls", "--json=" + js,
                          base1[0], base1[1], slow[0], slow[1])
    try:
        d = json.load(open(js))
        fn = {f["name"]: f for f in d["functions"]}
        ok = (fn["checksum"]["status"] == "changed"
              and fn["checksum"]["calls"] == [BLOCKS, BLOCKS]
              and fn["checksum"]["self_seconds"][1] > fn["checksum"]["self_seconds"][0]
              and fn["validate"]["calls"] == [BLOCKS, BLOCKS + BLOCKS // 8]
              and d["failures"] == 3 and d["limits"]["fail_calls"] is True)
    except (OSError, ValueError, KeyError) as e:
        ok, d = False, e
    t.ok(rc == 2 and ok, "--json: the same rows, limits and 3 failures (the program's time, checksum's, "
         "validate's calls)", repr(d)[:1500])
    # each side's self seconds and calls are GNU gprof's flat profile of that file
    odd = []
    for side, (elf, gmon) in enumerate((base1, slow)):
        for name, (secs, calls) in gprof_self(elf, gmon).items():
            f = fn.get(name) if isinstance(d, dict) else None
            if not f or abs(f["self_seconds"][side] - secs) > 0.005 or \
                    (calls is not None and f["calls"][side] != calls):
                odd.append((side, name, secs, calls, f and (f["self_seconds"], f["calls"])))
    t.ok(isinstance(d, dict) and not odd, "each side's self seconds and calls are GNU gprof's "
         "flat profile of that file", repr(odd[:10]))

    rc, out, err = tgprof("--diff", base1[0], base1[1])
    t.ok(rc == 1 and "--diff takes OLD.elf OLD.out NEW.elf NEW.out" in err,
         "--diff with two files: exit 1, and how to call it", err)
    rc, out, err = tgprof("--fail-calls", base1[0], base1[1])
    t.ok(rc == 1 and "go with --diff" in err, "--fail-calls without --diff: exit 1", err)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
