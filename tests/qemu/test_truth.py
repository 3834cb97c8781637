#!/usr/bin/env python3
"""The truth oracle: the time the profile says against the instructions QEMU executed.

The workload (tests/qemu/truth.c, -O2, helpers inlined) is a strictly periodic loop, which a
fixed sampling period aliases with. gdb traces one iteration of it instruction by
instruction (QEMU single-stepping, its exec log read from a FIFO) while profiling is on:
every iteration runs the same instructions, so that one gives the truth:
  - each function's share of the instructions executed in the profiled range(s), outside
    the package's code and outside the profile timer's interrupt (which no sample can see);
  - the package's share (mcount, the stack hooks, ...) of everything outside the interrupt;
  - in the stack mode, each call path's share (calls and returns followed in the trace;
    code built without the hooks, and the package, belong to the innermost hooked frame).
Then the firmware runs each phase until it has taken its samples, and gdb fetches gmon.out
(and gmon.stacks) at its end. Checked per phase (1000 us and 100 us over flash; 100 us over
flash and .ramfunc; the autostart's default interval; 10 us asked, the board's shortest):
  - GNU gprof's flat profile: every function's share within 1.0 point of the truth;
  - the header's profiler overhead within 1.5 points of the package's share;
  - stack mode: the tree's per-path self time within 2 points of the trace's, nothing
    repaired, and the tree and the histogram agree on every function's samples.
The plain firmware runs at two -icount shifts (5: every phase; 6: both intervals over
flash), the stack mode's phases 1 to 3. A control, built with the dithering off
(CYGSEM_PROFILE_TIMER_DITHER=0), must show what the oracle catches: at the round interval,
on 2,000 samples, a share off by more than 4 points.
The board is a parameter (BOARD, PROFILE_TB), as for the board suite.
"""
import bisect
import os
import re
import shutil
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402
import test_stacks as ts  # noqa: E402

OUT = os.path.join(h.OUT_ROOT, "truth")
NM = re.sub(r"gprof$", "nm", h.GPROF)
SHARE_BOUND, OVERHEAD_BOUND, PATH_BOUND = 1.0, 1.5, 2.0
SAMPLES = 20000     # a phase's: a share to about 0.35 points (one standard deviation)
# but the autostart's default interval's (997 us, beside phase 1's 1000): 10,000, a share
# to 0.5 points (20 virtual seconds less, a third of the oracle's time on the slow boards)
PHASE_SAMPLES = {4: 10000}
CONTROL_SAMPLES, CONTROL_BOUND = 2000, 4.0
PHASES = {1: "1000 us", 2: "100 us", 3: "100 us, flash and .ramfunc", 4: "the autostart's default interval",
          5: "the board's shortest interval (10 us asked)"}
OBJDUMP = re.sub(r"gprof$", "objdump", h.GPROF)
# Hooked functions that run no code without hooks: gmon.out and gmon.stacks agree exactly.
EXACT = ("leaf", "flat_0", "flat_1", "flat_3", "flat_6", "ram_2", "caller_a", "caller_b",
         "caller_c", "outer")
SAMPLE_PATH = h.SAMPLE_PATH


