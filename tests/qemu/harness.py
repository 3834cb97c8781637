"""Shared parts of the QEMU end-to-end tests: boot a firmware in QEMU with its gdb stub,
drive gdb-multiarch with gdb/gprof.gdb, run GNU gprof, parse its output, report TAP."""
import os
import re
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOARD = os.environ.get("BOARD", "mps2-an385")
BUILD = os.path.join(ROOT, os.environ.get("BUILD", "build"))
# The build directory of the configuration under test (the Makefile exports it; a
# non-default configuration builds in build/<board>-cfg-<sum>).
FW_DIR = os.path.join(ROOT, os.environ.get("PROFILE_TB", os.path.join(BUILD, BOARD)), "fw")
RUN_QEMU = os.path.join(ROOT, "boards", BOARD, "run-qemu")
GPROF_GDB = os.path.join(ROOT, "gdb", "gprof.gdb")
# Each board's tests write under build/test-out/<board>/.
OUT_ROOT = os.path.join(BUILD, "test-out", BOARD)


def board_var(name, board=BOARD):
    """A variable of boards/<board>/board.mk ("NAME := value"), following its includes of
    other boards' board.mk (a variant board); None if it has none."""
    path = os.path.join(ROOT, "boards", board, "board.mk")
    value = None
    with open(path) as f:
        for line in f:
            m = re.match(r"^include\s+boards/([^/\s]+)/board\.mk\s*$", line)
            if m:
                value = board_var(name, m.group(1)) if value is None else value
            m = re.match(r"^%s\s*:?=\s*(.*?)\s*$" % re.escape(name), line)
            if m:
                value = m.group(1)
    return value


# GNU gprof for the board's architecture: the reference reader.
GPROF = os.environ.get("GPROF") or (board_var("CROSS_COMPILE") or "arm-none-eabi-") + "gprof"
# Does the board have a network interface (and so TFTP tests)?
HAS_NET = os.path.exists(os.path.join(ROOT, "boards", BOARD, "net.mk"))


class Tap:
    """TAP output: one line per check, counted by tools/run-tests."""

    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, desc, detail=None):
        self.n += 1
        print("%s %d - %s" % ("ok" if cond else "not ok", self.n, desc))
        if not cond:
            self.failed += 1
            if detail is not None:
                for line in str(detail).splitlines()[:40]:
                    print("#   " + line)
        sys.stdout.flush()
        return cond

    def skip(self, desc, reason):
        """A check that cannot be made here: TAP's skip, counted as skipped, not passed."""
        self.n += 1
        print("ok %d - %s # SKIP %s" % (self.n, desc, reason))
        sys.stdout.flush()

    def todo(self, cond, desc, why, detail=None):
        """A check that a known defect makes fail: TAP's TODO, said but no failure."""
        if cond:
            return self.ok(True, desc)
        self.n += 1
        print("not ok %d - %s # TODO %s" % (self.n, desc, why))
        for line in str(detail if detail is not None else "").splitlines()[:40]:
            print("#   " + line)
        sys.stdout.flush()
        return False

    def eq(self, got, want, desc):
        return self.ok(got == want, "%s (%r)" % (desc, want), "got %r" % (got,))

    def done(self):
        print("1..%d" % self.n)
        return 1 if self.failed else 0


# Ports handed out to a QEMU of this machine's test runs and not yet bound by it: a port
# the kernel called free may be handed to two tests at once before either QEMU binds it
# (the second QEMU's stub then answers the first test's gdb). A reservation is a file named
# after the port holding its owner's pid, made atomically; one whose owner has exited is
# taken over. The files go when the owner closes its QEMU (release_port).
PORTS_DIR = os.path.join(os.environ.get("TMPDIR") or "/tmp", "gprof-rtos-test-ports")


def reserve_port(kind=socket.SOCK_STREAM):
    """A free 127.0.0.1 port (TCP or UDP) that no other test of this machine holds."""
    os.makedirs(PORTS_DIR, exist_ok=True)
    tag = "tcp" if kind == socket.SOCK_STREAM else "udp"
    for _ in range(100):
        with socket.socket(socket.AF_INET, kind) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        path = os.path.join(PORTS_DIR, "%s-%d" % (tag, port))
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            try:
                owner = int(open(path).read() or 0)
            except (OSError, ValueError):
                continue
            if owner and os.path.exists("/proc/%d" % owner):
                continue
            os.unlink(path)     # its test has ended: take it over
            continue
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        return port
    raise RuntimeError("no free port that another test does not hold")


