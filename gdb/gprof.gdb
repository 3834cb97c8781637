# gdb macros for the gprof profiling package.
#
#   (gdb) source gprof.gdb
#   (gdb) gprof_dump      write gmon.out (and gmon.tasks, gmon.stacks) in gdb's current
#                         directory, print the per-task table, then reset the counts
#   (gdb) gprof_fetch     the same, keeping the counts
#   (gdb) gprof_reset     reset the counts only
#   (gdb) gprof_stats     print the loss counters only
#
# Works over any remote (QEMU's gdbstub, OpenOCD, J-Link, ...): the data is read with a
# handful of bulk memory reads located through the debug info of `profile_state` (see
# target/src/profile_priv.h), and gmon.out is written field by field here, in the target's
# byte order and address width, in the same order as the target's own serializer
# (target/src/gmon.c), so both produce the same bytes.
#
# A reset never rewrites the target's arrays from gdb: it sets profile_state.reset_pending
# (and closes the fast paths' gates: armed_span = 0, armed_homes = 0, armed_arcs =
# profile_arcs_none) while the target is halted; the target performs the reset, with
# interrupts masked, before it adds anything to the data.
#
# Wherever the target is halted, what gdb reads is whole: a target halted in the middle of
# a change to the profiling data (an increment in __profile_hit, __profile_mcount or the
# mcount stub's own lookup, or a section that sets profile_state.lasting.busy: a reset, a
# snapshot's take, merge-back or release) is first run to the end of that change (single
# steps out of the hot functions, a watchpoint on busy for the rest), then read. The target
# then stands a few instructions further on, and the command says so.
#
# Samples whose PC was in the package's own code are profiler overhead: counted in the
# header, never in a bin (target/src/hist.c); the summary says how many.
#
# Several ranges (profile_on_ranges: profile_state.ranges, in address order, each with its
# first bin in bins) go out as one histogram record each, in address order. A bucket
# counted past what its bin holds (8 bits: the bin's type says) keeps the rest in an
# overflow entry (profile_state.ovf, sorted by bin): its true count is the bin plus the
# entry's high. gmon.out's bins are 16-bit: a bucket of 0xFFFF or more goes out as
# one-bucket records of its range whose counts add up to its count (GNU gprof adds them
# up), between records of the bins around it, as target/src/gmon.c writes them.

python
import os
import struct
import gdb


class GprofError(gdb.GdbError):
    pass


def _state():
    """profile_state of the live target, run out of any update it was halted in."""
    try:
        s = gdb.parse_and_eval("profile_state")
    except gdb.error:
        raise GprofError("gprof: no symbol profile_state: is the profiling package linked "
                         "into this program, and its debug info loaded?")
    if gdb.selected_thread() is None:
        # Without a live target gdb would read the ELF file's static image.
        raise GprofError("gprof: no running target: connect to it first (e.g. target "
                         "remote HOST:PORT) and stop it (Ctrl-C or a breakpoint)")
    _quiesce(s)
    return s


# The hot paths change the data without setting busy (it would cost every sample and call
# two stores): a target halted inside them is stepped out. The mcount stubs (assembly, no
# debug info for a function) are known by their ELF symbol: the architecture's hook may
# look arcs up itself (<cyg/profile/hal.h>). In the stack-profiling mode
# __profile_hit counts a sample, then calls profile_stack_sample to put it in a node: a
# step out of __profile_hit lands there, and is stepped out of too (else gmon.out would
# have the sample and gmon.stacks not, and the reset would drop it from the tree).
# The functions the hot paths run in their masked sections are hot too, by name (GCC's
# clones, hit_miss.constprop.0, and inlined frames alike): __profile_hit may tail-call
# hit_miss, which then has no __profile_hit frame above it. Their callees are found by the
# frames above them, up to the first outside the package.
_HOT_FUNCTIONS = ("__profile_hit", "hit_miss", "hist_count_slow", "profile_bin_store",
                  "overhead_count", "__profile_mcount", "mcount_miss", "profile_arc_add",
                  "arc_insert", "arc_promote", "profile_stack_sample")