class Image:
    """The ELF's functions: name_of(pc), and where the package, the ranges and the sample
    path are."""

    def __init__(self, elf):
        out = subprocess.run([NM, "-S", "--defined-only", elf], stdout=subprocess.PIPE,
                             text=True, check=True).stdout
        self.syms, funcs = {}, []
        for line in out.splitlines():
            f = line.split()
            if len(f) == 4:
                a, size = int(f[0], 16) & ~1, int(f[1], 16)
                self.syms[f[3]] = (a, size)
                if f[2] in "tTwW" and size:
                    funcs.append((a, a + size, f[3]))
            elif len(f) == 3:
                self.syms.setdefault(f[2], (int(f[0], 16) & ~1, 0))
        funcs.sort()
        self.funcs, self.starts = funcs, [a for a, _, _ in funcs]
        self.entries = {a: n for a, _, n in funcs}
        s = self.syms
        self.package = (s["__profile_text_start"][0], s["__profile_text_end"][0])
        self.flash = (s["_stext"][0], s["_etext"][0])
        self.ram = (s["_sramfunc"][0], s["_eramfunc"][0])
        # the traced tick starts at truth_begin, after the resync that only it runs (starting
        # the tick again costs the RISC-V boards' RTC a quarter of a point of one tick)
        self.window = s["truth_begin"][0]
        isr = h.board_var("BOARD_PROFILE_ISR")
        self.isr_entry = s[isr][0]
        self.sample_path = [(a, e) for a, e, n in funcs if n == isr or n.split(".")[0] in SAMPLE_PATH]
        self.hooked = self.callers_of(elf, "__cyg_profile_func_enter")
        # (a far call goes through a linker veneer: code without hooks, in no function)
        self.via_veneer = self.callers_of(elf, r"\w+_veneer")

    @staticmethod
    def callers_of(elf, fn):
        """The functions whose code calls fn: in the stack mode, the hooked frames."""
        out = subprocess.run([OBJDUMP, "-d", elf], stdout=subprocess.PIPE, text=True,
                             check=True).stdout
        found, current = set(), None
        for line in out.splitlines():
            m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
            if m:
                current = m.group(1).split(".")[0]
            elif current and re.search(r"<_*%s(_veneer)?>" % fn, line):   # (far: a veneer)
                found.add(current)
        return found

    def name_of(self, pc):
        i = bisect.bisect_right(self.starts, pc) - 1
        if i >= 0 and pc < self.funcs[i][1]:
            return self.funcs[i][2].split(".")[0]
        return "0x%x" % pc

    def in_package(self, pc):
        return self.package[0] <= pc < self.package[1]

    def in_sample_path(self, pc):
        if not (self.flash[0] <= pc < self.flash[1] or self.ram[0] <= pc < self.ram[1]):
            return True                 # vectors, trap entries
        return any(a <= pc < e for a, e in self.sample_path)


class Trace(threading.Thread):
    """Counts QEMU's exec log ("Trace N: host [cs/pc/...]", one line an instruction when
    single-stepping): per function, per call path, the package's, the interrupt's."""

    def __init__(self, fifo, img):
        super().__init__(daemon=True)
        self.fifo, self.img = fifo, img
        self.funcs, self.paths = {}, {}
        self.package = self.isr = self.isr_entries = 0

    def run(self):
        img, started = self.img, False
        # (the trace starts in truth_begin, called by run, which main may have inlined)
        stack = ["main"] + (["run"] if "run" in img.hooked else [])
        trace = h.ExecTrace(self.fifo, img.isr_entry, img.in_sample_path)
        for pc, in_isr in trace:
            if not started:
                if pc != img.window:
                    continue
                started = True
            if in_isr:
                self.isr += 1
                continue
            if img.in_package(pc):
                self.package += 1
                continue
            name = img.name_of(pc)
            self.funcs[name] = self.funcs.get(name, 0) + 1
            self.follow(stack, pc, name)
            key = ";".join(stack)
            self.paths[key] = self.paths.get(key, 0) + 1
        self.isr_entries = trace.isr_entries

    def follow(self, stack, pc, name):
        """The hooked frames as the trace shows them: a hooked function's entry is a call,
        a return to a frame below is its end; code without hooks is its caller's."""
        if name not in self.img.hooked:
            return
        if pc in self.img.entries:
            stack.append(name)
        elif name in stack:
            del stack[stack.index(name, max(0, len(stack) - 1 - stack[::-1].index(name))) + 1:]
        else:
            stack[-1] = name

    def total(self):
        return sum(self.funcs.values())


def in_ranges(img, name, phase):
    a = img.syms.get(name, (None,))[0]
    if a is None:
        return False
    ranges = [img.flash] + ([img.ram] if phase == 3 else [])
    return any(lo <= a < hi for lo, hi in ranges)