def release_port(port, kind=socket.SOCK_STREAM):
    tag = "tcp" if kind == socket.SOCK_STREAM else "udp"
    try:
        os.unlink(os.path.join(PORTS_DIR, "%s-%d" % (tag, port)))
    except OSError:
        pass


def free_port():
    return reserve_port(socket.SOCK_STREAM)


class Qemu:
    """A firmware booted halted in QEMU, with its gdb stub on a free port; cwd: QEMU's
    current directory (where semihosting's files go); icount: run-qemu's -icount shift."""

    def __init__(self, elf, log, extra=(), cwd=None, icount=None, udp_ports=()):
        self.port = free_port()
        self.udp_ports = list(udp_ports)      # reserved for it (hostfwd): released with it
        self.log = open(log, "w")
        shift = ["--icount", str(icount)] if icount is not None else []
        self.proc = subprocess.Popen([RUN_QEMU, "--gdb", str(self.port), "--halt"] + shift + [elf] + list(extra),
                                     stdin=subprocess.DEVNULL, stdout=self.log,
                                     stderr=subprocess.STDOUT, cwd=cwd)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
        raise RuntimeError("QEMU did not open its gdb port; see " + log)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.log.close()
        release_port(self.port)
        for p in self.udp_ports:
            release_port(p, socket.SOCK_DGRAM)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def gdb_args(elf, port, commands):
    """gdb-multiarch's command line: batch mode, gprof.gdb loaded, connected to the stub on
    port (none if port is None), then commands."""
    args = ["gdb-multiarch", "-nx", "-batch", "-ex", "set pagination off",
            "-ex", "set confirm off", "-x", GPROF_GDB, elf]
    if port is not None:
        args += ["-ex", "target remote 127.0.0.1:%d" % port]
    for c in commands:
        args += ["-ex", c]
    return args


