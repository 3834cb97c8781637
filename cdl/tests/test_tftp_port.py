#!/usr/bin/env python3
"""Network options have their effect on the TFTP firmware (tests/qemu/tftp_app.c), each
configuration built with CYGPKG_NET_LWIP=1 in its own directory and booted in QEMU with
user-mode networking (QEMU forwards one host port to each guest address and port):
  CYGNUM_PROFILE_TFTP_PORT=6969           gmon.out is served on UDP port 6969, not on 69;
  CYGHWR_HAL_MPS2_AN385_NET_DHCP=1        the board takes its address from QEMU's DHCP server;
  CYGDAT_HAL_MPS2_AN385_NET_IP="10.0.2.16" the board has that static address."""
import contextlib
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))
import harness as h  # noqa: E402
import tftplib as tl  # noqa: E402


def make(values, *args):
    env = dict(os.environ)
    # Not the values of a `make test CYG...=...` that runs us: make passes them on in
    # MAKEFLAGS and in the environment.
    for v in list(env):
        if v in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "CONFIG") or v.startswith("CYG"):
            del env[v]
    return subprocess.run(["make", "--no-print-directory", "-s", "-C", ROOT, "BOARD=" + h.BOARD,
                           "CYGPKG_NET_LWIP=1"] + values + list(args), env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def build(t, values, tag):
    """Builds the TFTP firmware in the configuration; returns (elf, tb) or (None, None)."""
    tb = os.path.join(ROOT, make(values, "config-dir").stdout.strip())
    elf = os.path.join(tb, "fw", "tftp.elf")
    p = make(values, "-j%d" % (os.cpu_count() or 2), os.path.relpath(elf, ROOT))
    if not t.ok(p.returncode == 0 and os.path.exists(elf), "%s: the TFTP firmware builds" % tag,
                p.stdout):
        return None, None
    return elf, tb


class Booted:
    """What a booted configuration offers a test: its build directory, its console, its
    forwarded host ports (one per (guest ip, guest port) pair, in order) and a private
    directory."""

    def __init__(self, tb, con, ports, out):
        self.tb, self.con, self.ports, self.out = tb, con, ports, out


@contextlib.contextmanager
def booted(t, values, forwards, tag):
    """Builds the TFTP firmware with values, boots it with host ports forwarded to the
    (guest ip, guest port) pairs and waits until the application is ready; yields a Booted,
    or None if the firmware did not build or boot (already reported)."""
    elf, tb = build(t, values, tag)
    if not elf:
        yield None
        return
    out = tempfile.mkdtemp(prefix="cdl-net-")
    ports = [tl.free_udp_port() for _ in forwards]
    nic = "user,model=lan9118" + "".join(",hostfwd=udp:127.0.0.1:%d-%s:%d" % (hp, ip, gp)
                                         for hp, (ip, gp) in zip(ports, forwards))
    log = os.path.join(out, "qemu.log")
    with h.Qemu(elf, log, extra=["-nic", nic]) as q:
        rc, gout = h.gdb(elf, q.port, ["break main", "continue", "delete", "detach"])
        if not t.ok(rc == 0, "%s: the firmware boots" % tag, gout):
            yield None
            return
        deadline = time.time() + 30
        while time.time() < deadline and "tftp-app: ready" not in open(log, errors="replace").read():
            time.sleep(0.05)
        yield Booted(tb, open(log, errors="replace").read(), ports, out)


def got_gmon(t, port, out, what):
    dest = os.path.join(out, "gmon.out")
    rc, cout, secs = tl.tftp_hpa(port, dest)
    ok = rc == 0 and os.path.exists(dest) and os.path.getsize(dest) > 0
    if ok:
        with open(dest, "rb") as f:
            ok = f.read(4) == b"gmon"
    t.ok(ok, "%s (%.2f s)" % (what, secs), cout)


def silent(t, port, what):
    """A read request to the forwarded host port gets no answer within 3 s."""
    raw = tl.Raw(port)
    raw.rrq()
    reply = raw.recv(timeout=3.0)
    raw.close()
    t.ok(reply is None, what, repr(reply))


def main():
    t = h.Tap()

    # ---- CYGNUM_PROFILE_TFTP_PORT ----
    port = 6969
    with booted(t, ["CYGNUM_PROFILE_TFTP_PORT=%d" % port],
                [(tl.GUEST_IP, port), (tl.GUEST_IP, 69)], "port %d" % port) as b:
        if b:
            with open(os.path.join(b.tb, "include", "pkgconf", "profile_gprof.h")) as f:
                t.ok("#define CYGNUM_PROFILE_TFTP_PORT %d\n" % port in f.read(),
                     "its profile_gprof.h has the port")
            t.ok("TFTP daemon serving gmon.out on 10.0.2.15 UDP port %d" % port in b.con,
                 "the daemon says it serves on port %d" % port, b.con[-2000:])
            got_gmon(t, b.ports[0], b.out, "tftp-hpa gets gmon.out from port %d" % port)
            silent(t, b.ports[1], "nothing answers a read request on port 69")

    # ---- CYGHWR_HAL_MPS2_AN385_NET_DHCP ----
    with booted(t, ["CYGHWR_HAL_MPS2_AN385_NET_DHCP=1"], [(tl.GUEST_IP, 69)], "DHCP") as b:
        if b:
            # QEMU's DHCP server hands out 10.0.2.15 first.
            t.ok("net: en0 up: 10.0.2.15 netmask 255.255.255.0 gateway 10.0.2.2 (DHCP)" in b.con,
                 "DHCP: the board got 10.0.2.15 from QEMU's DHCP server", b.con[-2000:])
            got_gmon(t, b.ports[0], b.out, "DHCP: tftp-hpa gets gmon.out")

    # ---- CYGDAT_HAL_MPS2_AN385_NET_IP ----
    ip = "10.0.2.16"
    with booted(t, ['CYGDAT_HAL_MPS2_AN385_NET_IP="%s"' % ip], [(ip, 69), (tl.GUEST_IP, 69)],
                "static %s" % ip) as b:
        if b:
            t.ok("net: en0 up: %s netmask 255.255.255.0 gateway 10.0.2.2 (static)" % ip in b.con,
                 "static %s: the board says so" % ip, b.con[-2000:])
            got_gmon(t, b.ports[0], b.out, "static %s: tftp-hpa gets gmon.out from it" % ip)
            silent(t, b.ports[1], "nothing answers on the default address")
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
