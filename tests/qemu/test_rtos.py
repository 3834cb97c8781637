#!/usr/bin/env python3
"""Per-task time and the stack mode under a preemptive kernel: tests/qemu/rtos_kernel.c, a
kernel in miniature with the mechanisms of FreeRTOS's GCC/ARM_CM3 port (SVC start, naked
PendSV context switch, SysTick time slicing, two priorities over an idle task, a blocking
queue, critical sections by BASEPRI), its switch hook calling profile_task_switch(TCB,
name); tests/qemu/rtos.c, its tasks, and a nested fast-timer interrupt. -O2, -pg.

  - plain mode (four tasks: a sender and a receiver through the queue, a worker, and a
    ticker woken at every tick for the same burst, at a profile timer period that divides
    the tick): gmon.tasks names every task, its samples add up to gmon.out's, and each
    task's share of the CPU is within SHARE_BOUND points of the truth (or three times its
    sampling error, where fewer samples make that larger): which task ran at
    each instruction QEMU executed (its exec log, single-stepping, from profile_on to the
    end; the task by the kernel's switch markers rtos_mark_N; the profile timer's
    interrupt, which no sample sees, left out); GNU gprof's call counts exact per task;
  - stack mode: the port's file excluded from the hooks (the FreeRTOS kit's way),
    the firmware runs through; every task's calls exact under its own context node, which
    gmon.tasks names; the nested interrupt's calls under its handler; nothing repaired;
    the scheduler's calls a root of their own, under no task (it runs at handler level);
  - both modes, on hard-float cores: the worker's and the receiver's values kept in VFP
    registers across their time-sliced loops are never wrong (the switch saves VFP state);
  - the build refuses the naked handlers hooked: the port compiled as the stack mode's
    build compiles it, without the exclusion, and tools/check-hooks (which the link runs
    in that mode) names PendSV_Handler and SVC_Handler (the reference board).
ARMv7-M (mps2-an385), ARMv6-M (microbit), RISC-V (riscv32-virt, riscv64-virt:
tests/qemu/rtos_port_riscv.c, an ecall yield in its own trap handler, the machine-timer tick
shared through the HAL), Cortex-A9 (vexpress-a9, vexpress-a9-thumb:
tests/qemu/rtos_port_armv7a.c, as FreeRTOS's GCC/ARM_CA9 port: the A9 private timer's tick,
the switch made by the HAL's IRQ entry on its way out, an SVC yield); the board is a
parameter (BOARD, PROFILE_TB).
"""
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402
from test_stacks import namer, paths, read_stacks, symbols  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
N = {}
with open(os.path.join(HERE, "rtos.h")) as f:
    for m in re.finditer(r"#define (\w+)\s+(\d+)", f.read()):
        N[m.group(1)] = int(m.group(2))
OUT = os.path.join(h.OUT_ROOT, "rtos")
SHARE_BOUND = 1.0
OBJDUMP = re.sub(r"gprof$", "objdump", h.GPROF)
STACKS_CFG = ["CYGPKG_PROFILE_STACKS=1", "CYGNUM_PROFILE_STACKS_THREADS=6"]
# The tasks' own calls (rtos.c): caller -> callee, how many.
CALLS = {("task_sender", "produce"): N["ITEMS"], ("task_receiver", "consume"): N["ITEMS"],
         ("task_worker", "crunch"): N["CRUNCHES"], ("task_ticker", "burst"): N["TICKS_RUN"],
         ("task_sender", "rtos_queue_send"): N["ITEMS"],
         ("task_receiver", "rtos_queue_receive"): N["ITEMS"]}
TASK_OF = {"task_sender": "sender", "task_receiver": "receiver", "task_worker": "worker",
           "task_ticker": "ticker"}


def read_tasks(path):
    """(header dict, [(id, name, samples)]) of a gmon.tasks (doc/format.md)."""
    b = open(path, "rb").read()
    if b[:4] != b"gmtk":
        raise ValueError("magic %r" % b[:4])
    e = "<" if b[8:12] == b"\x04\x03\x02\x01" else ">"
    a = b[12]
    hdr = dict(zip(("version",), struct.unpack_from(e + "I", b, 4)))
    hdr.update(zip(("rate", "n", "samples", "unregistered"), struct.unpack_from(e + "4I", b, 16)))
    hdr["addr_bytes"] = a
    pos, tasks = 32, []
    for _ in range(hdr["n"]):
        ident = struct.unpack_from(e + {4: "I", 8: "Q"}[a], b, pos)[0]
        samples, length = struct.unpack_from(e + "II", b, pos + a)
        name = b[pos + a + 8:pos + a + 8 + length].decode("latin-1")
        tasks.append((ident, name, samples))
        pos += a + 8 + (length + 3) // 4 * 4
    if pos != len(b):
        raise ValueError("%d bytes, records end at %d" % (len(b), pos))
    return hdr, tasks