def run_firmware(elf, out_dir, icount, samples, phases=PHASES):
    """Boots elf; in each phase, traces one iteration (the 64th: at the phase's own interval,
    whose interrupts take their time from idle) and fetches its files (p1.out ...) at its
    end. Returns (Image, {phase: Trace}, gdb output)."""
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    img = Image(elf)
    traces, cmds = {}, ["cd " + out_dir, "break truth_trace", "break truth_done"]
    for i, p in enumerate(phases):
        fifo = os.path.join(out_dir, "trace%d.fifo" % p)
        os.mkfifo(fifo)
        traces[p] = Trace(fifo, img)
        traces[p].start()
        # (a stop moves QEMU's clock on: the firmware starts its tick again after the
        # truth_mark where gdb stops, and the trace counts from the truth_begin after it)
        # (the sample target is set at the first phase's first stop, some 64 samples in:
        # before the startup, its copy of .data would undo it)
        n = min(samples, PHASE_SAMPLES.get(p, samples))
        previous = min(samples, PHASE_SAMPLES.get(phases[i - 1], samples)) if i else None
        cmds += ["continue"] + (["set var truth_samples = %d" % n] if n != previous else [])
        cmds += ["tbreak truth_mark", "continue", "set var truth_resync = 1",
                 "monitor logfile " + fifo, "monitor singlestep on", "monitor log exec,nochain",
                 "tbreak truth_mark", "continue",
                 "monitor log none", "monitor singlestep off", "monitor logfile /dev/null",
                 "continue", "python gprof_fetch('p%d.out')" % p]
    cmds += ["delete"] + (["continue"] if tuple(phases) == tuple(PHASES) else ["kill"])
    with h.Qemu(elf, os.path.join(out_dir, "qemu.log"), icount=icount, cwd=out_dir) as q:
        rc, out = h.gdb(elf, q.port, cmds, timeout=900)
        try:
            q.proc.wait(timeout=60)
        except Exception:
            pass
    with open(os.path.join(out_dir, "gdb.log"), "w") as f:
        f.write(out)
    for p, trace in traces.items():
        trace.join(timeout=60)
        os.remove(trace.fifo)
    return img, traces, out


def flat_errors(img, trace, elf, gmon, phase):
    """{function: (sampled %, true %)} over the functions in the phase's ranges."""
    rc, text, err = h.gprof(elf, gmon, "-b", "-p")
    sampled = {n: pct for n, (pct, _) in h.flat(text).items()}
    user = {n: c for n, c in trace.funcs.items() if in_ranges(img, n, phase)}
    total = sum(user.values())
    truth = {n: 100.0 * c / total for n, c in user.items()}
    return {n: (sampled.get(n, 0.0), truth.get(n, 0.0)) for n in set(sampled) | set(truth)}


# A function that takes this share of the traced tick runs in the ticks not traced too, and
# is sampled there (20,000 samples: about 20 expected): the traced tick is like the others.
# In the stack-profiling mode, twice that: QEMU takes an interrupt between translation
# blocks, and a block of a small hooked function ends with its call into a hook, so a
# sample due in it is taken in the hook, the profiler's (outer, 0.11% of the tick between
# its hooks on vexpress-a9-thumb, had 4 samples of 20,000, and none once the hooks' fast
# paths changed the timing).
TYPICAL_SHARE = 0.1
TYPICAL_SHARE_STACKS = 0.2


def check_flat(t, img, trace, elf, gmon, phase, what):
    """The flat profile's shares and the overhead against the truth; returns the largest
    share error."""
    shares = flat_errors(img, trace, elf, gmon, phase)
    package = sorted(n for n in shares if n.startswith("__profile") or
                     img.in_package(img.syms.get(n, (0,))[0]))
    t.ok(not package, "%s, phase %d: the flat profile names no symbol of the package"
         % (what, phase), package)
    worst = max(shares, key=lambda n: abs(shares[n][0] - shares[n][1]))
    err = abs(shares[worst][0] - shares[worst][1])
    table = "\n".join("%-14s sampled %6.2f%%  true %6.2f%%" % (n, s, tr)
                      for n, (s, tr) in sorted(shares.items(), key=lambda x: -x[1][1]))
    desc = ("%s, phase %d (%s): every function's share within %.1f point of the trace's "
            "(largest %.2f: %s)" % (what, phase, PHASES[phase], SHARE_BOUND, err, worst))
    t.ok(err <= SHARE_BOUND, desc, table)
    typical = TYPICAL_SHARE_STACKS if what.startswith("stack") else TYPICAL_SHARE
    unsampled = sorted(n for n, (sm, tr) in shares.items() if tr >= typical and sm == 0)
    t.ok(not unsampled, "%s, phase %d: the traced tick ran nothing the others do not (every "
         "function of %.1f%% of it or more sampled)" % (what, phase, typical), unsampled)
    hdr = h.gmon_parse(gmon)[0]
    samples, overhead = hdr[2], hdr[3]
    share = 100.0 * overhead / samples if samples else -100.0
    everything = trace.total() + trace.package
    true = 100.0 * trace.package / everything
    t.ok(abs(share - true) <= OVERHEAD_BOUND, "%s, phase %d: profiler overhead %.2f%% of %d "
         "samples, the package ran %.2f%% of the instructions outside the sample interrupt "
         "(within %.1f)" % (what, phase, share, samples, true, OVERHEAD_BOUND))
    print("# %s, phase %d: %s" % (what, phase, table.replace("\n", "; ")))
    return err


