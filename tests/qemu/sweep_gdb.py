"""gdb side of the halting sweep (tests/qemu/test_sweep.py), run by gdb-multiarch after
gdb/gprof.gdb with the firmware connected and halted at its first instruction.

SWEEP_CFG names a JSON file: {"addresses": [...], "out": DIR}, and optionally "arm_at": a
function the firmware runs to before the breakpoints go in, and "record": expressions whose
values are noted with each dump (after the fetch). A breakpoint goes on every
address; each time the firmware stops at one, that breakpoint is deleted and gprof_dump's
two steps run there (gprof_fetch into DIR/dumpNNNN.out, then gprof_reset), exactly as a
user's `gprof_dump` would. At phase_done the remaining data is fetched (DIR/final.out) and
the firmware's own counts are written to DIR/result.json with the hit addresses.

With "probe": true, nothing is dumped: the firmware runs to phase_done and the addresses
it reached are written to DIR/probe.json (the test's check that what the sweep did not
halt at cannot run here), but for those reached inside a snapshot's release (and what it
calls): a dump there runs the target to the release's end and reads there, so the sweep
halts at them only once a release.
"""
import json
import os
import time

import gdb

cfg = json.load(open(os.environ["SWEEP_CFG"]))
out = cfg["out"]
gdb.execute("set breakpoint always-inserted on")
if cfg.get("arm_at"):
    # The sweep starts there: what runs before (profile_on with profiling still off) is
    # neither halted at nor probed.
    gdb.Breakpoint(cfg["arm_at"], internal=True, temporary=True)
    gdb.execute("continue", to_string=True)
pending = {}      # address where the breakpoint stands: breakpoint
adjusted = {}     # gdb moves a breakpoint off an instruction inside an IT block
for a in cfg["addresses"]:
    bp = gdb.Breakpoint("*0x%x" % a, internal=True)
    at = bp.locations[0].address
    if at != a:
        adjusted[a] = at
        bp.delete()
    elif a not in pending:
        pending[a] = bp
end = gdb.Breakpoint("phase_done", internal=True)
end_at = end.locations[0].address

hits, refused, dumps, off = [], [], 0, 0
dumped_at = []   # the halt of each dump, in order: dumpNNNN.out was written at dumped_at[NNNN]
recorded = []    # for each dump, the values of cfg's "record" expressions as it was read
probe = cfg.get("probe", False)
tcont = tdump = 0.0
while True:
    t0 = time.time()
    gdb.execute("continue", to_string=True)
    tcont += time.time() - t0
    pc = int(gdb.parse_and_eval("$pc"))
    if pc == end_at:
        break
    if probe and pc in pending and _release_frame() is not None:  # noqa: F821 (gprof.gdb)
        continue    # (inside a release a dump runs to its end: that is where it reads)
    bp = pending.pop(pc, None)
    if bp is None:
        continue
    bp.delete()
    hits.append(pc)
    if probe:
        continue
    path = os.path.join(out, "dump%04d.out" % dumps)
    t0 = time.time()
    try:
        gprof_fetch(path)   # noqa: F821 (gdb/gprof.gdb)
        recorded.append([int(gdb.parse_and_eval(e)) for e in cfg.get("record", [])])
        gprof_reset()       # noqa: F821
        dumps += 1
        dumped_at.append(pc)
    except gdb.GdbError as e:
        if int(gdb.parse_and_eval("profile_state.running")):
            refused.append([pc, str(e)])
        else:
            off += 1   # profiling off (before profile_on, inside a restart): nothing to dump
    tdump += time.time() - t0

if probe:
    json.dump({"reached": hits}, open(os.path.join(out, "probe.json"), "w"))
else:
    print("sweep: %d halts: %.1f s running, %.1f s dumping" % (len(hits), tcont, tdump))
    gprof_fetch(os.path.join(out, "final.out"))   # noqa: F821

    def read(expr):
        return int(gdb.parse_and_eval(expr))

    def totals(var):
        return {f: read("%s.%s" % (var, f))
                for f in ("samples", "overhead", "out_of_range", "in_bins", "calls", "not_recorded",
                          "files")}

    result = {
        "hits": hits, "refused": refused, "adjusted": adjusted, "off": off, "dumps": dumps,
        "dumped_at": dumped_at, "recorded": recorded,
        "delivered": totals("sweep_delivered"), "discarded": totals("sweep_discarded"),
        "samples_taken": read("sweep_samples_taken"),
        "calls": read("calls_main") + read("calls_isr"),
        "frozen_outstanding": read("(int)(profile_frozen.bins != 0)"),
    }
    json.dump(result, open(os.path.join(out, "result.json"), "w"))
