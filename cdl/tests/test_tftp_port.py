#!/usr/bin/env python3
"""Network options have their effect on the TFTP firmware (tests/qemu/tftp_app.c), each
configuration built with CYGPKG_NET_LWIP=1 in its own directory and booted in QEMU with
user-mode networking (QEMU forwards one host port to each guest address and port):
  CYGNUM_PROFILE_TFTP_PORT=6969           gmon.out is served on UDP port 6969, not on 69;
  CYGHWR_DEVS_ETH_LAN9118_DHCP=1        the board takes its address from QEMU's DHCP server;
  CYGDAT_DEVS_ETH_LAN9118_IP="10.0.2.16" the board has that static address;
  CYGDAT_PROFILE_TFTP_ALLOW="10.0.2.0" CYGNUM_PROFILE_TFTP_ALLOW_PREFIX=30
                                          the daemon serves 10.0.2.0/30 only: the host
                                          (QEMU's 10.0.2.2) gets gmon.out, and packets from
                                          10.0.2.99 during its transfer change nothing; booted
                                          again with the host at 10.0.2.4 (QEMU's host=), the
                                          host's requests get ERROR 2 and nothing is reset;
  CYGDAT_PROFILE_TFTP_ALLOW="10.0.2.2" CYGNUM_PROFILE_TFTP_ALLOW_PREFIX=24
                                          host bits set beyond the prefix: the daemon does
                                          not start (it says why) and serves nobody.
Also the configurator's checks of the allow options."""
import contextlib
import glob
import os
import struct
import subprocess
import sys
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
    tb = make(values, "config-dir").stdout.strip()    # as make names it: BUILD may be absolute
    p = make(values, "-j%d" % (os.cpu_count() or 2), os.path.join(tb, "fw", "tftp.elf"))
    tb = os.path.join(ROOT, tb)
    elf = os.path.join(tb, "fw", "tftp.elf")
    if not t.ok(p.returncode == 0 and os.path.exists(elf), "%s: the TFTP firmware builds" % tag,
                p.stdout):
        return None, None
    return elf, tb


class Booted:
    """What a booted configuration offers a test: its build directory, its console at
    "ready", its forwarded host ports (one per (guest ip, guest port) pair, in order), a
    private directory, and the running target (tftplib.Target: console, gdb, stats)."""

    def __init__(self, tb, con, ports, out, tg):
        self.tb, self.con, self.ports, self.out, self.tg = tb, con, ports, out, tg


@contextlib.contextmanager
def booted(t, values, forwards, tag, nic=""):
    """Builds the TFTP firmware with values, boots it with host ports forwarded to the
    (guest ip, guest port) pairs (nic: more options of QEMU's user network) and waits until
    the application is ready; yields a Booted, or None if the firmware did not build or
    boot (already reported)."""
    elf, tb = build(t, values, tag)
    if not elf:
        yield None
        return
    try:
        tg = tl.Target("cdl-net", fw=elf, forwards=forwards, nic=nic)
    except RuntimeError as e:
        t.ok(False, "%s: the firmware boots" % tag, str(e))
        yield None
        return
    with tg:
        t.ok(True, "%s: the firmware boots" % tag)
        deadline = time.time() + 30
        while time.time() < deadline and "tftp-app: ready" not in tg.console():
            time.sleep(0.05)
        yield Booted(tb, tg.console(), tg.ports, tg.dir, tg)


def got_gmon(t, port, out, what):
    dest = os.path.join(out, "gmon.out")
    rc, cout, secs = tl.tftp_hpa(port, dest)
    t.ok(tl.hpa_ok(rc, cout, dest), "%s (%.2f s)" % (what, secs), cout)


def silent(t, port, what):
    """A read request to the forwarded host port gets no answer within 3 s."""
    raw = tl.Raw(port)
    raw.rrq()
    reply = raw.recv(timeout=3.0)
    raw.close()
    t.ok(reply is None, what, repr(reply))


PORT, STATIC_IP = 6969, "10.0.2.16"
ALLOW = ['CYGDAT_PROFILE_TFTP_ALLOW="10.0.2.0"', "CYGNUM_PROFILE_TFTP_ALLOW_PREFIX=30"]
BAD_ALLOW = ['CYGDAT_PROFILE_TFTP_ALLOW="10.0.2.2"', "CYGNUM_PROFILE_TFTP_ALLOW_PREFIX=24"]
# Every configuration main() boots: make test builds them beforehand (--build), side by
# side with the rest, since this test runs alone.
CONFIGS = (["CYGNUM_PROFILE_TFTP_PORT=%d" % PORT], ["CYGHWR_DEVS_ETH_LAN9118_DHCP=1"],
           ['CYGDAT_DEVS_ETH_LAN9118_IP="%s"' % STATIC_IP], ALLOW, BAD_ALLOW)


