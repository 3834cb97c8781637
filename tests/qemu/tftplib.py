"""TFTP end-to-end tests' shared parts (on top of harness.py): the TFTP firmware booted in
QEMU with user-mode networking and a host UDP port forwarded to the daemon, its console,
gdb knobs, the real clients (tftp-hpa, curl) and a raw-UDP TFTP client for the abuse tests.
All traffic goes to 127.0.0.1."""
import os
import re
import shutil
import socket
import struct
import subprocess
import time

import harness as h

TFTP_FW = os.environ.get("TFTP_FW") or os.path.join(h.BUILD, h.BOARD, "net", "tftp.elf")
GUEST_IP = "10.0.2.15"
GUEST_PORT = 69

RRQ, WRQ, DATA, ACK, ERROR, OACK = 1, 2, 3, 4, 5, 6


def free_udp_port():
    return h.reserve_port(socket.SOCK_DGRAM)


def private_dir(name):
    """build/test-out/BOARD/tftp/NAME.PID: each run its own (make test may run concurrently in one
    tree); the directories of runs that are over are removed."""
    top = os.path.join(h.OUT_ROOT, "tftp")
    os.makedirs(top, exist_ok=True)
    for d in os.listdir(top):
        m = re.match(r"%s\.(\d+)$" % re.escape(name), d)
        if m and not os.path.exists("/proc/%s" % m.group(1)):
            shutil.rmtree(os.path.join(top, d), ignore_errors=True)
    path = os.path.join(top, "%s.%d" % (name, os.getpid()))
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