def collapsed_paths(nodes, name_of):
    """{trace-like path: samples} of a gmon.stacks: a frame inlined into its caller (its node
    has its parent's call site: the hook's call site is the enclosing function's) merges into
    the caller, as the trace sees it."""
    out = {}
    for i, (parent, self_pc, from_pc, calls, samples) in enumerate(nodes):
        names, j = [], i
        while j != 0xFFFFFFFF:
            pj, sj, fj = nodes[j][:3]
            if sj and not (pj != 0xFFFFFFFF and nodes[pj][1] and nodes[pj][2] == fj):
                names.append(name_of(sj))
            j = pj
        key = ";".join(reversed(names))
        out[key] = out.get(key, 0) + samples
    return out


def check_stacks(t, img, trace, elf, out_dir, phase):
    stacks = os.path.join(out_dir, "p%d.stacks" % phase)
    if not t.ok(os.path.exists(stacks), "stack mode, phase %d: gmon.stacks fetched" % phase):
        return
    hdr, nodes = ts.read_stacks(stacks)
    t.eq(hdr["repaired"], 0, "stack mode, phase %d: no frame repaired (inlined hooked "
         "functions are frames, not abandoned ones)" % phase)
    tree = collapsed_paths(nodes, img.name_of)
    tree_total = sum(tree.values())
    # (the tree has every sample but the profiler's, in the ranges or not)
    user = trace.paths
    total = sum(user.values())
    keys = set(tree) | set(user)
    rows = {k: (100.0 * tree.get(k, 0) / tree_total if tree_total else 0.0,
                100.0 * user.get(k, 0) / total) for k in keys}
    worst = max(rows, key=lambda k: abs(rows[k][0] - rows[k][1]))
    err = abs(rows[worst][0] - rows[worst][1])
    table = "\n".join("%-34s tree %6.2f%%  true %6.2f%%" % (k, a, b)
                      for k, (a, b) in sorted(rows.items(), key=lambda x: -x[1][1]))
    t.ok(err <= PATH_BOUND, "stack mode, phase %d: every path's self time within %.1f points "
         "of the trace's (largest %.2f: %s)" % (phase, PATH_BOUND, err, worst), table)
    leaf = [sum(v[0] for k, v in rows.items() if k.endswith(";caller_%s;leaf" % x)) for x in "abc"]
    t.ok(max(leaf) - min(leaf) <= PATH_BOUND, "stack mode, phase %d: leaf's equal work from "
         "caller_a, caller_b, caller_c gets equal shares (%s)"
         % (phase, ", ".join("%.2f%%" % v for v in leaf)))
    print("# stack mode, phase %d: %s" % (phase, table.replace("\n", "; ")))
    # The tree and the histogram agree, function by function (those that run no code
    # without hooks, which the tree charges to its caller; in the phase's ranges).
    counts = h.hist_counts(h.gmon_records(os.path.join(out_dir, "p%d.out" % phase))[1])
    by_fn = {}
    for k, v in tree.items():
        by_fn[k.split(";")[-1]] = by_fn.get(k.split(";")[-1], 0) + v
    differ = {}
    for f in EXACT:
        if f not in img.syms or not in_ranges(img, f, phase) or f in img.via_veneer:
            continue
        a, size = img.syms[f]
        hist = sum(c for b, c in counts.items() if a <= b < a + size)
        if hist != by_fn.get(f, 0):
            differ[f] = (hist, by_fn.get(f, 0))
    t.ok(not differ, "stack mode, phase %d: each function's samples in gmon.out are its "
         "nodes' in gmon.stacks" % phase, "function: (gmon.out, gmon.stacks) %r" % differ)


