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


def _function_bounds(pc):
    """[start, end) of the function that holds pc, from the debug information."""
    blk = gdb.block_for_pc(pc)
    while blk is not None and blk.function is None:
        blk = blk.superblock
    if blk is None:
        raise gdb.GdbError("no function at 0x%x" % pc)
    return blk.start, blk.end


def mcount_path(fn):
    """Instructions from fn's first instruction until execution is back in fn after its
    mcount call: the compiler's instructions (ARM: push {lr}; bl; RISC-V: the prologue's
    mv a0,ra; call), the stub and __profile_mcount."""
    entry = int(gdb.parse_and_eval("(unsigned long)&%s" % fn)) & ~1
    lo, hi = _function_bounds(entry)
    gdb.execute("tbreak *0x%x" % entry, to_string=True)
    gdb.execute("continue", to_string=True)
    state = {"left": False}

    def back_in_fn(pc):
        inside = lo <= (pc & ~1) < hi
        if not inside:
            state["left"] = True
        return inside and state["left"]
    n = 0
    while True:
        gdb.execute("stepi", to_string=True)
        n += 1
        if back_in_fn(int(gdb.parse_and_eval("$pc"))):
            return n
        if n >= 100000:
            raise gdb.GdbError("mcount path: no return into %s" % fn)


# Where an interrupted PC is at the first instruction of the profile timer's interrupt
# handler, per architecture (the HAL's exception model).
def _interrupted_pc_cortexm():
    # The exception frame's stacked PC (the bench runs on the main stack, MSP).
    sp = int(gdb.parse_and_eval("$sp"))
    return int(gdb.parse_and_eval("*(unsigned *)0x%x" % (sp + 24))) & ~1


def _interrupted_pc_armv7a():
    # IRQ/FIQ entry: the banked lr holds the interrupted instruction's address + 4.
    return (int(gdb.parse_and_eval("$lr")) - 4) & ~1


def _interrupted_pc_riscv():
    # (gdb gives RV32 CSRs a signed type: as an unsigned address)
    return int(gdb.parse_and_eval("(unsigned long)$mepc"))


INTERRUPTED_PC = {
    "armv6m": _interrupted_pc_cortexm,
    "armv7m": _interrupted_pc_cortexm,
    "armv7a": _interrupted_pc_armv7a,
    "riscv": _interrupted_pc_riscv,
}


def _at_mret():
    return gdb.execute("x/i $pc", to_string=True).split(":", 1)[-1].split()[:1] == ["mret"]


def timer_sample(handler, arch="armv7m", within=None):
    """Instructions of one profile-timer interrupt: from the handler's first instruction
    (the board's BOARD_PROFILE_ISR) until execution is back in the interrupted code. With
    within (a function's name), of the first interrupt that lands in that function (one
    pending when the target stopped lands where it stopped)."""
    entry = int(gdb.parse_and_eval("(unsigned long)&%s" % handler)) & ~1
    bounds = None
    if within:
        bounds = _function_bounds(int(gdb.parse_and_eval("(unsigned long)&%s" % within)) & ~1)
    # The script's own breakpoints are off meanwhile: a stop at one is no interrupt (an
    # interrupt taken at a breakpoint's instruction returns onto it, and on RISC-V the loop
    # then met it again and again).
    gdb.execute("disable", to_string=True)
    try:
        for _ in range(5000):
            gdb.execute("tbreak *0x%x" % entry, to_string=True)
            gdb.execute("continue", to_string=True)
            if int(gdb.parse_and_eval("$pc")) & ~1 != entry:
                continue
            ret = INTERRUPTED_PC[arch]()
            if bounds is None or bounds[0] <= (ret & ~1) < bounds[1]:
                if arch == "riscv":
                    # The trap returns by mret: counted, not stepped (QEMU's gdbstub does
                    # not stop after an mret back into code it single-steps), so the count
                    # is what stepping it would give.
                    return step_until(lambda pc: (pc & ~1) == ret or _at_mret()) + 1
                return step_until(lambda pc: (pc & ~1) == ret)
        raise gdb.GdbError("no interrupt in %s" % within)
    finally:
        gdb.execute("enable", to_string=True)
