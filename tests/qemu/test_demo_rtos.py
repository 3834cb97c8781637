#!/usr/bin/env python3
"""`make demo-rtos` (demo/run-demo-rtos) on the reference board: it runs to the end with its
three progress lines; it prints the per-task table, its header naming the task column
"task", a row for each of the kernel's tasks; it writes a well-formed flame graph whose task
frames carry the tasks' names. A private
directory, a private copy of the firmware (other runs may rebuild it)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402

TASKS = ("main", "sender", "receiver", "worker", "idle")


def main():
    t = h.Tap()
    tgprof = os.path.join(h.BUILD, "host", "tgprof")
    with tempfile.TemporaryDirectory(prefix="test-demo-rtos.") as tmp:
        elf = os.path.join(tmp, "rtos.elf")
        shutil.copy(os.path.join(h.FW_DIR, "rtos-mode.elf"), elf)
        p = subprocess.run([os.path.join(h.ROOT, "demo", "run-demo-rtos"), h.RUN_QEMU, elf,
                            os.path.join(tmp, "demo")], cwd=h.ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=300,
                           env=dict(os.environ, TGPROF=tgprof))
        out = p.stdout
        t.ok(p.returncode == 0, "make demo-rtos: runs to the end", out[-2000:])
        t.eq(len(re.findall(r"^\[demo-rtos [1-3]/3\]", out, re.M)), 3,
             "make demo-rtos: three progress lines")
        t.ok(re.search(r"^    task +samples +share +id$", out, re.M) is not None,
             "the per-task table's header names the task column \"task\"", out[-2000:])
        rows = [n for n in TASKS if re.search(r"^    %s +\d+ +[\d.]+%%  0x" % n, out, re.M)]
        t.eq(rows, list(TASKS), "a row for every task")
        svg = os.path.join(tmp, "demo", "rtos-flame.svg")
        try:
            ET.parse(svg)
            parsed = True
        except (OSError, ET.ParseError):
            parsed = False
        t.ok(parsed, "the flame graph is well-formed SVG")
        text = open(svg).read() if parsed else ""
        t.ok(all("<title>%s (" % n in text for n in ("sender", "receiver", "worker")),
             "the flame graph's task frames carry the tasks' names")
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
