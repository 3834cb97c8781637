#!/usr/bin/env python3
"""The halting sweep in the stack-profiling mode: wherever gdb halts the target, the
gmon.out and gmon.stacks that gprof_dump writes are one snapshot, and every call and sample
is in exactly one tree.

The firmware (tests/qemu/sweep_stacks.c, -O2, the TFTP configuration with
CYGPKG_PROFILE_STACKS) runs rounds of work with call paths of several depths, a longjmp
over two frames, switches between thread ids and a -pg fast timer handler nesting anywhere;
in each, a gmon.out transfer as the TFTP daemon makes it, delivered (then its kept
gmon.stacks read as the daemon serves it) or abandoned, snapshots taken and abandoned, and
restarts several frames deep (profile_reset, profile_on_ranges, profile_on, profile_off:
the tree compacted while those frames are live). gdb (tests/qemu/sweep_gdb.py, the plain
sweep's) halts at every instruction of the stack hooks, the tree's freeze, thaw,
compaction, clear and kept reads, and the snapshot, reset and restart code around them,
the first time each is reached, and runs gprof_dump there. Then:
  - every instruction of those functions that runs in this firmware is halted at (a
    second boot reaches none of the others);
  - every dump's gmon.stacks holds its gmon.out's samples and overhead, every sample in a
    node (samples = the nodes' + overhead), and so does every tree the firmware delivered
    or discarded;
  - over the dumps, the delivered trees, the discarded ones and what remains: each
    function's calls are the calls the firmware counted, and the samples every sample the
    timer took; gmon.out's arcs and samples add up likewise;
  - per dump, a function's calls in the tree and in gmon.out's arcs differ by at most one:
    mcount counts a call a few instructions before the enter hook does, and a dump halted
    between the two has it in gmon.out and the tree in a later extraction.
A halt inside a snapshot's release is dumped after gdb has run the target out of it (its
merge-back moves the bins and arcs a step at a time, the tree's counts in its last step);
every RELEASE_STRIDE-th instruction of it is swept, and those dumps meet the checks above.
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402
import test_stacks as ts  # noqa: E402
import test_sweep as sw  # noqa: E402

ELF = os.path.join(h.FW_DIR, "sweep_stacks-mode.elf")
OUT = os.path.join(h.OUT_ROOT, "sweep_stacks")
# The stack mode's code (static ones by prefix), and the snapshot, reset and restart code
# that calls it (profile_snapshot_release and merge_back's phases, profile_stop the
# compaction's caller). profile_on_ranges and the bins' and arcs' slow paths are the plain sweep's.
SWEPT = ("__cyg_profile_func_enter", "__cyg_profile_func_exit", "profile_stack_sample",
         "profile_task_switch", "profile_stack_select", "profile_stack_freeze",
         "profile_stack_thaw",
         "profile_stack_forget", "profile_stack_compact", "profile_stack_clear", "child_node",
         "stack_enter", "stack_exit", "enter_other", "exit_other",
         "keep_path", "drop_left_frames", "image_read", "stacks_record",
         "profile_stack_kept_size", "profile_stack_kept_read", "profile_stack_kept_ended",
         "profile_snapshot_take", "step_begin", "profile_task_freeze", "profile_task_thaw",
         "profile_task_clear", "profile_task_forget") + sw.RUN_OUT + (
         "__profile_hit", "hit_miss", "hist_count_slow", "profile_slow_path", "profile_clear",
         "profile_reset", "profile_on", "profile_off", "profile_stop")
CONFIG = {"arm_at": "sweep_armed", "record": ["ssweep_merging"]}
GROUPS = 4      # boots, each halting at a part of the instructions (groups_of)
HIT_PATH = ("__profile_hit", "profile_stack_sample")
# (sweep_stacks.h)
ROUNDS = 40
NESTING = 2     # levels that can be between a call's mcount and its enter hook: main, handler


def in_stacks_c(name, start):
    """image_read and stacks_record: stacks.c's (tasks.c has static functions of those
    names too)."""
    if name.split(".")[0] not in ("image_read", "stacks_record"):
        return True
    p = subprocess.run(["arm-none-eabi-addr2line", "-e", ELF, "0x%x" % start],
                       stdout=subprocess.PIPE, text=True, check=True)
    return "/stacks.c:" in p.stdout


def console_tallies(console):
    """The firmware's counts from its console: {function address: calls}, and for
    'delivered' and 'discarded' {'trees', 'samples', 'overhead', 'mismatched', 'calls':
    {address: calls}}."""
    calls = {int(a, 16): int(n) for a, n in re.findall(r"^ssweep: calls 0x(\w+) (\d+)$",
                                                         console, re.M)}
    tallies = {}
    for what in ("delivered", "discarded"):
        m = re.search(r"^ssweep: %s trees (\d+) samples (\d+) overhead (\d+) mismatched (\d+)$"
                      % what, console, re.M)
        t = dict(zip(("trees", "samples", "overhead", "mismatched"), map(int, m.groups()))) \
            if m else {}
        t["calls"] = {int(a, 16): int(n) for a, n in re.findall(
            r"^ssweep: %s calls 0x(\w+) (\d+)$" % what, console, re.M)}
        tallies[what] = t
    return calls, tallies


def arcs_by_callee(path, name_of):
    """{function: calls} of a gmon.out's arcs (self_pc is just after the callee's mcount)."""
    out = {}
    for _, self_pc, count in h.gmon_records(path)[2]:
        out[name_of(self_pc)] = out.get(name_of(self_pc), 0) + count
    return out


def tree_calls(nodes, name_of):
    out = {}
    for _, self_pc, _, calls, _ in nodes:
        if self_pc:
            out[name_of(self_pc)] = out.get(name_of(self_pc), 0) + calls
    return out


def groups_of(funcs, n):
    """funcs split into n groups of about as many instructions: gprof_dump, run out of a
    masked section, disables and enables again every breakpoint standing, so a boot costs
    its sections times its breakpoints, and n boots of a part each cost less than one."""
    groups = [dict() for _ in range(n)]
    for name, (start, size) in sorted(funcs.items(), key=lambda f: -f[1][1]):
        min(groups, key=lambda g: sum(x[1] for x in g.values()))[name] = (start, size)
    return groups


class Ledger:
    """What the tree owes gmon.out (samples, or one function's calls) from dumps taken
    while an abandoned snapshot was merged back: gmon.out gets the snapshot's bins and arcs
    a step at a time, the tree its counts in the last step (profile_stack_thaw), so a dump
    in between has them in gmon.out and the tree in a later extraction."""

    def __init__(self):
        self.owed = 0

    def merging(self, diff):
        self.owed += diff

    def repay(self, diff):
        """The part of diff (tree - gmon.out) that pays back what is owed; diff's rest."""
        if self.owed and diff and (diff > 0) == (self.owed < 0):
            pay = diff if abs(diff) <= abs(self.owed) else -self.owed
            self.owed += pay
            return diff - pay
        return diff


def check_dumps(r, out, name_of, handler, found):
    """Each dump's pair (what is wrong added to found); returns what one boot's files hold:
    files, tree_samples (+ overhead), in_trees ({function: calls}), merging (dumps)."""
    files = sw.dump_files(out)
    run = dict(files=files, tree_samples=0, in_trees={}, merging=0)
    samples, calls = Ledger(), {}
    for i, path in enumerate(files):
        hdr, nodes = ts.read_stacks(os.path.splitext(path)[0] + ".stacks")
        g = h.gmon_header(path)
        tasks = sw.tasks_samples(os.path.splitext(path)[0] + ".tasks")
        if tasks != (g[2], g[2]):
            found["tasks"].append((os.path.basename(path), g[2], tasks))
        at = r["dumped_at"][i] if i < len(r["dumped_at"]) else None
        merging = at is not None and r["recorded"][i][0]
        where = "%s, halted at 0x%x in %s%s" % (os.path.relpath(path, OUT), at, name_of(at),
                                                 ", merging back" if merging else "") \
            if at is not None else os.path.relpath(path, OUT)
        in_nodes = sum(n[4] for n in nodes)
        diff = in_nodes + hdr["overhead"] - g[2]
        what = "%s: gmon.out %d samples, %d overhead; gmon.stacks %d, %d, in its nodes %d" \
            % (where, g[2], g[3], hdr["samples"], hdr["overhead"], in_nodes)
        if (hdr["samples"], hdr["overhead"]) != (g[2], g[3]):
            found["pairs"].append(what)
        elif merging and diff:
            samples.merging(diff)
            found["merging"].append(what)
            run["merging"] += 1
        elif diff == -1 and name_of(at or 0) in HIT_PATH:
            found["lost"].append(what)
        elif diff and samples.repay(diff) == 0:
            found["merging"].append(what + " (paid back)")
        elif diff:
            found["pairs"].append(what)
        run["tree_samples"] += in_nodes + hdr["overhead"]
        found["repaired"] += hdr["repaired"]
        found["contexts"] |= {n[2] for n in nodes if n[1] == 0}
        found["roots"] |= {name_of(n[1]) for n in nodes if n[0] == 0xFFFFFFFF and n[1]}
        in_tree = tree_calls(nodes, name_of)
        for f, n in in_tree.items():
            run["in_trees"][f] = run["in_trees"].get(f, 0) + n
        # The tree's calls against gmon.out's arcs, function by function (the handler's
        # call site is an exception return: an arc of its own where the HAL records
        # interrupt entries, else in calls not recorded).
        arcs = arcs_by_callee(path, name_of)
        arcs[handler] = arcs.get(handler, 0) + g[4]
        diffs = {}
        for f in (set(in_tree) | set(arcs)) - {"bump"}:
            d = in_tree.get(f, 0) - arcs.get(f, 0)
            ledger = calls.setdefault(f, Ledger())
            if d:
                d = ledger.repay(d)
                if d:
                    diffs[f] = d
        # (gdb ran the target out of the release first: a dump there is bound as any other)
        if merging and (any(abs(d) > 1 for d in diffs.values()) or len(diffs) > 2 * NESTING):
            found["calls_merging"].append(where)
        found["worst"] = max([found["worst"]] + [abs(d) for d in diffs.values()])
        if any(abs(d) > 1 for d in diffs.values()) or len(diffs) > 2 * NESTING:
            found["calls"].append((where, diffs))
    return run


def main():
    t = h.Tap()
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    funcs, run_out = sw.split_run_out(sw.swept_functions(ELF, SWEPT, in_stacks_c), ELF)
    t.ok({"__cyg_profile_func_enter", "__cyg_profile_func_exit", "profile_stack_sample",
          "profile_task_switch", "profile_stack_freeze", "profile_stack_thaw",
          "profile_stack_compact", "profile_stack_clear"} <= set(funcs),
         "the swept functions are in the firmware", sorted(funcs))
    name_of = ts.namer(ELF)
    found = dict(pairs=[], lost=[], merging=[], calls=[], calls_merging=[], tasks=[], worst=0,
                 repaired=0, contexts=set(), roots=set())
    runs, failed, fw_calls, handler = [], [], {}, "?"
    # A thread's new slot (profile_stack_select) is taken in a masked section that a dump
    # runs to its end, so each boot halts at one instruction of it per new slot: every boot
    # sweeps it.
    groups = groups_of({k: v for k, v in funcs.items() if k != "profile_stack_select"}, GROUPS)
    for g in groups:
        g.update({k: v for k, v in funcs.items() if k == "profile_stack_select"})
    for n, group in enumerate(groups):
        out = os.path.join(OUT, "part%d" % n)
        os.makedirs(out)
        where = sw.swept_instructions(group, ELF)
        release = run_out[n::GROUPS * sw.RELEASE_STRIDE]
        r = sw.run_gdb(dict(CONFIG, addresses=sorted(set(where) | set(release)), out=out),
                       "sweep", ELF, out)
        console = open(os.path.join(out, "sweep-qemu.log")).read()
        if r is None or "FIRMWARE FAILED" in console or "ssweep: discarded trees" not in console:
            failed.append((out, console[-1500:]))
            continue
        fw, tallies = console_tallies(console)
        fw_calls = {name_of(a): c for a, c in fw.items()}
        m = re.search(r"^ssweep: handler 0x(\w+)$", console, re.M)
        handler = name_of(int(m.group(1), 16)) if m else "?"
        runs.append((r, check_dumps(r, out, name_of, handler, found), tallies, fw_calls))
    t.ok(failed == [] and runs, "the sweep ran to its end (%d boots)" % GROUPS, failed[:1])
    if failed or not runs:
        return t.done()
    merged = {"hits": sum((x[0]["hits"] for x in runs), []), "adjusted": {},
              "dumps": sum(x[0]["dumps"] for x in runs), "off": sum(x[0]["off"] for x in runs)}
    for x in runs:
        merged["adjusted"].update(x[0]["adjusted"])
    t.ok(all(x[0]["refused"] == [] for x in runs), "gprof_fetch/gprof_reset worked at every "
         "halt", [x[0]["refused"][:5] for x in runs])
    merged["hits"] = sw.check_run_out(t, merged["hits"], run_out)
    sw.check_coverage(t, funcs, sw.swept_instructions(funcs, ELF), merged, CONFIG, ELF, OUT)

    # Every dump's pair one snapshot.
    t.ok(found["pairs"] == [], "every dump's gmon.stacks holds its gmon.out's samples and "
         "overhead, every sample in a node (%d pairs)"
         % sum(len(x[1]["files"]) for x in runs), "\n".join(found["pairs"][:20]))
    t.ok(found["tasks"] == [], "every dump's gmon.tasks holds its gmon.out's samples, every one "
         "in a task (the threads switch through profile_task_switch)", found["tasks"][:10])
    t.ok(found["lost"] == [], "no sample lost from the trees where gdb halts in the "
         "sample's path (gdb/gprof.gdb steps out of profile_stack_sample as out of "
         "__profile_hit)", "\n".join(found["lost"][:20]))
    for n, (r, run, tallies, fw) in enumerate(runs):
        m = tallies["discarded"].get("mismatched", 0) + tallies["delivered"].get("mismatched", 0)
        if m and run["merging"]:
            found["merging"].append("part%d: %d trees the firmware delivered or discarded "
                                    "(paid back)" % (n, m))
    t.ok(found["merging"] == [], "dumps while an abandoned snapshot is merged back: each "
         "gmon.stacks holds its gmon.out's samples (gdb runs the target out of the release: "
         "its merge-back moves the bins a step at a time and the tree at its end)",
         "\n".join(found["merging"][:20]))
    t.ok(found["calls"] == [], "per dump, each function's calls in the tree and in gmon.out's "
         "arcs differ by at most 1 (a call between its mcount and its enter hook), in at most "
         "%d functions (largest difference: %d)"
         % (2 * NESTING, found["worst"]), found["calls"][:10])
    t.ok(found["calls_merging"] == [], "dumps while an abandoned snapshot is merged back: "
         "each function's calls in the tree are gmon.out's (within the bound above)",
         "\n".join(found["calls_merging"][:20]))

    # Totals exact, boot by boot.
    totals = []
    for r, run, tallies, fw in runs:
        delivered, discarded = tallies["delivered"], tallies["discarded"]
        in_trees = run["in_trees"]
        for what in (delivered, discarded):
            for a, c in what["calls"].items():
                in_trees[name_of(a)] = in_trees.get(name_of(a), 0) + c
        g = sw.gmon_totals(run["files"])
        d = {k: r["delivered"][k] + r["discarded"][k] for k in r["delivered"]}
        totals.append(dict(
            mismatched=(delivered.get("mismatched"), discarded.get("mismatched")),
            merging=run["merging"],
            delivered=delivered.get("trees"),
            calls=in_trees == fw, calls_detail=(in_trees, fw),
            tree_samples=run["tree_samples"] + sum(x["samples"] + x["overhead"]
                                                   for x in (delivered, discarded)),
            taken=r["samples_taken"],
            gmon_bad=g["bad"] + ([d] if d["samples"] != d["in_bins"] + d["out_of_range"] +
                                 d["overhead"] else []),
            gmon_samples=g["samples"] + d["samples"],
            gmon_calls=g["calls"] + g["not_recorded"] + d["calls"] + d["not_recorded"],
            fw_calls=r["calls"] - fw.get("bump", 0), outstanding=r["frozen_outstanding"]))
    t.ok(all(x["mismatched"] == (0, 0) for x in totals), "every tree "
         "delivered (the kept gmon.stacks, read as the daemon serves it) and discarded holds "
         "its gmon.out's samples, every sample in a node",
         [x["mismatched"] for x in totals])
    t.ok(all(x["delivered"] == ROUNDS // 2 for x in totals), "%d gmon.out transfers "
         "delivered in each boot, each with its kept gmon.stacks" % (ROUNDS // 2),
         [x["delivered"] for x in totals])
    t.ok(all(x["calls"] for x in totals), "each function's calls over the dumps' trees, the "
         "delivered, the discarded and what remains = the calls the firmware counted",
         [x["calls_detail"] for x in totals if not x["calls"]][:1])
    t.ok(all(x["tree_samples"] == x["taken"] for x in totals), "the trees' samples + overhead "
         "over the dumps, the delivered, the discarded and what remains = every sample the "
         "timer took (%d)" % sum(x["taken"] for x in totals),
         [(x["tree_samples"], x["taken"]) for x in totals])
    t.ok(all(x["gmon_bad"] == [] for x in totals), "every gmon.out's header agrees with its "
         "bins", [x["gmon_bad"][:3] for x in totals])
    t.ok(all(x["gmon_samples"] == x["taken"] for x in totals), "gmon.out's samples: dumps + "
         "delivered + discarded + remaining = every sample",
         [(x["gmon_samples"], x["taken"]) for x in totals])
    t.ok(all(x["gmon_calls"] == x["fw_calls"] for x in totals), "gmon.out's calls: dumps + "
         "delivered + discarded + remaining = every call with an mcount of its own (bump, "
         "inlined, has none)", [(x["gmon_calls"], x["fw_calls"]) for x in totals])
    t.ok(all(x["outstanding"] == 0 for x in totals), "no snapshot outstanding at the end")

    # The shapes were there.
    t.ok(found["repaired"] > 0, "longjmp's frames were repaired (%d)" % found["repaired"])
    t.ok(len(found["contexts"]) >= 3, "threads: %d context ids in the trees"
         % len(found["contexts"]))
    t.ok(handler in found["roots"], "the fast timer's handler (%s) is a root of its own"
         % handler, sorted(found["roots"]))
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