class Truth(threading.Thread):
    """Instructions per task from QEMU's exec log: "main" until the first marker, then the
    task whose marker ran last. On Cortex-M the profile timer's interrupt is left out (no
    sample can see it). With the RISC-V port's trap handler (rtos_trap .. rtos_trap_mret),
    whose every trap runs with interrupts off, a sample due in a trap is taken at the first
    instruction after it: its instructions are the task's it returns to. The Cortex-A9
    port's switch (SVC_Handler .. rtos_switch_return: a yield's SVC, or the IRQ entry's way
    out) runs with IRQs masked too, and is counted the same way."""

    def __init__(self, fifo, elf):
        super().__init__(daemon=True)
        self.fifo = fifo
        syms = symbols(elf)
        ends = [a for a, _ in syms[1:]] + [1 << 32]
        isr = h.board_var("BOARD_PROFILE_ISR")
        self.isr_entry = [a for a, n in syms if n == isr][0]
        self.sample_path = [(a, e) for (a, n), e in zip(syms, ends)
                            if n == isr or n.split(".")[0] in h.SAMPLE_PATH]
        self.marks = {a: int(n[len("rtos_mark_"):]) for a, n in syms if n.startswith("rtos_mark_")}
        self.counts, self.isr, self.span = {}, 0, None
        entry = [a for a, n in syms if n == "rtos_trap"]
        self.mret = [a for a, n in syms if n == "rtos_trap_mret"]
        if entry and self.mret:     # (the RISC-V port's trap handler)
            self.isr_entry, self.mret = None, self.mret[0]
            self.span = (entry[0], self.mret)
        rfe = [a for a, n in syms if n == "rtos_switch_return"]
        if rfe:                     # (the Cortex-A9 port's switch)
            self.span = ([a for a, n in syms if n == "SVC_Handler"][0], rfe[0])

    def in_sample_path(self, pc):
        return any(lo <= pc < hi for lo, hi in self.sample_path)

    def run(self):
        task, counts, trap = "main", self.counts, None
        for pc, in_isr in h.ExecTrace(self.fifo, self.isr_entry, self.in_sample_path):
            if in_isr:
                self.isr += 1
                continue
            if pc in self.marks:
                task = self.marks[pc]
            if self.span and pc == self.span[0]:
                trap = 0
            if trap is not None:
                trap += 1
                self.isr += 1
                if pc == self.span[1]:
                    counts[task] = counts.get(task, 0) + trap
                    trap = None
                continue
            counts[task] = counts.get(task, 0) + 1


def run(elf, out_dir, trace, ending_dir=None):
    """Boots elf; from its first task's creation (profile_on is done) to rtos_done, traced if
    trace; fetches gmon.out there. With ending_dir, first fetches into it where the first
    task to end is halted inside profile_task_end, between its row's new id and its stack
    context's (profile_stack_end). Returns (gdb output, {marker index: TCB address},
    Truth)."""
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    truth, cmds = None, ["break rtos_task_create", "continue", "delete"]
    if ending_dir:
        shutil.rmtree(ending_dir, ignore_errors=True)
        os.makedirs(ending_dir)
        cmds += ["break profile_stack_end", "continue", "cd " + ending_dir, "gprof_fetch",
                 "delete"]
    if trace:
        fifo = os.path.join(out_dir, "trace.fifo")
        os.mkfifo(fifo)
        truth = Truth(fifo, elf)
        truth.start()
        cmds += ["monitor logfile " + fifo, "monitor singlestep on", "monitor log exec,nochain"]
    cmds += ["break rtos_done", "continue"]
    if trace:
        cmds += ["monitor log none", "monitor singlestep off", "monitor logfile /dev/null"]
    cmds += ["cd " + out_dir, "gprof_fetch"]
    cmds += ["printf \"tcb %%d 0x%%x %%s\\n\", %d, &tcbs[%d], tcbs[%d].name" % (i, i, i)
             for i in range(N["TASKS_MAX"])]
    cmds += ["printf \"fast_calls %u received %u ticks %u\\n\", fast_calls, received, rtos_ticks",
             "printf \"fp_checks %u fp_errors %u\\n\", fp_checks[0] + fp_checks[1], "
             "fp_errors[0] + fp_errors[1]", "kill"]
    with h.Qemu(elf, os.path.join(out_dir, "qemu.log")) as q:
        rc, out = h.gdb(elf, q.port, cmds, timeout=600)
    with open(os.path.join(out_dir, "gdb.log"), "w") as f:
        f.write(out)
    if truth:
        truth.join(timeout=120)
        os.remove(fifo)
    tcbs = {int(m.group(1)): m.group(3) for m in re.finditer(r"^tcb (\d+) (0x\w+) (\S+)$", out, re.M)}
    m = re.search(r"^fast_calls (\d+) received (\d+) ticks (\d+)$", out, re.M)
    return out, tcbs, truth, tuple(int(x) for x in m.groups()) if m else (None, None, None)