class Target:
    """The TFTP firmware running in QEMU. knobs: firmware globals gdb sets at reset.
    fw: another build of it (default TFTP_FW); forwards: the (guest ip, guest port) pairs a
    host port each is forwarded to (default the daemon's), in self.ports (self.port is the
    first); nic: more options of QEMU's user network (e.g. ",host=10.0.2.4": the address
    the host's packets come from, 10.0.2.2 by default)."""

    def __init__(self, name, fw=None, forwards=((GUEST_IP, GUEST_PORT),), nic="", **knobs):
        self.dir = private_dir(name)
        # A private copy of the firmware: QEMU, gdb and gprof must see the same image even
        # if a build in the same tree replaces the original meanwhile.
        self.elf = os.path.join(self.dir, "tftp.elf")
        shutil.copyfile(fw or TFTP_FW, self.elf)
        self.ports = [free_udp_port() for _ in forwards]
        self.port = self.ports[0]
        self.log = os.path.join(self.dir, "qemu.log")
        nic = "user,model=lan9118" + nic + "".join(
            ",hostfwd=udp:127.0.0.1:%d-%s:%d" % (hp, ip, gp) for hp, (ip, gp) in zip(self.ports, forwards))
        self.qemu = h.Qemu(self.elf, self.log, extra=["-nic", nic], udp_ports=self.ports)
        self.t0 = time.time()
        # The knobs are set once main() is reached (the startup code clears .bss and copies
        # .data before that).
        cmds = (["break main", "continue", "delete"] +
                ["set var %s = %d" % kv for kv in knobs.items()] + ["detach"])
        rc, out = h.gdb(self.elf, self.qemu.port, cmds)
        if rc != 0:
            raise RuntimeError("gdb could not start the firmware:\n" + out)

    def close(self):
        self.qemu.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def console(self):
        with open(self.log, errors="replace") as f:
            return f.read()

    def wait_console(self, pattern, timeout=30):
        """Waits for a console line matching pattern; returns the match."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = re.search(pattern, self.console(), re.M)
            if m:
                return m
            if self.qemu.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("no console line matching %r; console:\n%s" % (pattern, self.console()[-3000:]))

    def heartbeats(self):
        """[(guest_ms, iterations, samples_total)] from the console."""
        return [tuple(int(x) for x in m) for m in re.findall(
            r"alive at (\d+) ms: iterations (\d+) samples_total (\d+)", self.console())]

    def gdb(self, commands):
        """Attach (QEMU stops the guest), run commands, detach (it runs on)."""
        return h.gdb(self.elf, self.qemu.port, list(commands) + ["detach"])

    def wait_beats(self, n, timeout=30):
        """Waits until n more heartbeat lines (one a second of guest time) have appeared:
        at least n - 1 seconds of guest time have passed."""
        want = len(self.heartbeats()) + n
        deadline = time.time() + timeout
        while len(self.heartbeats()) < want:
            if time.time() > deadline:
                raise RuntimeError("no heartbeat; console:\n" + self.console()[-3000:])
            time.sleep(0.02)

    def guest_ratio(self, secs=1.0):
        """Guest seconds per host second, measured over secs of host time from the
        heartbeats (under -icount, sleep=off the guest's clock runs at its own pace)."""
        b0, t0 = self.heartbeats()[-1][0], time.time()
        time.sleep(secs)
        self.wait_beats(1)
        return (self.heartbeats()[-1][0] - b0) / 1000.0 / (time.time() - t0)

    def inject(self, kinds, arg=0, src=None, on_transfer=0):
        """Packets to the daemon from another host of the guest's network (tftp_app.c's
        inject knob: one hex digit per packet, e.g. 0x31 is an RRQ then an ERROR). Waits
        until they are in; with on_transfer, returns at once: the firmware holds them until
        the daemon has started that many transfers (wait_injected() waits for them)."""
        self._injected = self.console().count("tftp-app: injected")
        cmds = ["set var inject_arg = %d" % arg, "set var inject_on_transfer = %d" % on_transfer]
        if src:
            a, b, c, d = (int(x) for x in src.split("."))
            cmds.append("set var inject_from = %d" % (a << 24 | b << 16 | c << 8 | d))
        self.gdb(cmds + ["set var inject = %d" % kinds])
        if not on_transfer:
            self.wait_injected()

    def wait_injected(self, timeout=30):
        deadline = time.time() + timeout
        while self.console().count("tftp-app: injected") == self._injected:
            if time.time() > deadline:
                raise RuntimeError("the packets were not injected; console:\n" + self.console()[-3000:])
            time.sleep(0.02)

    def quiesce(self):
        """Stop the -pg work and the profile timer; returns (iterations, samples_total)."""
        rc, out = self.gdb(["set var quiesce = 1"])
        m = self.wait_console(r"tftp-app: quiet: iterations (\d+) samples_total (\d+)")
        return int(m.group(1)), int(m.group(2))

    def stats(self):
        """The daemon's counters (struct profile_tftp_stats) as a dict, via gdb."""
        rc, out = self.gdb(["print tftp_stats"])
        m = re.search(r"\{(transfers = .*?)\}", out)
        if not m:
            raise RuntimeError("no tftp_stats in gdb output:\n" + out)
        return {k: int(v) for k, v in re.findall(r"(\w+) = (\d+)", m.group(1))}


def tftp_hpa(port, dest, mode="binary", timeout=60, connect=False, name="gmon.out"):
    """tftp-hpa, interactively as a user would: binary, get. With connect, the eCos
    manual's session: `tftp` alone, then `connect 127.0.0.1 PORT` (Debian's tftp-hpa 5.2,
    started without a host, first asks "(to)"; an empty answer dismisses it).
    Returns (rc, output, seconds)."""
    d = os.path.dirname(dest)
    script = "verbose\n%s\nget %s %s\nquit\n" % (mode, name, os.path.basename(dest))
    args = ["tftp", "127.0.0.1", str(port)]
    if connect:
        script = "\nconnect 127.0.0.1 %d\n" % port + script
        args = ["tftp"]
    t0 = time.time()
    p = subprocess.run(args, input=script, cwd=d, text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    return p.returncode, p.stdout, time.time() - t0


def hpa_ok(rc, out, dest):
    """Whether a tftp_hpa() run fetched a whole gmon.out into dest. Its exit status is no
    proof: tftp-hpa 5.2 exits with 0 after an ERROR, and even prints "Received 512 bytes"
    when the ERROR came after block 1. (Also right for a curl() run, whose errors make its
    exit status non-zero.)"""
    if rc != 0 or "Error code" in out or "timed out" in out or not os.path.exists(dest):
        return False
    try:
        hdr, hist, arcs = h.gmon_parse(dest)
    except (ValueError, struct.error):
        return False
    return hdr[0] == b"gmon" and hist is not None


def curl(port, dest, name="gmon.out", timeout=60, blksize=None, verbose=False):
    """curl's get; blksize: --tftp-blksize (RFC 2348; curl asks for 512 otherwise);
    verbose: -v, whose lines say what the OACK held ("blksize parsed from OACK (1428)")."""
    t0 = time.time()
    opts = (["--tftp-blksize", str(blksize)] if blksize else []) + (["-v"] if verbose else [])
    p = subprocess.run(["curl", "-sS"] + opts + ["-o", dest, "tftp://127.0.0.1:%d/%s" % (port, name)],
                       text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    return p.returncode, p.stdout, time.time() - t0


class Raw:
    """A TFTP client made of raw UDP packets, for the abuse tests."""

    def __init__(self, port):
        self.server = ("127.0.0.1", port)
        self.s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.s.bind(("127.0.0.1", 0))
        self.dups = 0       # duplicates of the block acknowledged last that get() skipped
        self.oack = None    # the options of the OACK get() had, {name: value}, or None
        self.blocks = 0     # DATA blocks get() received

    def close(self):
        self.s.close()

    def send(self, data):
        self.s.sendto(data, self.server)

    def recv(self, timeout=1.0):
        """Next packet from the server, or None after timeout seconds."""
        self.s.settimeout(timeout)
        try:
            data, addr = self.s.recvfrom(65536)
            return data
        except socket.timeout:
            return None

    def drain(self, timeout=0.3):
        """Every packet that arrives within timeout seconds of the last one."""
        got = []
        while True:
            p = self.recv(timeout)
            if p is None:
                return got
            got.append(p)

    def rrq(self, name="gmon.out", mode="octet", op=RRQ, extra=b""):
        self.send(struct.pack(">H", op) + name.encode() + b"\0" + mode.encode() + b"\0" + extra)

    def oack_or_data(self, timeout=5.0):
        """After a request with options: (OACK's {name: value}, None) once it is acknowledged
        with ACK 0, ({}, block 1) if the server sent DATA instead (options declined), or
        (None, why)."""
        p = self.recv(timeout)
        if p is None:
            return None, "timeout waiting for the OACK"
        if parse_op(p) == DATA:
            return {}, p
        if parse_op(p) != OACK:
            return None, "no OACK: %r" % (parse_error(p) or p[:20],)
        self.oack = parse_oack(p)
        self.ack(0)
        return self.oack, None

    def ack(self, block):
        self.send(struct.pack(">HH", ACK, block & 0xFFFF))

    def error(self, code=0, msg="client gives up"):
        self.send(struct.pack(">HH", ERROR, code) + msg.encode() + b"\0")

    def get(self, timeout=5.0, dup_acks=False, dup_rrq=False, after_first=None, after_ack=None,
            name="gmon.out", options=b""):
        """A whole read of name (gmon.out) in lock step. Returns (data, None) or (None, why); self.dups
        is then the number of copies of an already acknowledged block that arrived (skipped
        here, as a retransmission; a real client may take one for a lost ACK).
        dup_acks: acknowledge every block twice; dup_rrq: send the request twice;
        after_first: called when block 1 has arrived, before it is acknowledged;
        after_ack: called with the block number right after each ACK but the last;
        options: RFC 2347 options after the mode (option_bytes()): the OACK (in self.oack) is
        acknowledged and its blksize used."""
        self.rrq(name, extra=options)
        if dup_rrq:
            self.rrq(name, extra=options)
        self.dups, self.oack, self.blocks = 0, None, 0
        data, block, blksize, p = b"", 1, 512, None
        if options:
            oack, p = self.oack_or_data(timeout)
            if oack is None:
                return None, p
            blksize = int(oack.get("blksize", 512))
        while True:
            if p is None:
                p = self.recv(timeout)
            if p is None:
                return None, "timeout waiting for block %d" % block
            op = parse_op(p)
            if op == ERROR:
                return None, "error %r" % (parse_error(p),)
            if op != DATA:
                return None, "unexpected packet %r" % p[:20]
            n = struct.unpack(">H", p[2:4])[0]
            if n == (block - 1) & 0xFFFF:
                self.dups += 1          # a retransmission of the block acknowledged last
                p = None
                continue
            if n != block & 0xFFFF:
                return None, "block %d, expected %d" % (n, block)
            if len(p) - 4 > blksize:
                return None, "block %d of %d bytes, more than the blksize %d" % (n, len(p) - 4, blksize)
            data += p[4:]
            self.blocks += 1
            if block == 1 and after_first:
                after_first()
            self.ack(n)
            if dup_acks:
                self.ack(n)
            if len(p) - 4 < blksize:
                return data, None
            if after_ack:
                after_ack(block)
            block += 1
            p = None


def parse_op(p):
    return struct.unpack(">H", p[:2])[0] if len(p) >= 2 else None


def option_bytes(*pairs):
    """RFC 2347 options as a request carries them: name NUL value NUL ... (str or bytes)."""
    b = lambda x: x if isinstance(x, bytes) else str(x).encode()  # noqa: E731
    return b"".join(b(n) + b"\0" + b(v) + b"\0" for n, v in pairs)


def parse_oack(p):
    """An OACK's options {name: value}, else None."""
    if parse_op(p) != OACK:
        return None
    parts = p[2:].split(b"\0")
    return {parts[i].decode(errors="replace").lower(): parts[i + 1].decode(errors="replace")
            for i in range(0, len(parts) - 1, 2)}


def parse_error(p):
    """(code, message) of an ERROR packet, else None."""
    if parse_op(p) != ERROR or len(p) < 5:
        return None
    return struct.unpack(">H", p[2:4])[0], p[4:].split(b"\0")[0].decode(errors="replace")


def gmon_summary(path):
    """(samples, samples_out_of_range, sum of bins, number of arcs) of a gmon.out."""
    hdr, hist, arcs = h.gmon_parse(path)
    return hdr[2], hdr[3], sum(hist[4]), len(arcs)


def call_counts(elf, path):
    """{(caller, callee): calls} as GNU gprof reads path; (None, stderr) if it cannot."""
    rc, text, err = h.gprof(elf, path, "-b", "-q")
    if rc != 0:
        return None, err
    return h.call_graph(text), None
