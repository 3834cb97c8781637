# gdb-side part of test_calls.py's mcount ABI check (sourced into gdb-multiarch).
#
# stub_abi(name), with the target halted at the first instruction of the -pg function
# `name` (`break *name`): runs to the `push {lr}` that precedes its `bl __gnu_mcount_nc`,
# fills r4-r11 with sentinels, runs either to the C handler (__profile_mcount: the stub's
# slow path, a new arc; records its entry sp) or straight back (the stub's own lookup found
# the arc), then to the instruction after the call and compares every register the
# stub must preserve (r0-r11, sp and lr: the pushed word is consumed and lr holds it
# again) with its value before the push. On a core with an FPU (the target description has
# s0-s15) the FP argument registers s0-s15 are filled with sentinels too and compared bit for
# bit: under the hard-float ABI they carry arguments across the mcount call. Restores the
# function's own r4-r11 (and s0-s15) before returning, so the firmware goes on unchanged.
# Prints one line for test_calls.py to parse:
#   ABI <name> path=<slow|fast> handler_sp=<0x... or -> fp=<FP registers checked, 16 or 0>
#       changed=<registers or ->   (path=off: straight back with the gate closed, abi_gate)
import gdb

_PRESERVED = ["r%d" % i for i in range(12)] + ["sp", "lr"]
_SENTINELS = {"r%d" % i: 0x5e000000 | (i << 16) | 0xa5a5 for i in range(4, 12)}
# The FP argument registers of the hard-float ABI (AAPCS-VFP; d0-d7 are s0-s15).
_FP_ARGS = ["s%d" % i for i in range(16)]


def _reg(name):
    if name in _FP_ARGS:  # the raw bits, not the float value
        return int(gdb.execute("output/x $" + name, to_string=True), 16)
    return int(gdb.parse_and_eval("$" + name)) & 0xffffffff


def _has_fp():
    """Does the target have FP registers (QEMU's gdbstub describes them for an FPU core)?"""
    arch = gdb.selected_frame().architecture()
    return any(r.name == "s0" for r in arch.registers())


def _mcount_call(pc):
    """(address of the `push {lr}` before the call, address after the call)."""
    arch = gdb.selected_frame().architecture()
    insns = arch.disassemble(pc, count=6)
    for prev, insn in zip(insns, insns[1:]):
        if "__gnu_mcount_nc" in insn["asm"]:
            if "push" not in prev["asm"] or "lr" not in prev["asm"]:
                raise gdb.GdbError("no push {lr} before the mcount call: %s" % prev["asm"])
            return prev["addr"], insn["addr"] + insn["length"]
    raise gdb.GdbError("no call to __gnu_mcount_nc in the first instructions at 0x%x" % pc)


def _run_to_handler_or(after, handler_cond, after_cond):
    """Continues until this call reaches __profile_mcount (handler_cond holds there: the
    stub's slow path) or comes back to `after` (after_cond: the stub's own lookup found the
    arc). Returns "slow" or "fast"; the target stands at the stop."""
    handler = gdb.Breakpoint("*__profile_mcount", internal=True, temporary=True)
    handler.condition = handler_cond
    back = gdb.Breakpoint("*0x%x" % after, internal=True, temporary=True)
    back.condition = after_cond
    gdb.execute("continue", to_string=True)
    pc = int(gdb.parse_and_eval("$pc"))
    for b in (handler, back):
        if b.is_valid():
            b.delete()
    return "fast" if pc == after else "slow"


def stub_abi(name):
    if _is_riscv():
        return stub_abi_riscv(name)
    push, after = _mcount_call(_reg("pc"))
    # (The function may save registers of its own before the -pg sequence.)
    if _reg("pc") != push:
        gdb.execute("tbreak *0x%x" % push, to_string=True)
        gdb.execute("continue", to_string=True)
    fp = _FP_ARGS if _has_fp() else []
    own = {r: _reg(r) for r in _SENTINELS}
    for r in fp:  # exact copies, whatever the bits (NaNs too)
        gdb.execute("set $abi_own_%s = $%s" % (r, r))
    for r, v in _SENTINELS.items():
        gdb.execute("set var $%s = %d" % (r, v))
    for i, r in enumerate(fp):  # exactly representable, all different
        gdb.execute("set var $%s = %d.375" % (r, -(i + 1) if i % 2 else i + 1))
    entry = {r: _reg(r) for r in _PRESERVED + fp}
    # (r1, the callee, is the return address into this function, Thumb bit and all)
    path = _run_to_handler_or(after, "($r1 & ~1) == 0x%x" % after, "$sp == 0x%x" % entry["sp"])
    handler_sp = None
    if path == "slow":
        handler_sp = _reg("sp")
        gdb.execute("tbreak *0x%x if $sp == 0x%x" % (after, entry["sp"]), to_string=True)
        gdb.execute("continue", to_string=True)
    if _reg("pc") != after:
        raise gdb.GdbError("did not stop after the mcount call (pc 0x%x)" % _reg("pc"))
    changed = [r for r in _PRESERVED + fp if _reg(r) != entry[r]]
    for r, v in own.items():
        gdb.execute("set var $%s = %d" % (r, v))
    for r in fp:
        gdb.execute("set var $%s = $abi_own_%s" % (r, r))
    _report(name, path, handler_sp, len(fp), changed)