def gdb(elf, port, commands, timeout=120):
    """Run gdb-multiarch in batch mode with gprof.gdb loaded; returns (rc, output)."""
    p = subprocess.run(gdb_args(elf, port, commands), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=timeout, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout


def gprof(elf, gmon, *opts):
    p = subprocess.run([GPROF] + list(opts) + [elf, gmon], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


_ENTRY = re.compile(r"^\s*(?:[\d.]+\s+[\d.]+\s+)?(\d+)(?:/\d+)?\s+(\S+)(?: <cycle \d+>)? \[\d+\]$")
_PRIMARY = re.compile(r"^\[\d+\]\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(\d+)(?:\+(\d+))?\s+(\S+)")


def call_graph(text):
    """{(caller, callee): count} from gprof -b -q output (parent lines of each entry)."""
    arcs = {}
    block = []
    for line in text.splitlines():
        if line.startswith("-----"):
            _parse_block(block, arcs)
            block = []
        else:
            block.append(line)
    _parse_block(block, arcs)
    return arcs


def _parse_block(lines, arcs):
    primary = None
    for i, line in enumerate(lines):
        m = _PRIMARY.match(line)
        if m:
            primary = (i, m.group(3))
            break
    if not primary:
        return
    idx, callee = primary
    for line in lines[:idx]:
        m = _ENTRY.match(line)
        if m:
            arcs[(m.group(2), callee)] = int(m.group(1))


def flat(text):
    """{name: (percent_time, calls or None)} from gprof -b -p output."""
    rows = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 4 and re.match(r"^[\d.]+$", f[0]) and re.match(r"^[\d.]+$", f[1]):
            name = f[-1]
            calls = int(f[3]) if len(f) == 7 else None
            rows[name] = (float(f[0]), calls)
    return rows


def _counters(hdr):
    """The header with its calls not recorded apart from the check byte above them
    (doc/format.md), which must be right."""
    magic, version, samples, overhead, word = hdr
    arcs = word & 0xFFFFFF
    x = samples ^ overhead ^ arcs
    check = 0xA5 ^ (x & 0xFF) ^ ((x >> 8) & 0xFF) ^ ((x >> 16) & 0xFF) ^ (x >> 24)
    if word >> 24 != check:
        raise ValueError("gmon.out header: check byte 0x%02x, not 0x%02x" % (word >> 24, check))
    return (magic, version, samples, overhead, arcs)


def gmon_header(path):
    """(magic, version, samples, samples_out_of_range, arcs_not_recorded) of a 32-bit LE file."""
    import struct
    with open(path, "rb") as f:
        data = f.read(20)
    return _counters((data[:4],) + struct.unpack("<IIII", data[4:20]))


def gmon_records(path, addr_bytes=None):
    """(header, [histogram records (low, high, nbins, rate, bins)] in file order, arcs
    [(from, self, count)]) of a little-endian gmon.out, decoded field by field. Addresses
    are 4 bytes (32-bit targets) or 8 (RISC-V RV64): addr_bytes, or whichever of the two
    decodes the whole file."""
    import struct
    data = open(path, "rb").read()
    if addr_bytes is None:
        for width in (4, 8):
            try:
                return gmon_records(path, width)
            except (ValueError, struct.error):
                pass
        raise ValueError("%s: not a gmon.out with 4- or 8-byte addresses" % path)
    a = "I" if addr_bytes == 4 else "Q"
    hdr = _counters((data[:4],) + struct.unpack_from("<IIII", data, 4))
    pos, hists, arcs = 20, [], []
    while pos < len(data):
        tag = data[pos]
        pos += 1
        if tag == 0:
            low, high, n, rate = struct.unpack_from("<%s%sII" % (a, a), data, pos)
            pos += 2 * addr_bytes + 8 + 16
            bins = struct.unpack_from("<%dH" % n, data, pos)
            pos += 2 * n
            hists.append((low, high, n, rate, bins))
        elif tag == 1:
            arcs.append(struct.unpack_from("<%s%sI" % (a, a), data, pos))
            pos += 2 * addr_bytes + 4
        else:
            raise ValueError("%s: bad tag %d at offset %d" % (path, tag, pos - 1))
    return hdr, hists, arcs


def hist_counts(hists):
    """{bucket address: count} over histogram records, as GNU gprof reads them: records
    of the same range add up (a bucket past 65535 samples is written as several)."""
    counts = {}
    for low, high, n, rate, bins in hists:
        size = (high - low) // n
        for i, c in enumerate(bins):
            counts[low + i * size] = counts.get(low + i * size, 0) + c
    return counts


def gmon_parse(path, addr_bytes=None):
    """(header, hist (low, high, nbins, rate, bins), arcs [(from, self, count)]) of a
    little-endian gmon.out (gmon_records). hist is the histogram as gprof reads it: every
    bucket of every record in address order with its count, records of the same range added
    up (so a count may exceed 65535); low and high are the first bucket's start and the last
    one's end. None if the file has no histogram."""
    hdr, hists, arcs = gmon_records(path, addr_bytes)
    if not hists:
        return hdr, None, arcs
    counts = hist_counts(hists)
    addrs = sorted(counts)
    size = (hists[0][1] - hists[0][0]) // hists[0][2]
    hist = (addrs[0], addrs[-1] + size, len(addrs), hists[0][3], tuple(counts[x] for x in addrs))
    return hdr, hist, arcs


# The sample path: what the profile timer's interrupt runs besides its handler (board.mk's
# BOARD_PROFILE_ISR): the package's sample code and the boards' sample functions (the
# timer's acknowledge and next period). A trace region that enters the handler ends at the
# first instruction outside these and outside _stext.._etext (vectors, trap entries).
# (a bin's first overflow entry: profile_bin_store, whose loop that moves the entries
# after it GCC makes a memmove call)
SAMPLE_PATH = ("__profile_hit", "hit_miss", "profile_slow_path", "profile_clear",
               "profile_clear_counts", "memset", "profile_stack_sample",
               "hist_count_slow", "profile_bin_store", "profile_bin_count", "profile_ovf_lower_bound",
               "memmove",
               "cmsdk_profile_sample", "nrf51_profile_sample", "sp804_profile_sample",
               "hal_mtimer_isr", "mtimer_isr_shared", "armv7a_irq_dispatch")


class ExecTrace:
    """QEMU's exec log, read as it is written (a FIFO): one "Trace N: host [cs/pc/...]"
    line an instruction when single-stepping. Iterating gives (pc, in_isr) for each
    instruction executed: in_isr from the profile timer's interrupt entry (isr_entry) to the
    first PC for which in_sample_path is false. An instruction logged twice in a row counts
    once: under -icount an instruction that reads a device ends its block and runs again,
    logged again (no instruction of the workloads branches to itself)."""

    def __init__(self, path, isr_entry, in_sample_path):
        self.path, self.isr_entry, self.in_sample_path = path, isr_entry, in_sample_path
        self.isr_entries = 0

    def __iter__(self):
        in_isr, last = False, None
        with open(self.path, "rb") as f:
            for line in f:
                if not line.startswith(b"Trace"):
                    continue
                pc = int(line.split(b"/", 2)[1], 16) & ~1
                if pc == last:
                    continue
                last = pc
                if pc == self.isr_entry:
                    in_isr = True
                    self.isr_entries += 1
                elif in_isr and not self.in_sample_path(pc):
                    in_isr = False
                yield pc, in_isr