_HOT_STUBS = ("__gnu_mcount_nc", "_mcount")
_MAX_STEPS = 10000
_MAX_HOT_FRAMES = 16


# The stubs' ranges, found once per program file (its path, modification time and the
# stub's address): finding a range asks gdb about every halfword of the stub, a hundred
# round trips that every fetch and reset would otherwise repeat.
_stub_ranges = {}


def _stub_range(name):
    """[start, end) of an mcount stub from its ELF symbol (value and size), or None."""
    try:
        start = int(gdb.parse_and_eval("(unsigned long)&%s" % name))
    except gdb.error:
        return None
    path = gdb.current_progspace().filename
    try:
        key = (path, os.path.getmtime(path), name, start)
    except (OSError, TypeError):
        return _stub_extent(name, start)    # (no file to key it on: found again)
    if key not in _stub_ranges:
        _stub_ranges[key] = _stub_extent(name, start)
    return _stub_ranges[key]


def _stub_extent(name, start):
    # The symbol's size: the address just past it is no longer "name + offset".
    out = gdb.execute("info symbol 0x%x" % start, to_string=True)
    if not out.startswith(name + " "):
        return None
    end = start
    while True:
        out = gdb.execute("info symbol 0x%x" % (end + 2), to_string=True)
        if not out.startswith(name + " + ") and not out.startswith(name + " in "):
            return (start & ~1, end + 2)
        end += 2


def _package_range():
    """[start, end) of the package's code (the board's linker script), or None."""
    try:
        return (int(gdb.parse_and_eval("(unsigned long)&__profile_text_start")),
                int(gdb.parse_and_eval("(unsigned long)&__profile_text_end")))
    except gdb.error:
        return None


def _in_hot_path(stubs, package):
    """Whether the target is halted in a hot path: in an mcount stub, or in a hot function
    or something it called, inlined or not (the frames up to the first outside the
    package)."""
    f = gdb.newest_frame()
    if any(lo <= int(f.pc()) < hi for lo, hi in stubs):
        return True
    for _ in range(_MAX_HOT_FRAMES):
        try:
            name = f.name()
        except gdb.error:
            return False
        if name and name.split(".")[0] in _HOT_FUNCTIONS:
            return True
        inline = f.type() == gdb.INLINE_FRAME
        if not inline and (package is None or not package[0] <= int(f.pc()) < package[1]):
            return False
        try:
            f = f.older()
        except gdb.error:
            return False
        if f is None:
            return False
    return False


def _release_frame():
    """profile_snapshot_release's frame when the target is halted inside it, else None.
    Its merge-back moves an abandoned snapshot into the live data a locked step at a time
    (bins, arcs, ...) and the task table (and the stack mode's tree) in its last step: a
    read between two steps would hold part of the snapshot in gmon.out and none of it in
    gmon.tasks and gmon.stacks."""
    f = gdb.newest_frame()
    for _ in range(64):
        if f is None:
            return None
        try:
            if f.name() == "profile_snapshot_release":
                return f
        except gdb.error:
            return None
        f = f.older()
    return None


def _run_out_of(frame):
    """Runs the target until frame returns (breakpoints wait, as _run_to_busy_clear's)."""
    caller = frame.older()
    if caller is None:
        raise GprofError("gprof: halted in a snapshot's release whose caller gdb cannot "
                         "find; step out of it (finish) and try again")
    others = [b for b in gdb.breakpoints() if b.enabled]
    for b in others:
        b.enabled = False
    bp = gdb.Breakpoint("*0x%x" % caller.pc(), internal=True, temporary=True)
    try:
        gdb.execute("continue", to_string=True)
    finally:
        if bp.is_valid():
            bp.delete()
        for b in others:
            b.enabled = True