def unnamed_contexts(stacks_path, tasks):
    """The context ids of a gmon.stacks (its nodes with no function) that no row of tasks
    (read_tasks's) has."""
    ids = {ident for ident, _, _ in tasks}
    _, nodes = read_stacks(stacks_path)
    return sorted({"%x" % f for _, s, f, _, _ in nodes if not s and f not in ids})


def check_fp(t, out, what):
    """On hard-float cores the worker's and the receiver's VFP registers, live across their
    loops, survived every switch."""
    m = re.search(r"^fp_checks (\d+) fp_errors (\d+)$", out, re.M)
    checks, errors = (int(m.group(1)), int(m.group(2))) if m else (None, None)
    desc = "%s: the tasks' VFP registers kept across every switch" % what
    if not m and 'No symbol "fp_checks"' in out:
        return t.skip(desc, "no FPU on this core (no check built)")
    t.eq((checks, errors), (N["ITEMS"] + N["CRUNCHES"], 0), desc + " (checks, wrong)")


def task_shares(hdr, tasks, tcbs, truth):
    """(instructions traced, samples, {task: (sampled %, true %)}). The trace's tasks by
    their kernel index, named as the kernel names them: the tasks that exited ended
    (profile_task_end), and their rows in gmon.tasks have ids no task has."""
    true = {tcbs.get(k, "?%s" % k) if k != "main" else "main": v
            for k, v in truth.counts.items()}
    total, samples = sum(true.values()), hdr["samples"]
    return total, samples, {n: (100.0 * s / samples, 100.0 * true.get(n, 0) / total)
                            for _, n, s in tasks}


def shares_text(shares):
    return ", ".join("%s %.2f%% (true %.2f%%)" % (n, a, b) for n, (a, b) in shares.items())


def check_tasks_file(t, out_dir, what, out):
    """gmon.tasks beside gmon.out: its samples are gmon.out's; {name: samples}."""
    path = os.path.join(out_dir, "gmon.tasks")
    if not t.ok(os.path.exists(path), "%s: gmon.tasks beside gmon.out" % what, out[-2000:]):
        return None, None
    hdr, tasks = read_tasks(path)
    gmon_samples = h.gmon_header(os.path.join(out_dir, "gmon.out"))[2]
    names = [n for _, n, _ in tasks]
    t.eq(names, ["main", "ticker", "sender", "receiver", "worker", "idle"],
         "%s: every task by its name, in the order they were switched in first" % what)
    t.eq((hdr["version"], hdr["samples"], sum(s for _, _, s in tasks), hdr["unregistered"]),
         (1, gmon_samples, gmon_samples, 0),
         "%s: the tasks' samples add up to gmon.out's" % what)
    ones = (1 << 8 * hdr["addr_bytes"]) - 1
    ended = sorted(ones - i for i, n, _ in tasks if n in ("ticker", "sender", "receiver", "worker"))
    t.eq(ended, [1, 2, 3, 4], "%s: the tasks that exited ended (profile_task_end): ids all-ones "
         "less 1 to 4, names kept" % what)
    t.ok(re.search(r"gprof: task +samples +share", out) is not None,
         "%s: gprof_fetch prints the per-task table" % what, out[-2000:])
    return hdr, tasks