def build_all():
    for values in CONFIGS:
        tb = make(values, "config-dir").stdout.strip()
        p = make(values, os.path.join(tb, "fw", "tftp.elf"))
        if p.returncode != 0:
            sys.stdout.write(p.stdout)
            return 1
    return 0


def main():
    t = h.Tap()

    # ---- CYGNUM_PROFILE_TFTP_PORT ----
    port = PORT
    with booted(t, ["CYGNUM_PROFILE_TFTP_PORT=%d" % port],
                [(tl.GUEST_IP, port), (tl.GUEST_IP, 69)], "port %d" % port) as b:
        if b:
            with open(os.path.join(b.tb, "include", "pkgconf", "profile_gprof.h")) as f:
                t.ok("#define CYGNUM_PROFILE_TFTP_PORT %d\n" % port in f.read(),
                     "its profile_gprof.h has the port")
            t.ok("TFTP daemon serving gmon.out and gmon.tasks on 10.0.2.15 UDP port %d" % port in b.con,
                 "the daemon says it serves on port %d" % port, b.con[-2000:])
            got_gmon(t, b.ports[0], b.out, "tftp-hpa gets gmon.out from port %d" % port)
            silent(t, b.ports[1], "nothing answers a read request on port 69")

    # ---- CYGHWR_DEVS_ETH_LAN9118_DHCP ----
    with booted(t, ["CYGHWR_DEVS_ETH_LAN9118_DHCP=1"], [(tl.GUEST_IP, 69)], "DHCP") as b:
        if b:
            # QEMU's DHCP server hands out 10.0.2.15 first.
            t.ok("net: en0 up: 10.0.2.15 netmask 255.255.255.0 gateway 10.0.2.2 (DHCP)" in b.con,
                 "DHCP: the board got 10.0.2.15 from QEMU's DHCP server", b.con[-2000:])
            got_gmon(t, b.ports[0], b.out, "DHCP: tftp-hpa gets gmon.out")

    # ---- CYGDAT_DEVS_ETH_LAN9118_IP ----
    ip = STATIC_IP
    with booted(t, ['CYGDAT_DEVS_ETH_LAN9118_IP="%s"' % ip], [(ip, 69), (tl.GUEST_IP, 69)],
                "static %s" % ip) as b:
        if b:
            t.ok("net: en0 up: %s netmask 255.255.255.0 gateway 10.0.2.2 (static)" % ip in b.con,
                 "static %s: the board says so" % ip, b.con[-2000:])
            got_gmon(t, b.ports[0], b.out, "static %s: tftp-hpa gets gmon.out from it" % ip)
            silent(t, b.ports[1], "nothing answers on the default address")

    # ---- CYGDAT_PROFILE_TFTP_ALLOW, CYGNUM_PROFILE_TFTP_ALLOW_PREFIX ----
    cdl_args = (["cdl/profile_gprof.cdl"] + sorted(glob.glob(os.path.join(ROOT, "hal", "armv7m", "*.cdl"))) +
                sorted(glob.glob(os.path.join(ROOT, "boards", h.BOARD, "*.cdl"))) + ["CYGPKG_NET_LWIP=1"])
    for extra, want in [
            (['CYGDAT_PROFILE_TFTP_ALLOW="10.0.2.2"'], "prefix 32"),
            (["CYGNUM_PROFILE_TFTP_ALLOW_PREFIX=33"], "bad value: 33 is out of range"),
            (['CYGDAT_PROFILE_TFTP_ALLOW="10.0.2.2"', "CYGNUM_PROFILE_TFTP_ALLOW_PREFIX=0"],
             "unresolved conflict: CYGNUM_PROFILE_TFTP_ALLOW_PREFIX requires"),
            (["CYGNUM_PROFILE_TFTP_HOLD_MS=0"], "bad value: 0 is out of range")]:
        p = subprocess.run([os.path.join(ROOT, "cdl", "configure")] + cdl_args + extra +
                           ["--get", "CYGNUM_PROFILE_TFTP_ALLOW_PREFIX"], cwd=ROOT, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if want == "prefix 32":
            t.ok(p.returncode == 0 and p.stdout.strip() == "32",
                 "configure: an allowed address alone means that host (prefix 32)", p.stdout)
        else:
            t.ok(p.returncode == 1 and want in p.stdout, "configure refuses %s: %s" % (" ".join(extra), want),
                 p.stdout)

    allow = ALLOW
    with booted(t, allow, [(tl.GUEST_IP, 69)], "allow 10.0.2.0/30") as b:
        if b:
            tg, port = b.tg, b.ports[0]
            with open(os.path.join(b.tb, "include", "pkgconf", "profile_gprof.h")) as f:
                hdr = f.read()
            t.ok('#define CYGDAT_PROFILE_TFTP_ALLOW "10.0.2.0"\n' in hdr and
                 "#define CYGNUM_PROFILE_TFTP_ALLOW_PREFIX 30\n" in hdr, "its profile_gprof.h has the network")
            t.ok("TFTP daemon serving gmon.out and gmon.tasks on 10.0.2.15 UDP port 69 to 10.0.2.0/30 only" in b.con,
                 "the daemon says whom it serves", b.con[-2000:])
            got_gmon(t, port, b.out, "the host (10.0.2.2, inside 10.0.2.0/30): tftp-hpa gets gmon.out")
            # Right after a client's request, before its ACK, 10.0.2.99 (outside) sends a
            # request and an ACK of block 1 (which, from inside, would take the transfer
            # over), an ERROR, a write request and a runt: none of it may change anything.
            time.sleep(0.2)
            before = tg.stats()
            tg.inject(0x54321, arg=1, src="10.0.2.99", on_transfer=before["transfers"] + 1)
            raw = tl.Raw(port)
            data, why = raw.get()
            raw.close()
            tg.wait_injected()
            t.ok(data is not None and data[:4] == b"gmon",
                 "packets from 10.0.2.99 (outside) right after the request: the host's get completes", why)
            time.sleep(0.2)
            after = tg.stats()
            t.ok(after["denied"] == before["denied"] + 5 and after["transfers"] == before["transfers"] + 1 and
                 after["completed"] == before["completed"] + 1 and after["abandoned"] == before["abandoned"] and
                 after["offered"] == before["offered"] and after["taken_over"] == before["taken_over"],
                 "... all 5 denied, one transfer, completed (%r -> %r)" % (before, after))

    with booted(t, allow, [(tl.GUEST_IP, 69)], "allow 10.0.2.0/30, the host at 10.0.2.4",
                nic=",host=10.0.2.4") as b:
        if b:
            tg, port = b.tg, b.ports[0]
            time.sleep(0.5)
            dest = os.path.join(b.out, "denied.gmon")
            rc, out, secs = tl.tftp_hpa(port, dest)
            t.ok("Error code 2: access denied" in out and secs < 3 and
                 (not os.path.exists(dest) or os.path.getsize(dest) == 0),
                 "the host at 10.0.2.4 (outside 10.0.2.0/30): tftp-hpa gets ERROR 2 at once (%.2f s)" % secs, out)
            raw = tl.Raw(port)
            raw.rrq()
            r1 = raw.drain(0.5)
            raw.rrq(op=tl.WRQ)
            r2 = raw.drain(0.5)
            raw.ack(1)
            raw.error()
            raw.send(b"\0")
            raw.send(struct.pack(">HH", tl.DATA, 1) + b"x" * 100)
            r3 = raw.drain(0.5)
            raw.close()
            t.ok([tl.parse_error(p) for p in r1 + r2] == [(2, "access denied: this host may not read the profile")] * 2
                 and r3 == [],
                 "... a read and a write request get ERROR 2; an ACK, an ERROR, a runt and DATA get nothing",
                 (r1, r2, r3))
            iterations, samples_total = tg.quiesce()
            st = tg.stats()
            gdir = os.path.join(b.out, "gdb")
            os.makedirs(gdir, exist_ok=True)
            rc, gout = tg.gdb(["cd " + gdir, "gprof_fetch"])
            pg = os.path.join(gdir, "gmon.out")
            samples = tl.gmon_summary(pg)[0] if os.path.exists(pg) else None
            # (tftp-hpa 5.2 answers an ERROR to its request with an ACK of block 1: 2 + 6 packets)
            t.ok(st["transfers"] == 0 and st["denied"] == 8 and samples == samples_total and samples > 0,
                 "... nothing changed: no transfer, 8 packets denied, and gdb's gmon.out holds every "
                 "sample since boot (%s of %d: nothing was reset)" % (samples, samples_total), (st, gout))

    # A malformed allow option, which only the daemon can check (the configurator has no
    # string functions): "10.0.2.2" with prefix 24 has host bits set (one host or the subnet?).
    # The daemon does not start (-EINVAL) and says why; profiling runs; nobody is served,
    # not even the host (10.0.2.2, inside 10.0.2.0/24).
    bad = BAD_ALLOW
    with booted(t, bad, [(tl.GUEST_IP, 69)], "allow 10.0.2.2/24 (host bits set)") as b:
        if b:
            t.ok('profile: TFTP daemon not started: CYGDAT_PROFILE_TFTP_ALLOW "10.0.2.2" has bits set '
                 "beyond its prefix length CYGNUM_PROFILE_TFTP_ALLOW_PREFIX 24" in b.con and
                 "TFTP daemon serving" not in b.con and "tftp-app: profile_on: 0" in b.con,
                 "allow 10.0.2.2/24: the daemon says why it does not start, and profiling is on",
                 b.con[-2000:])
            silent(t, b.ports[0], "... a read request from the host gets no answer")
    return t.done()


if __name__ == "__main__":
    sys.exit(build_all() if sys.argv[1:] == ["--build"] else main())