def _run_to_busy_clear():
    # The user's breakpoints wait meanwhile: one inside the section (a loop's) would stop
    # the target again and again before the section ends.
    others = [b for b in gdb.breakpoints() if b.enabled]
    for b in others:
        b.enabled = False
    wp = gdb.Breakpoint("profile_state.lasting.busy", gdb.BP_WATCHPOINT, gdb.WP_WRITE, internal=True)
    try:
        wp.condition = "profile_state.lasting.busy == 0"
        gdb.execute("continue", to_string=True)
    finally:
        wp.delete()
        for b in others:
            b.enabled = True


def _quiesce(s):
    """Runs the target out of any change to the profiling data it is halted in."""
    stubs = [r for r in map(_stub_range, _HOT_STUBS) if r]
    package = _package_range()
    moved = False
    for _ in range(_MAX_STEPS):
        release = None if int(s["lasting"]["busy"]) else _release_frame()
        if int(s["lasting"]["busy"]):
            _run_to_busy_clear()
        elif release is not None:
            _run_out_of(release)
        elif _in_hot_path(stubs, package):
            gdb.execute("stepi", to_string=True)
        else:
            break
        moved = True
    else:
        raise GprofError("gprof: the target does not leave the profiler's code; "
                         "nothing was read")
    if moved:
        print("gprof: the target was halted inside a profiler update; ran it to the end "
              "of it (now at 0x%x)" % int(gdb.newest_frame().pc()))


def _endian():
    return "<" if "little" in gdb.execute("show endian", to_string=True) else ">"