def traced(t, what, trace, out):
    return t.ok(trace.total() > 1000, "%s: one iteration traced (%d instructions, %d in the "
                "package, %d in %d sample interrupts)" % (what, trace.total(), trace.package,
                                                         trace.isr, trace.isr_entries), out[-2000:])


def main():
    t = h.Tap()
    base = os.path.join(h.FW_DIR, "truth.elf")
    worst = {}
    # Every phase at the default shift; at the other, the two intervals over flash.
    for shift, phases in ((5, (1, 2, 3, 4, 5)), (6, (1, 2))):
        out_dir = os.path.join(OUT, "plain-icount%d" % shift)
        img, traces, out = run_firmware(base, out_dir, shift, SAMPLES, phases)
        what = "plain, -icount shift=%d" % shift
        # (8-bit bins: a bucket of 255 samples takes an overflow entry; the table must hold
        # every one of this workload's, or a bucket sticks and refuses samples)
        sat = re.findall(r"gprof: samples \d+, outside the range \d+, buckets saturated (\d+)",
                         out)
        t.ok(len(sat) == len(phases) and all(n == "0" for n in sat),
             "%s: no bucket saturated in any phase (every overflow entry needed was free)"
             % what, "\n".join(re.findall(r"gprof: (?:samples|overflow entries).*", out)))
        for p in phases:
            gmon = os.path.join(out_dir, "p%d.out" % p)
            if traced(t, "%s, phase %d" % (what, p), traces[p], out) and \
               t.ok(os.path.exists(gmon), "%s, phase %d: gmon.out fetched" % (what, p), out[-1500:]):
                worst[(shift, p)] = check_flat(t, img, traces[p], base, gmon, p, what)

    # The stack mode: 1000 us and 100 us over flash, 100 us over flash and .ramfunc.
    stacks = os.path.join(h.FW_DIR, "truth-stacks.elf")
    out_dir = os.path.join(OUT, "stacks")
    img, traces, out = run_firmware(stacks, out_dir, 5, SAMPLES, (1, 2, 3))
    for p in traces:
        gmon = os.path.join(out_dir, "p%d.out" % p)
        if traced(t, "stack mode, phase %d" % p, traces[p], out) and \
           t.ok(os.path.exists(gmon), "stack mode, phase %d: gmon.out fetched" % p, out[-1500:]):
            check_flat(t, img, traces[p], stacks, gmon, p, "stack mode")
            check_stacks(t, img, traces[p], stacks, out_dir, p)

    # The control: what the oracle catches with the dithering off. A tenth of the samples is
    # enough: the aliasing puts a share 8 to 35 points off, where 2,000 samples' own noise
    # is under 0.7 points (one standard deviation).
    nodither = os.path.join(h.FW_DIR, "truth-nodither.elf")
    out_dir = os.path.join(OUT, "nodither")
    img, traces, out = run_firmware(nodither, out_dir, 5, CONTROL_SAMPLES, (1,))
    gmon = os.path.join(out_dir, "p1.out")
    if traced(t, "no dithering (the control)", traces[1], out) and \
       t.ok(os.path.exists(gmon), "no dithering (the control): gmon.out fetched", out[-1500:]):
        shares = flat_errors(img, traces[1], nodither, gmon, 1)
        err = max(abs(s - tr) for s, tr in shares.values())
        t.ok(err > CONTROL_BOUND, "no dithering (the control), 1000 us: a share off by %.2f "
             "points (more than %.0f): the oracle sees the aliasing" % (err, CONTROL_BOUND))
        worst["nodither"] = err
    print("# worst share error: " + ", ".join(
        "%s: %.2f" % (k if isinstance(k, str) else "shift %d phase %d" % k, e)
        for k, e in sorted(worst.items(), key=str)))
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
