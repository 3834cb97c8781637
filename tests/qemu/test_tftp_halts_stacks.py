#!/usr/bin/env python3
"""tests/qemu/test_tftp_halts.py on the TFTP firmware in the stack-profiling mode: gdb
halting the target at random moments while tftp-hpa gets gmon.out and then gmon.stacks;
the gmon.stacks files hold every sample and call exactly once too."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402
import test_tftp_halts  # noqa: E402

if __name__ == "__main__":
    sys.exit(test_tftp_halts.main(fw=os.path.join(h.FW_DIR, "tftp-stacks.elf"), stacks=True))