def abi_gate(open_):
    """Closes the mcount stub's gate (profiling off, as the stub sees it) or opens it again
    as it was."""
    global _gate
    if not open_:
        _gate = int(gdb.parse_and_eval("profile_state.mcount_gate"))
    gdb.execute("set var profile_state.mcount_gate = %d" % (_gate if open_ else 0))


_gate = 0


def _report(name, path, handler_sp, nfp, changed):
    # (straight back with the gate closed: the off path, not the stub's lookup)
    if path == "fast" and int(gdb.parse_and_eval("profile_state.mcount_gate")) == 0:
        path = "off"
    print("ABI %s path=%s handler_sp=%s fp=%d changed=%s"
          % (name, path, "-" if handler_sp is None else "0x%x" % handler_sp, nfp,
             ",".join(changed) or "-"))


# ---- RISC-V (hal/riscv/src/mcount.S) ------------------------------------------------------
# GCC's -pg on RISC-V is an ordinary call after the prologue (mv a0,ra; call _mcount): the
# compiler has saved whatever it still needs in callee-saved registers, so the stub must
# preserve what the psABI makes callee-saved, s0-s11, sp, gp and tp, and hand
# __profile_mcount the call site (a0: the instrumented function's return address) and the
# callee (a1: the return address into the function). stub_abi_riscv(name), with the target
# halted at the first instruction of `name`, runs to _mcount, fills s0-s11 with sentinels,
# runs to __profile_mcount if the stub takes its slow path (records sp, which the psABI
# wants 16-byte aligned, and checks a0 and a1) or straight back if its own lookup found
# the arc, then to the instruction after the call, and compares. Every stop is conditional
# on this call (its return address), so an interrupt handler's -pg functions in between do
# not count. Restores the function's own s0-s11. Prints the line stub_abi prints; a wrong
# caller_pc or callee_pc shows in changed= as "a0" or "a1".
_RV_PRESERVED = ["s%d" % i for i in range(12)] + ["sp", "gp", "tp"]
_RV_SENTINELS = {"s%d" % i: 0x5e000000 | (i << 16) | 0xa5a5 for i in range(12)}


def _is_riscv():
    return gdb.selected_frame().architecture().name().startswith("riscv")


def _rv_reg(name):
    return int(gdb.parse_and_eval("(unsigned long)$" + name))


def _rv_mcount_call(pc):
    """Address after the prologue's call to _mcount."""
    arch = gdb.selected_frame().architecture()
    for insn in arch.disassemble(pc, count=40):
        if "<_mcount>" in insn["asm"]:
            return insn["addr"] + insn["length"]
    raise gdb.GdbError("no call to _mcount in the first instructions at 0x%x" % pc)


def stub_abi_riscv(name):
    caller_pc = _rv_reg("ra")
    after = _rv_mcount_call(_rv_reg("pc"))
    gdb.execute("tbreak *_mcount if $ra == 0x%x" % after, to_string=True)
    gdb.execute("continue", to_string=True)
    own = {r: _rv_reg(r) for r in _RV_SENTINELS}
    for r, v in _RV_SENTINELS.items():
        gdb.execute("set var $%s = %d" % (r, v))
    entry = {r: _rv_reg(r) for r in _RV_PRESERVED}
    path = _run_to_handler_or(after, "$a1 == 0x%x" % after, "$sp == 0x%x" % entry["sp"])
    handler_sp, args = None, {}
    if path == "slow":
        handler_sp = _rv_reg("sp")
        args = {"a0": (_rv_reg("a0"), caller_pc), "a1": (_rv_reg("a1"), after)}
        gdb.execute("tbreak *0x%x if $sp == 0x%x" % (after, entry["sp"]), to_string=True)
        gdb.execute("continue", to_string=True)
    if _rv_reg("pc") != after:
        raise gdb.GdbError("did not stop after the mcount call (pc 0x%x)" % _rv_reg("pc"))
    changed = [r for r in _RV_PRESERVED if _rv_reg(r) != entry[r]]
    changed += [r for r, (got, want) in args.items() if got != want]
    if handler_sp is not None and handler_sp % 16:
        changed.append("sp%16")     # the psABI's alignment at a call
    for r, v in own.items():
        gdb.execute("set var $%s = %d" % (r, v))
    _report(name, path, handler_sp, 0, changed)


class _InHandler(gdb.Function):
    """$_abi_in_handler(): nonzero while the target runs an interrupt handler (Cortex-M:
    IPSR, the active exception; Cortex-A: a CPU mode other than SYS and USR, where the HAL
    runs main; RISC-V: the HAL's count of handlers it is inside)."""

    def __init__(self):
        super().__init__("_abi_in_handler")

    def invoke(self):
        if _is_riscv():
            return int(gdb.parse_and_eval("hal_riscv_irq_depth")) != 0
        try:
            return (int(gdb.parse_and_eval("$xpsr")) & 0x1ff) != 0
        except gdb.error:  # no xPSR: an A-profile core
            return (int(gdb.parse_and_eval("$cpsr")) & 0x1f) not in (0x10, 0x1f)


_InHandler()
