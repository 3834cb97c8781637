#!/usr/bin/env python3
"""CYGNUM_PROFILE_TFTP_PORT has its effect: the TFTP firmware (tests/qemu/tftp_app.c) built
with CYGPKG_NET_LWIP=1 CYGNUM_PROFILE_TFTP_PORT=6969 serves gmon.out on UDP port 6969, and
nothing answers on port 69. QEMU forwards one host port to each guest port."""
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))
import harness as h  # noqa: E402
import tftplib as tl  # noqa: E402

PORT = 6969
VALUES = ["CYGPKG_NET_LWIP=1", "CYGNUM_PROFILE_TFTP_PORT=%d" % PORT]


def make(*args):
    env = dict(os.environ)
    # Not the values of a `make test CYG...=...` that runs us: make passes them on in
    # MAKEFLAGS and in the environment.
    for v in list(env):
        if v in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "CONFIG") or v.startswith("CYG"):
            del env[v]
    return subprocess.run(["make", "--no-print-directory", "-s", "-C", ROOT, "BOARD=" + h.BOARD]
                          + VALUES + list(args), env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def main():
    t = h.Tap()
    p = make("config-dir")
    tb_rel = p.stdout.strip()          # make's own name for it, relative to ROOT
    tb = os.path.join(ROOT, tb_rel)
    elf = os.path.join(tb, "fw", "tftp.elf")
    p = make("-j%d" % (os.cpu_count() or 2), tb_rel + "/fw/tftp.elf")
    if not t.ok(p.returncode == 0 and os.path.exists(elf),
                "the TFTP firmware builds with CYGNUM_PROFILE_TFTP_PORT=%d" % PORT, p.stdout):
        return t.done()
    with open(os.path.join(tb, "include", "pkgconf", "profile_gprof.h")) as f:
        t.ok("#define CYGNUM_PROFILE_TFTP_PORT %d\n" % PORT in f.read(),
             "its profile_gprof.h has the port")

    out = tempfile.mkdtemp(prefix="cdl-tftp-port-")
    host_new, host_69 = tl.free_udp_port(), tl.free_udp_port()
    nic = ("user,model=lan9118,hostfwd=udp:127.0.0.1:%d-%s:%d,hostfwd=udp:127.0.0.1:%d-%s:69"
           % (host_new, tl.GUEST_IP, PORT, host_69, tl.GUEST_IP))
    log = os.path.join(out, "qemu.log")
    with h.Qemu(elf, log, extra=["-nic", nic]) as q:
        rc, gout = h.gdb(elf, q.port, ["break main", "continue", "delete", "detach"])
        if not t.ok(rc == 0, "the firmware boots", gout):
            return t.done()
        deadline = time.time() + 30
        while time.time() < deadline and "tftp-app: ready" not in open(log, errors="replace").read():
            time.sleep(0.05)
        con = open(log, errors="replace").read()
        t.ok("TFTP daemon serving gmon.out on 10.0.2.15 UDP port %d" % PORT in con,
             "the daemon says it serves on port %d" % PORT, con[-2000:])
        dest = os.path.join(out, "gmon.out")
        rc, cout, secs = tl.tftp_hpa(host_new, dest)
        ok = rc == 0 and os.path.exists(dest) and os.path.getsize(dest) > 0
        if ok:
            with open(dest, "rb") as f:
                ok = f.read(4) == b"gmon"
        t.ok(ok, "tftp-hpa gets gmon.out from port %d (%.2f s)" % (PORT, secs), cout)
        raw = tl.Raw(host_69)
        raw.rrq()
        reply = raw.recv(timeout=3.0)
        raw.close()
        t.ok(reply is None, "nothing answers a read request on port 69", repr(reply))
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