def _field_offsets(type_name):
    t = gdb.lookup_type(type_name)
    return t.sizeof, {f.name: f.bitpos // 8 for f in t.fields()}


class GprofData:
    """A snapshot of the target's profiling state."""

    def __init__(self):
        s = _state()
        if not int(s["running"]) or int(s["bins"]) == 0:
            raise GprofError("gprof: target-side profiling is off (profile_on() has not "
                             "been called, failed, or profile_off() was called)")
        self.e = _endian()
        self.addr_size = s["low_pc"].type.sizeof
        self.low_pc = int(s["low_pc"])
        self.high_pc = int(s["high_pc"])
        self.nbins = int(s["nbins"])
        self.bucket = 1 << int(s["bucket_shift"])
        self.prof_rate = int(s["prof_rate"])
        self.reset_pending = int(s["reset_pending"])
        names = ("samples", "samples_out_of_range", "samples_overhead", "buckets_saturated",
                 "arcs_used", "arcs_capacity", "arcs_dropped", "arcs_out_of_range")
        self.counters = {n: int(s[n]) for n in names}
        # A transfer in flight (TFTP, or profile_write) has frozen the data recorded before it began
        # (target/src/snapshot.c); this file holds what was recorded since.
        try:
            f = gdb.parse_and_eval("profile_frozen")
            self.frozen_samples = int(f["samples"]) if int(f["bins"]) else None
        except gdb.error:
            self.frozen_samples = None
        self.arcs = []  # (from_pc, self_pc, count) in the target serializer's order
        self.ovf = []   # (bin, high) of the overflow entries in use, in bin order
        self.ovf_capacity = int(s["ovf_capacity"])
        bin_bytes = s["bins"].type.target().sizeof
        bin_code = {1: "B", 2: "H"}[bin_bytes]
        self.bin_max = (1 << 8 * bin_bytes) - 1     # a stuck bin (hist.c)
        self.bucket_shift = int(s["bucket_shift"])
        # (low, first bin, bins) of each range, in address order
        self.ranges = [(int(g["low"]), int(g["first"]), int(g["nbins"]))
                       for g in (s["ranges"][i] for i in range(int(s["nranges"])))]
        if self.reset_pending:
            # The target resets before it records anything more: the data is empty now.
            self.bins = [0] * self.nbins       # the bins as the target holds them
            self.counts = [0] * self.nbins     # the buckets' true counts
            self.counters = {n: 0 for n in names}
            self.counters["arcs_capacity"] = int(s["arcs_capacity"])
            return
        inf = gdb.selected_inferior()
        self.bins = list(struct.unpack(self.e + "%d%s" % (self.nbins, bin_code),
                                       bytes(inf.read_memory(int(s["bins"]),
                                                             bin_bytes * self.nbins))))
        used = int(s["ovf_used"])
        if used:
            size, off = _field_offsets("struct profile_ovf")
            raw = bytes(inf.read_memory(int(s["ovf"]), size * used))
            self.ovf = [tuple(struct.unpack_from(self.e + "I", raw, i * size + off[f])[0]
                              for f in ("bin", "high")) for i in range(used)]
        self.counts = list(self.bins)
        for b, high in self.ovf:
            self.counts[b] += high
        used = self.counters["arcs_used"]
        if used and int(s["arcs"]):
            # The arc table (target/src/arcs.c): nslots records of three u32, a free one
            # with from == 0; in slot order, as the target's serializer writes them. The
            # addresses are kept mod 2^32, in the 4 GiB window of low_pc, and may carry the
            # Thumb bit (pc_mask, HAL_PROFILE_PC, takes it off).
            nslots = int(s["nslots"])
            size, off = _field_offsets("struct profile_arc")
            raw = bytes(inf.read_memory(int(s["arcs"]), size * nslots))
            window = self.low_pc >> 32 << 32
            mask = int(s["pc_mask"])
            found = 0
            for slot in range(nslots):
                base = slot * size
                from_pc, self_pc, count = (struct.unpack_from(self.e + "I", raw, base + off[f])[0]
                                           for f in ("from", "self", "count"))
                if from_pc:
                    found += 1
                    self.arcs.append(((window | from_pc) & mask, (window | self_pc) & mask,
                                      count))
            if found != used:
                raise GprofError("gprof: the arc table holds %d records, arcs_used says %d"
                                 % (found, used))

    def hist_records(self):
        """The histogram records as target/src/gmon.c writes them, in its order: range by
        range in address order, (address, first bin, bins, None) for buckets below 0xFFFF
        (their true counts), (address, bin, 1, count) for a piece of a bucket of 0xFFFF or
        more (65535 each, the last the rest)."""
        recs = []
        for low, first, nbins in self.ranges:
            end = first + nbins
            hot = [(b, self.counts[b]) for b, _ in self.ovf
                   if first <= b < end and self.counts[b] >= 0xFFFF]
            b = first
            for bin_, count in hot + [(end, None)]:
                if bin_ > b:
                    recs.append((low + ((b - first) << self.bucket_shift), b, bin_ - b, None))
                if count is None:
                    break
                n = (count + 65534) // 65535
                at = low + ((bin_ - first) << self.bucket_shift)
                recs += [(at, bin_, 1, 65535 if k + 1 < n else count - 65535 * (n - 1))
                         for k in range(n)]
                b = bin_ + 1
        return recs

    def gmon(self):
        """The gmon.out image, field by field (GNU gmon.out version 1)."""
        e, a = self.e, ("Q" if self.addr_size == 8 else "I")
        c = self.counters
        out = bytearray(b"gmon")
        # (the calls not recorded, held at 2^24-1, under the check byte: doc/format.md)
        arcs = min(c["arcs_dropped"] + c["arcs_out_of_range"], 0xFFFFFF)
        x = c["samples"] ^ c["samples_overhead"] ^ arcs
        check = 0xA5 ^ (x & 0xFF) ^ ((x >> 8) & 0xFF) ^ ((x >> 16) & 0xFF) ^ (x >> 24)
        out += struct.pack(e + "IIII", 1, c["samples"], c["samples_overhead"],
                           check << 24 | arcs)
        for low, first, n, count in self.hist_records():
            out += struct.pack(e + "B" + a + a + "II", 0, low, low + (n << self.bucket_shift),
                               n, self.prof_rate)
            out += b"seconds".ljust(15, b"\0") + b"s"
            out += (struct.pack(e + "H", count) if count is not None
                    else struct.pack(e + "%dH" % n, *self.counts[first:first + n]))
        for from_pc, self_pc, count in self.arcs:
            out += struct.pack(e + "B" + a + a + "I", 1, from_pc, self_pc, count)
        return bytes(out)


def stacks_image(d):
    """gmon.stacks (doc/format.md), field by field, from profile_stacks (stack-profiling
    mode, target/src/stacks.c), or None if the target has no such mode. Read after
    _state() ran the target out of any update; a reset pending zeroes the counts, as the
    target will."""
    try:
        t = gdb.parse_and_eval("profile_stacks")
    except gdb.error:
        return None
    e, a = d.e, ("Q" if d.addr_size == 8 else "I")
    c = d.counters
    zero = d.reset_pending
    used = int(t["nodes_used"])
    size, off = _field_offsets("struct profile_stack_node")
    raw = bytes(gdb.selected_inferior().read_memory(int(t["nodes"].address), size * used))
    asz = d.addr_size
    nodes = []
    for i in range(used):
        base = i * size
        parent, calls, samples = (struct.unpack_from(e + "I", raw, base + off[f])[0]
                                  for f in ("parent", "calls", "samples"))
        self_pc, from_pc = (struct.unpack_from(e + a, raw, base + off[f])[0]
                            for f in ("self", "from"))
        nodes.append((parent, self_pc, from_pc, 0 if zero else calls, 0 if zero else samples))
    counts = [0 if zero else int(t[f]) for f in ("samples_truncated", "calls_unrecorded",
                                                 "frames_repaired", "calls_unhooked")]
    out = bytearray(b"gmst")
    out += struct.pack(e + "II", 1, 0x01020304)
    out += struct.pack(e + "B3x", asz)
    out += struct.pack(e + "IIII", d.prof_rate, used, c["samples"], c["samples_overhead"])
    out += struct.pack(e + "IIII", *counts)
    out += struct.pack(e + "II", 0 if zero else int(t["switches_lost"]), 0)
    for parent, self_pc, from_pc, calls, samples in nodes:
        out += struct.pack(e + "I" + a + a + "II", parent, self_pc, from_pc, calls, samples)
    in_nodes = sum(n[4] for n in nodes)
    if in_nodes + c["samples_overhead"] != c["samples"]:
        print("gprof: warning: gmon.stacks holds %d samples and %d overhead, gmon.out %d"
              % (in_nodes, c["samples_overhead"], c["samples"]))
    return bytes(out)


def stacks_report(image, d):
    """The tree's loss counters, as warnings when they are not zero."""
    truncated, unrecorded, repaired, unhooked, unswitched = struct.unpack_from(
        d.e + "5I", image, 32)
    nodes = struct.unpack_from(d.e + "I", image, 20)[0]
    if unrecorded or truncated:
        print("gprof: warning: the calling-context tree is full (%d nodes): %d calls got no "
              "node of their own, %d samples went to the deepest node kept; raise "
              "CYGNUM_PROFILE_STACKS_NODES" % (nodes, unrecorded, truncated))
    if unhooked:
        print("gprof: warning: %d calls were deeper than a shadow stack keeps; raise "
              "CYGNUM_PROFILE_STACKS_DEPTH" % unhooked)
    if unswitched:
        print("gprof: warning: %d thread switches found no shadow stack free; raise "
              "CYGNUM_PROFILE_STACKS_THREADS" % unswitched)
    if repaired:
        print("gprof: note: %d frames were left without their exit and dropped: a longjmp, "
              "a thread switched without profile_stack_switch, or else a hooked function "
              "inlined with another stack pointer than its caller's (alloca, a "
              "variable-length array): mark it __attribute__((no_instrument_function))"
              % repaired)


def tasks_table(d):
    """The task table (target/src/tasks.c) as [(id, name, samples)] in slot order, with
    tasks_unregistered, or None if the target has none. Read after _state() ran the target
    out of any update; a reset pending zeroes the counts, as the target will."""
    try:
        t = gdb.parse_and_eval("profile_tasks")
        # the running task's samples: those since its last fold (target/src/tasks.c)
        running = (int(gdb.parse_and_eval("profile_state.samples_retired")) +
                   int(gdb.parse_and_eval("profile_state.samples")) +
                   int(gdb.parse_and_eval("profile_frozen.samples")) -
                   int(t["folded_at"])) & 0xFFFFFFFF
    except gdb.error:
        return None
    zero = d.reset_pending
    slots = t["slots"]
    other = int(slots.type.range()[1])      # the "(other tasks)" slot: the last
    current = int(t["current"])
    tasks = []
    for i in list(range(int(t["used"]))) + [other]:
        k = slots[i]
        name = k["name"].string(length=_name_length(k["name"])) if int(k["name"]) else ""
        samples = int(k["samples"]) + (running if i == current else 0)
        tasks.append((int(k["id"]), name, 0 if zero else samples))
    unregistered = 0 if zero else int(t["unregistered"])
    if not unregistered and not tasks[-1][2]:
        tasks.pop()                         # (written only when a task found no slot)
    return tasks, unregistered


def _name_length(ptr):
    """The length of the C string at ptr, at most 255 (gmon.tasks keeps no more)."""
    raw = bytes(gdb.selected_inferior().read_memory(int(ptr), 256))
    return min(raw.find(b"\0") if b"\0" in raw else 255, 255)


def tasks_image(d, table):
    """gmon.tasks (doc/format.md), field by field."""
    tasks, unregistered = table
    e, a = d.e, ("Q" if d.addr_size == 8 else "I")
    out = bytearray(b"gmtk")
    out += struct.pack(e + "II", 1, 0x01020304)
    out += struct.pack(e + "B3x", d.addr_size)
    out += struct.pack(e + "IIII", d.prof_rate, len(tasks), d.counters["samples"], unregistered)
    for ident, name, samples in tasks:
        raw = name.encode("latin-1", "replace")[:255]
        out += struct.pack(e + a + "II", ident, samples, len(raw))
        out += raw + bytes(-len(raw) % 4)
    if sum(k[2] for k in tasks) != d.counters["samples"]:
        print("gprof: warning: gmon.tasks holds %d samples, gmon.out %d"
              % (sum(k[2] for k in tasks), d.counters["samples"]))
    return bytes(out)


def tasks_report(table, d):
    """The per-task table: each task's samples and share of the CPU."""
    tasks, unregistered = table
    total = d.counters["samples"]
    width = max([len("task")] + [len(n or "0x%x" % i) for i, n, _ in tasks])
    print("gprof: %-*s  %10s  %8s  %s" % (width, "task", "samples", "share", "id"))
    for ident, name, samples in tasks:
        print("gprof: %-*s  %10d  %7.2f%%  0x%x" % (width, name or "0x%x" % ident, samples,
                                                   100.0 * samples / total if total else 0.0,
                                                   ident))
    if unregistered:
        print("gprof: warning: %d task switches found no slot in the task table (their "
              "samples are under \"(other tasks)\"); raise CYGNUM_PROFILE_TASKS" % unregistered)


def companion_path(path, suffix):
    """gmon.out -> gmon.SUFFIX (any NAME.out -> NAME.SUFFIX; else NAME.SUFFIX appended)."""
    return (path[:-4] if path.endswith(".out") else path) + "." + suffix


def gprof_report(d, path=None):
    c = d.counters
    sat = sum(1 for v in d.bins if v == d.bin_max)
    if path:
        over = ", ".join("0x%x-0x%x" % (low, low + (n << d.bucket_shift))
                         for low, first, n in d.ranges)
        print("gprof: wrote %s: %d bytes, %d bins of %d bytes over %s, %d arcs, "
              "%d Hz" % (path, len(d.gmon()), d.nbins, d.bucket, over, len(d.arcs),
                         d.prof_rate))
    print("gprof: samples %d, outside the range %d, buckets saturated %d"
          % (c["samples"], c["samples_out_of_range"], sat))
    if d.ovf:
        big = sum(1 for b, _ in d.ovf if d.counts[b] >= 0xFFFF)
        print("gprof: overflow entries %d of %d (buckets of %d samples or more); buckets "
              "past 65535 samples %d (in %d histogram records)"
              % (len(d.ovf), d.ovf_capacity, d.bin_max, big, len(d.hist_records())))
    print("gprof: %s" % overhead_line(c["samples_overhead"], c["samples"]))
    print("gprof: arcs %d of %d, calls dropped (arc table full) %d, calls from outside "
          "the range %d" % (c["arcs_used"], c["arcs_capacity"], c["arcs_dropped"],
                            c["arcs_out_of_range"]))
    if d.frozen_samples is not None:
        print("gprof: note: a transfer (TFTP or profile_write) is in progress; the %d "
              "samples (and their arcs) recorded before it began are in that transfer, not "
              "here" % d.frozen_samples)
    if c["arcs_dropped"]:
        print("gprof: warning: the arc table overflowed; raise "
              "CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE")
    if sat:
        print("gprof: warning: %d buckets saturated; dump more often, sample less often or "
              "raise CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS (or set CYGNUM_PROFILE_HIST_BIN_BYTES "
              "to 2)" % sat)
    if c["samples_out_of_range"]:
        print("gprof: note: %d samples fell outside the profiled range"
              % c["samples_out_of_range"])


def overhead_line(overhead, samples):
    """The profiler-overhead summary, as every extraction path words it."""
    return ("profiler overhead: %.1f%% of samples (%d of %d), not charged to any function"
            % (100.0 * overhead / samples if samples else 0.0, overhead, samples))


def gprof_fetch(path="gmon.out"):
    d = GprofData()
    path = os.path.join(os.getcwd(), path) if not os.path.isabs(path) else path
    with open(path, "wb") as f:
        f.write(d.gmon())
    gprof_report(d, path)
    table = tasks_table(d)
    if table is not None:
        image = tasks_image(d, table)
        with open(companion_path(path, "tasks"), "wb") as f:
            f.write(image)
        print("gprof: wrote %s: %d bytes, %d tasks" % (companion_path(path, "tasks"),
                                                      len(image), len(table[0])))
        tasks_report(table, d)
    stacks = stacks_image(d)
    if stacks is not None:
        with open(companion_path(path, "stacks"), "wb") as f:
            f.write(stacks)
        print("gprof: wrote %s: %d bytes, %d call paths (stack-profiling mode)"
              % (companion_path(path, "stacks"), len(stacks), (len(stacks) - 56) // (12 + 2 * d.addr_size)))
        stacks_report(stacks, d)
    return d


def gprof_reset():
    s = _state()
    if not int(s["running"]):
        raise GprofError("gprof: target-side profiling is off")
    gdb.execute("set var profile_state.reset_pending = 1")
    gdb.execute("set var profile_state.armed_span = 0")
    gdb.execute("set var profile_state.armed_homes = 0")
    gdb.execute("set var profile_state.armed_arcs = (struct profile_arc *)profile_arcs_none")
    print("gprof: counts reset (the target applies it before it records anything more)")
end

define gprof_fetch
  python gprof_fetch()
end
document gprof_fetch
Write the profiling data to gmon.out in gdb's current directory, with the task table
beside it (gmon.tasks; and gmon.stacks in the stack-profiling mode), keeping the counts.
Prints the loss counters and each task's samples and share of the CPU.
end

define gprof_reset
  python gprof_reset()
end
document gprof_reset
Reset the profiling counts. The target applies the reset itself before it records
its next sample or call.
end

define gprof_dump
  python gprof_fetch()
  python gprof_reset()
end
document gprof_dump
Write the profiling data to gmon.out in gdb's current directory (with gmon.tasks and, in
the stack-profiling mode, gmon.stacks), print the per-task table, then reset the counts.
end

define gprof_stats
  python gprof_report(GprofData())
end
document gprof_stats
Print the profiling loss counters (samples, out of range, saturated buckets, arcs) and
the profiler's overhead (samples in its own code, in no bin).
end
