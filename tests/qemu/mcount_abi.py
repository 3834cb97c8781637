# gdb-side part of test_calls.py's mcount ABI check (sourced into gdb-multiarch).
#
# stub_abi(name), with the target halted at the first instruction of the -pg function
# `name` (`break *name`): runs to the `push {lr}` that precedes its `bl __gnu_mcount_nc`,
# fills r4-r11 with sentinels, runs to the C handler (__profile_mcount) and records its
# entry sp, then runs to the instruction after the call and compares every register the
# stub must preserve (r0-r11, sp and lr: the pushed word is consumed and lr holds it
# again) with its value before the push. Restores the function's own r4-r11 before returning, so the
# firmware goes on unchanged. Prints one line for test_calls.py to parse:
#   ABI <name> handler_sp=0x... changed=<comma-separated registers or ->
import gdb

_PRESERVED = ["r%d" % i for i in range(12)] + ["sp", "lr"]
_SENTINELS = {"r%d" % i: 0x5e000000 | (i << 16) | 0xa5a5 for i in range(4, 12)}


def _reg(name):
    return int(gdb.parse_and_eval("$" + name)) & 0xffffffff


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


def stub_abi(name):
    push, after = _mcount_call(_reg("pc"))
    # (The function may save registers of its own before the -pg sequence.)
    if _reg("pc") != push:
        gdb.execute("tbreak *0x%x" % push, to_string=True)
        gdb.execute("continue", to_string=True)
    own = {r: _reg(r) for r in _SENTINELS}
    for r, v in _SENTINELS.items():
        gdb.execute("set var $%s = %d" % (r, v))
    entry = {r: _reg(r) for r in _PRESERVED}
    gdb.execute("tbreak *__profile_mcount", to_string=True)
    gdb.execute("continue", to_string=True)
    handler_sp = _reg("sp")
    gdb.execute("tbreak *0x%x" % after, to_string=True)
    gdb.execute("continue", to_string=True)
    if _reg("pc") != after:
        raise gdb.GdbError("did not stop after the mcount call (pc 0x%x)" % _reg("pc"))
    changed = [r for r in _PRESERVED if _reg(r) != entry[r]]
    for r, v in own.items():
        gdb.execute("set var $%s = %d" % (r, v))
    print("ABI %s handler_sp=0x%x changed=%s" % (name, handler_sp, ",".join(changed) or "-"))