def main():
    t = h.Tap()

    # ---- plain mode: shares against the trace, exact calls ----
    elf = os.path.join(h.FW_DIR, "rtos.elf")
    out_dir = os.path.join(OUT, "plain")
    out, tcbs, truth, (fast, received, ticks) = run(elf, out_dir, True)
    t.ok(received == N["ITEMS"], "plain: the kernel ran its tasks to the end", out[-1500:])
    check_fp(t, out, "plain")
    hdr, tasks = check_tasks_file(t, out_dir, "plain", out)
    if tasks and truth:
        total, samples, shares = task_shares(hdr, tasks, tcbs, truth)
        t.ok(total > 100000 and samples > 2000, "plain: %d instructions traced (%d in the profile "
             "timer's interrupt), %d samples" % (total, truth.isr, samples))
        # Task switches follow no period: a share carries sampling error, sqrt(p(1-p)/n),
        # which at a small board's few thousand samples is over a third of a point.
        bound = {n: max(SHARE_BOUND, 3 * 100 * math.sqrt(b / 100 * (1 - b / 100) / samples))
                 for n, (a, b) in shares.items()}
        t.ok(all(abs(a - b) <= bound[n] for n, (a, b) in shares.items()),
             "plain: each task's share within %.1f points of the trace's, or three times its "
             "sampling error if more (%d samples): %s" % (SHARE_BOUND, samples,
                                                          shares_text(shares)))
        if truth.mret:
            # RISC-V: the receiver yields in its critical section after a copy that a sample
            # often comes due in; taken after the switch, those went to the sender (the
            # receiver 1.4 to 1.9 points under the trace, within three sampling errors):
            # hal_mtimer_take_due_sample counts them for the receiver before it.
            a, b = shares.get("receiver", (0, 100))
            t.ok(abs(a - b) <= SHARE_BOUND, "plain: the task that yields in its critical "
                 "section within %.1f points (a sample due there is its own): receiver %.2f%% "
                 "(true %.2f%%)" % (SHARE_BOUND, a, b))
    rc, text, err = h.gprof(elf, os.path.join(out_dir, "gmon.out"), "-b", "-q")
    arcs = h.call_graph(text)
    t.eq({k: arcs.get(k) for k in CALLS}, CALLS, "plain: GNU gprof's calls exact, each task's")
    # The handler's call of fast_work: an arc from the handler, or, where GCC makes it a tail
    # call (ARMv7-M at -O2), from the interrupt entry (mcount's caller is the exception's
    # return value), which gmon.out records as such; the handlers' own entries too (on the
    # Cortex-A9, arcs from the HAL's dispatch, armv7a_irq_dispatch).
    name_of = namer(elf)
    hdr, _, raw = h.gmon_records(os.path.join(out_dir, "gmon.out"))
    into = sum(c for f, s, c in raw if name_of(s) == "fast_work")
    entries = sum(c for f, s, c in raw if f >= 0xFFFFFF00 or name_of(f) == "armv7a_irq_dispatch")
    if truth and truth.mret:
        # RISC-V: the HAL's code, outside the range, calls the handler and the tick: their
        # entries, and the handler's call of fast_work if a tail call, are calls from outside
        # the range.
        t.eq(into + hdr[4], 2 * fast + ticks, "plain: the interrupt's calls exact: the "
             "handler's entries, fast_work's calls (arcs, or from outside the range), the "
             "tick's entries (2 x %s + %s)" % (fast, ticks))
    else:
        t.ok(into == fast and entries >= fast and hdr[4] == 0,
             "plain: the nested interrupt's calls exact (%d), the interrupt entries recorded "
             "as such (%d), no call unrecorded (%d)" % (into, entries, hdr[4]),
             "fast_calls %s" % fast)

    # ---- stack mode ----
    elf = os.path.join(h.FW_DIR, "rtos-mode.elf")
    out_dir = os.path.join(OUT, "stacks")
    # (a fetch where a task is ending: gdb's script is every board's, so the reference
    # board's run makes it)
    ending_dir = os.path.join(OUT, "stacks-ending") if h.BOARD == "mps2-an385" else None
    out, tcbs, _, (fast, received, ticks) = run(elf, out_dir, False, ending_dir)
    t.ok(received == N["ITEMS"],
         "stack mode: the port's switch (excluded from the hooks) survives",
         out[-1500:])
    check_fp(t, out, "stack mode")
    hdr, tasks = check_tasks_file(t, out_dir, "stack mode", out)
    path = os.path.join(out_dir, "gmon.stacks")
    if tasks and t.ok(os.path.exists(path), "stack mode: gmon.stacks beside gmon.out"):
        shdr, nodes = read_stacks(path)
        name_of = namer(elf)
        name_of_id = {"[ctx %x]" % ident: name for ident, name, _ in tasks}
        p = {}
        for k, (c, s, i) in paths(nodes, name_of).items():
            parts = k.split(";")
            parts[0] = name_of_id.get(parts[0], parts[0])
            p[";".join(parts)] = c
        want = {"%s;%s;%s" % (TASK_OF[a], a, b): n for (a, b), n in CALLS.items()}
        want["(fast timer handler);fast_work"] = fast
        got = {k: p.get(k) for k in want}
        got["(fast timer handler);fast_work"] = sum(
            c for k, c in p.items() if re.fullmatch(r"\w+_IRQHandler;fast_work", k))
        t.eq(got, want, "stack mode: each task's calls exact under its context, named by "
             "gmon.tasks; the nested interrupt's under its handler")
        t.eq((shdr["repaired"], shdr["switches_lost"], shdr["truncated"]), (0, 0, 0),
             "stack mode: no frame repaired, every task had a shadow stack, nothing truncated")
        t.eq(unnamed_contexts(path, tasks), [],
             "stack mode: every context of gmon.stacks is a task gmon.tasks names")
        if ending_dir:
            # gdb halted inside profile_task_end: the dump must not show the task's row
            # renamed and its context not (gdb runs the target out of it first)
            mid = os.path.join(ending_dir, "gmon.stacks")
            mid_tasks = os.path.join(ending_dir, "gmon.tasks")
            left = unnamed_contexts(mid, read_tasks(mid_tasks)[1]) \
                if os.path.exists(mid) and os.path.exists(mid_tasks) else None
            t.eq(left, [], "stack mode: a fetch while a task ends (halted in "
                 "profile_stack_end): every context of its gmon.stacks is a task its "
                 "gmon.tasks names")
        # The scheduler runs at handler level (a PendSV; a trap or switch the port counts in
        # the HAL's depth): a root of its own, on no task's shadow stack.
        sched = {k: c for k, c in p.items() if "rtos_switch_context" in k.split(";")}
        t.ok(sched and all(k.split(";")[0] == "rtos_switch_context" for k in sched),
             "stack mode: the scheduler's calls (%d) under no task, a root of its own"
             % sum(c for k, c in sched.items() if k == "rtos_switch_context"),
             "\n".join("%s %d" % kv for kv in sorted(sched.items())[:20]))

    # ---- the build refuses the naked handlers hooked (the reference board's build) ----
    if h.BOARD != "mps2-an385":
        return t.done()
    cfg = subprocess.run(["make", "--no-print-directory", "-s"] + STACKS_CFG + ["config-dir"],
                         cwd=h.ROOT, stdout=subprocess.PIPE, text=True).stdout.strip()
    obj = os.path.join(cfg, "fw", "rtos", "pg", "tests", "qemu", "rtos_port_cortexm.c.o")
    dry = subprocess.run(["make", "--no-print-directory", "-n", "-W", "tests/qemu/rtos_port_cortexm.c"]
                         + STACKS_CFG + [obj], cwd=h.ROOT, stdout=subprocess.PIPE, text=True).stdout
    cc = [ln for ln in dry.splitlines() if " -c tests/qemu/rtos_port_cortexm.c " in ln]
    if t.ok(len(cc) == 1 and "-finstrument-functions " in cc[0] + " ",
            "the stack mode's compile command of the kernel's port", dry[-1500:]):
        hooked = os.path.join(OUT, "rtos_port-hooked.o")
        cmd = re.sub(r"-finstrument-functions-exclude-file-list=\S+", "", cc[0])
        cmd = re.sub(r" -o \S+", " -o " + hooked, cmd).replace(" -MMD -MP", "")
        p = subprocess.run(cmd, shell=True, cwd=h.ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        r = subprocess.run([os.path.join(h.ROOT, "tools", "check-hooks"), OBJDUMP, hooked],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        named = sorted(set(re.findall(r"naked function '(\w+)' is hooked", r.stdout)))
        t.eq((p.returncode, r.returncode, named), (0, 1, ["PendSV_Handler", "SVC_Handler"]),
             "without the exclusion, the check refuses the naked handlers by name")
        r = subprocess.run([os.path.join(h.ROOT, "tools", "check-hooks"), OBJDUMP, elf],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        t.ok(r.returncode == 0, "with it, the firmware passes the check", r.stdout)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
