#!/usr/bin/env python3
"""Stack-profiling mode with threads: tests/qemu/threads.c, two threads on their
own stacks switched by PendSV about every 37 us anywhere in their calls, the scheduler
calling profile_stack_switch() as an RTOS's switch hook would (reference board, ARMv7-M).

  - each thread's calls are on its own shadow stack, under a context node of its id:
    [ctx a1];thread_a;a_outer;a_inner and [ctx b2];thread_b;b_outer;b_inner, with the
    exact calls (40 and 400 each), no frame repaired, every sample in exactly one node;
  - the control: the same firmware with the hook left out (gdb clears switch_hook) does
    not give those paths: the hook is what keeps them apart.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402
from test_stacks import check_file, namer, paths, OUT as STACKS_OUT  # noqa: E402

N = {}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "threads.h")) as f:
    for m in re.finditer(r"#define (\w+)\s+(0x[0-9A-Fa-f]+|\d+)", f.read()):
        N[m.group(1)] = int(m.group(2), 0)
ELF = os.path.join(h.FW_DIR, "threads-mode.elf")
OUT = STACKS_OUT + "-threads"


def run(out_dir, hook):
    os.makedirs(out_dir, exist_ok=True)
    with h.Qemu(ELF, os.path.join(out_dir, "qemu.log")) as q:
        rc, out = h.gdb(ELF, q.port, [
            "break main", "continue", "delete",     # (.data is copied by the startup)
            "set var switch_hook = %d" % hook, "break phase_done", "continue",
            "cd " + out_dir, "gprof_fetch", "kill"], timeout=300)
    return open(os.path.join(out_dir, "qemu.log")).read(), out


def main():
    t = h.Tap()
    name_of = namer(ELF)

    con, out = run(OUT, 1)
    m = re.search(r"threads: done, (\d+) switches", con)
    t.ok(m is not None and int(m.group(1)) > 100, "the threads ran, switched %s times"
         % (m.group(1) if m else "?"), con[-1500:] + out[-1500:])
    a, b = "[ctx %x]" % N["THREAD_A"], "[ctx %x]" % N["THREAD_B"]
    want = {a + ";thread_a": 1, a + ";thread_a;a_outer": N["OUTER_REPS"],
            a + ";thread_a;a_outer;a_inner": N["OUTER_REPS"] * N["INNER_REPS"],
            b + ";thread_b": 1, b + ";thread_b;b_outer": N["OUTER_REPS"],
            b + ";thread_b;b_outer;b_inner": N["OUTER_REPS"] * N["INNER_REPS"]}
    r = check_file(t, OUT, "gmon", "two threads")
    if r:
        hdr, nodes = r
        p = paths(nodes, name_of)
        got = {k: c for k, (c, s, i) in p.items() if c and k != "[ctx 0];main"}
        t.eq(got, want, "each thread's calls under its own context, exact")
        t.eq((hdr["repaired"], hdr["switches_lost"]), (0, 0),
             "no frame repaired, every thread had a shadow stack")
        t.ok(p.get(b + ";thread_b;b_outer;b_inner", (0, 0))[1] > 0 and
             p.get(a + ";thread_a;a_outer;a_inner", (0, 0))[1] > 0,
             "both threads' innermost functions have samples")

    con, out = run(OUT + "-nohook", 0)
    r = check_file(t, OUT + "-nohook", "gmon", "control, no switch hook")
    if r:
        hdr, nodes = r
        p = paths(nodes, name_of)
        got = {k: c for k, (c, s, i) in p.items() if c and k != "[ctx 0];main"}
        t.ok(got != want, "control: without profile_stack_switch the threads' calls mix "
             "(%d paths, %d frames repaired)" % (len(got), hdr["repaired"]))
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
