# gdb Python: count instructions by single-stepping (QEMU's gdbstub steps with interrupts
# masked, so nothing else gets in). Loaded by tests/bench/bench-target.
import gdb


def step_until(stop, limit=100000):
    """Single-step until stop(pc) is true; returns the instructions executed."""
    n = 0
    while not stop(int(gdb.parse_and_eval("$pc"))):
        gdb.execute("stepi", to_string=True)
        n += 1
        if n >= limit:
            raise gdb.GdbError("no stop after %d instructions" % limit)
    return n


def mcount_path(fn):
    """Instructions from fn's first instruction to the instruction after its mcount call
    returns (push {lr}; bl __gnu_mcount_nc; the stub; __profile_mcount)."""
    entry = int(gdb.parse_and_eval("(unsigned)&%s" % fn)) & ~1
    gdb.execute("tbreak *0x%x" % entry, to_string=True)
    gdb.execute("continue", to_string=True)
    after = entry + 6  # push {lr} (2 bytes) + bl (4 bytes)
    return step_until(lambda pc: pc == after)


def timer_sample(handler):
    """Instructions of one profile-timer interrupt: the handler from its first instruction
    until execution is back in the interrupted code."""
    entry = int(gdb.parse_and_eval("(unsigned)&%s" % handler)) & ~1
    gdb.execute("tbreak *0x%x" % entry, to_string=True)
    gdb.execute("continue", to_string=True)
    sp = int(gdb.parse_and_eval("$sp"))
    ret = int(gdb.parse_and_eval("*(unsigned *)0x%x" % (sp + 24))) & ~1
    return step_until(lambda pc: pc == ret)
