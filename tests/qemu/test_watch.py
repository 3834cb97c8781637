#!/usr/bin/env python3
"""One command from a running target to the answer, and a live view of it, used as a
person uses them.

  - `tgprof -b -p --gdb=HOST:PORT watchprog.elf` against the running firmware
    (tests/qemu/watchprog.c, in its first phase): exit 0, gmon.out left in the current
    directory, GNU gprof's flat profile of that file the same as tgprof's, alpha's calls
    counted; a second fetch starts from where the first left off (gprof_dump reset);
  - the live view in tmux, read with capture-pane: `--gdb=... --watch=1` shows alpha with
    nearly all of the last interval while the firmware is in its first phase, then beta
    once it has changed phase (alpha still in the since-start column), the since-start
    target time growing; and the tasks (each phase names itself a task with
    profile_task_switch, so gdb's gprof_dump writes gmon.tasks) likewise; q quits with exit status 0 and leaves the session's gmon.out,
    whose sample count is the last screen's since-start samples, exactly, and which GNU
    gprof reads with both phases' functions;
  - `--tftp=127.0.0.1:PORT` against the TFTP firmware: two consecutive one-command runs,
    each a profile GNU gprof reads, the second only what came after the first (the
    daemon's reset), no gmon.stacks left beside (the target serves none); `--watch` over
    TFTP with its output to a file (no terminal) refreshes, and SIGTERM ends it leaving
    gmon.out;
  - the daemon's gmon.tasks: refused before a gmon.out was delivered; fetched by --tftp
    with it, the same snapshot, read by tgprof --tasks, served again byte for byte;
  - tgprof's TFTP client asks for 1428-byte blocks (RFC 2348): against a server granting
    them and one that knows no options, a file ending on a block boundary, an empty one,
    and every block sent twice, the file arrives byte for byte;
  - a port where nothing answers: an error in words within seconds, exit 1.
"""
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402
import tftplib as tl  # noqa: E402

OUT = os.path.join(h.OUT_ROOT, "watch")
TGPROF = os.path.abspath(os.path.join(h.BUILD, "host", "tgprof"))
ROW = re.compile(r"^\s*([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+(\S+)\s*$")


def run(args, cwd, timeout=60):
    p = subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def header_samples(path):
    """The target's sample count in a gmon.out header (doc/format.md: word at offset 8)."""
    return struct.unpack_from("<I", open(path, "rb").read(), 8)[0]


def gprof_flat(elf, gmon):
    return run([h.GPROF, "-b", "-p", elf, gmon], os.path.dirname(gmon))[1]


def calls_of(flat, name):
    for line in flat.splitlines():
        f = line.split()
        if f and f[-1] == name and len(f) >= 6:
            return int(f[3])
    return 0


def screen(session):
    return subprocess.run(["tmux", "capture-pane", "-p", "-t", session], stdout=subprocess.PIPE,
                          text=True).stdout


TASK_ROW = re.compile(r"^\s*([0-9.]+)\s+([0-9.]+)\s+(task-\S+)\s*$")


def parse_screen(text):
    """(refresh number, since-start seconds, since-start samples, {function: (last %,
    total %, calls/s)}, {task: (last %, total %)}, the last interval's samples) or None."""
    m = re.search(r"refresh (\d+),", text)
    s = re.search(r"since start ([0-9.]+) s", text)
    n = re.search(r"samples: last (\d+), since start (\d+);", text)
    if not (m and s and n):
        return None
    rows, tasks = {}, {}
    for line in text.splitlines():
        r = ROW.match(line)
        if r:
            rows[r.group(4)] = tuple(float(x) for x in r.group(1, 2, 3))
        r = TASK_ROW.match(line)
        if r:
            tasks[r.group(3)] = (float(r.group(1)), float(r.group(2)))
    return int(m.group(1)), float(s.group(1)), int(n.group(2)), rows, tasks, int(n.group(1))


def one_shot_gdb(t, elf, port):
    d = os.path.join(OUT, "gdb")
    os.makedirs(d)
    rc, out, err = run([TGPROF, "-b", "-p", "--gdb=127.0.0.1:%d" % port, elf], d)
    gmon = os.path.join(d, "gmon.out")
    t.ok(rc == 0 and os.path.exists(gmon),
         "tgprof -b -p --gdb=HOST:PORT app.elf: exit 0, gmon.out in the current directory",
         "rc %d\n%s" % (rc, err))
    if not os.path.exists(gmon):
        return
    t.ok(out == gprof_flat(elf, gmon) and calls_of(out, "alpha") > 0,
         "its report is GNU gprof's flat profile of the same file, alpha called (%d)"
         % calls_of(out, "alpha"), out)
    first = header_samples(gmon)
    time.sleep(0.5)
    rc, out, err = run([TGPROF, "-b", "-p", "--gdb=127.0.0.1:%d" % port, elf], d)
    second = header_samples(gmon)
    t.ok(rc == 0 and 0 < second and calls_of(out, "alpha") > 0,
         "a second run fetches what came after the first (%d samples, then %d)"
         % (first, second), err)
    # Each fetch restarted the target's counts (gprof_dump): what the two resets retired is
    # exactly what the two files hold, nothing lost and nothing twice.
    _, out = h.gdb(elf, port, ["print profile_state.samples_retired", "detach"])
    m = re.search(r"\$1 = (\d+)", out)
    t.eq(int(m.group(1)) if m else None, first + second,
         "the target's counts restarted at each fetch: the samples its resets retired are "
         "the two files' %d + %d" % (first, second))


def watch_gdb(t, elf, port):
    d = os.path.join(OUT, "tmux")
    os.makedirs(d)
    session = "tgprof-watch-%d" % os.getpid()
    # (the pane stays after tgprof ends, to read its last screen)
    cmd = "%s --gdb=127.0.0.1:%d --watch=1 %s; echo $? > exit-status; sleep 60" % (
        TGPROF, port, elf)
    subprocess.run(["tmux", "kill-session", "-t", session], stderr=subprocess.DEVNULL)
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "30",
                    "-c", d, cmd], check=True)
    screens, alpha_screen, beta_screen, final = [], None, None, None
    deadline = time.time() + 180
    try:
        while time.time() < deadline and not beta_screen:
            time.sleep(0.5)
            text = screen(session)
            p = parse_screen(text)
            if not p or (screens and p[0] == screens[-1][0]):
                continue
            screens.append(p)
            rows, tasks = p[3], p[4]
            # (a screen whose interval saw the firmware change phase has both tasks in it:
            # the screens judged are the first whose last interval lay inside one phase)
            if not alpha_screen and rows.get("alpha", (0,))[0] >= 90 and \
               tasks.get("task-alpha", (0,))[0] >= 99:
                alpha_screen = (p, text)
            if alpha_screen and rows.get("beta", (0,))[0] >= 90 and \
               rows.get("alpha", (0, 0))[1] > 0 and tasks.get("task-beta", (0,))[0] >= 99:
                beta_screen = (p, text)
        tasks_a = alpha_screen and alpha_screen[0][4]
        tasks_b = beta_screen and beta_screen[0][4]
        t.ok(tasks_a and tasks_a.get("task-alpha", (0,))[0] >= 99 and tasks_b
             and tasks_b.get("task-beta", (0,))[0] >= 99
             and tasks_b.get("task-alpha", (0, 0))[1] > 0,
             "per task: task-alpha has the last interval in phase one, then task-beta, "
             "task-alpha still in the since-start column",
             "%r\n%r" % (tasks_a, tasks_b))
        t.ok(alpha_screen, "the live view: alpha has >= 90% of the last interval in phase one",
             screens and screen(session))
        t.ok(beta_screen, "then beta has >= 90% of the last interval, alpha still in the "
             "since-start column (the view follows the firmware's phase)",
             screen(session))
        grew = all(b[1] >= a[1] for a, b in zip(screens, screens[1:])) and len(screens) >= 3
        t.ok(grew, "since-start target time grows from refresh to refresh (%d refreshes)"
             % len(screens), repr([s[:3] for s in screens]))
        # since start = the last screen's since start + this interval, exactly (refreshes
        # read one after the other: the intervals add up, none counted twice or lost)
        pairs = [(a, b) for a, b in zip(screens, screens[1:]) if b[0] == a[0] + 1]
        t.ok(pairs and all(b[2] == a[2] + b[5] for a, b in pairs),
             "since-start samples = the previous screen's + the last interval's, exactly "
             "(%d consecutive pairs)" % len(pairs),
             repr([(s[0], s[2], s[5]) for s in screens]))
        subprocess.run(["tmux", "send-keys", "-t", session, "q"])
        status_file = os.path.join(d, "exit-status")
        for _ in range(100):
            if os.path.exists(status_file) and open(status_file).read().strip():
                break
            time.sleep(0.1)
        status = open(status_file).read().strip() if os.path.exists(status_file) else "?"
        t.ok(status == "0", "q quits, exit status 0 (%s)" % status, screen(session))
        final = parse_screen(screen(session))     # the session's last refresh
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], stderr=subprocess.DEVNULL)
    gmon = os.path.join(d, "gmon.out")
    if not t.ok(os.path.exists(gmon), "the session's profile is left in gmon.out"):
        return
    t.eq(header_samples(gmon), final[2] if final else -1,
         "its samples are the last screen's since-start samples, exactly")
    flat = gprof_flat(elf, gmon)
    t.ok(calls_of(flat, "alpha") > 0 and calls_of(flat, "beta") > 0,
         "GNU gprof reads it: alpha (%d calls) and beta (%d calls), both phases"
         % (calls_of(flat, "alpha"), calls_of(flat, "beta")), flat)


def tasks_file(t, tg, d, gmon):
    """The gmon.tasks --tftp fetched with gmon.out: the same snapshot (its samples are
    gmon.out's, its records add up to them; this firmware registers no task: all "main"),
    tgprof --tasks reads it, and the daemon serves it again byte for byte."""
    path = os.path.join(d, "gmon.tasks")
    if not t.ok(os.path.exists(path), "--tftp fetched gmon.tasks beside gmon.out"):
        return
    data = open(path, "rb").read()
    magic, _, _, _, _, _, n, samples, _ = struct.unpack_from("<4sIIB3sIIII", data)
    recs, off = [], 32
    for _ in range(n):
        tid, got, namelen = struct.unpack_from("<III", data, off)
        recs.append((data[off + 12:off + 12 + namelen].decode(), got))
        off += 12 + (namelen + 3) // 4 * 4
    t.ok(magic == b"gmtk" and samples == header_samples(gmon) and
         sum(r[1] for r in recs) == samples and recs and recs[0][0] == "main",
         "gmon.tasks: gmon.out's %d samples, its records add up to them (%r)" % (samples, recs))
    rc, out, err = run([TGPROF, "--tasks", tg.elf, gmon], d)
    t.ok(rc == 0 and re.search(r"^task\b", out, re.M) and re.search(r"^main\s+%d\s+100\.00"
                                                               % samples, out, re.M),
         "tgprof --tasks: main has every sample", out + err)
    again = os.path.join(OUT, "again.tasks")
    rc, hpa, _ = tl.tftp_hpa(tg.port, again, name="gmon.tasks")
    t.ok(os.path.exists(again) and open(again, "rb").read() == data,
         "the daemon serves gmon.tasks again, byte for byte (a get resets nothing)", hpa)


def tftp(t):
    with tl.Target("watch") as tg:
        tg.wait_console(r"tftp-app: ready")
        d = os.path.join(OUT, "tftp")
        os.makedirs(d)
        open(os.path.join(d, "gmon.stacks"), "w").write("stale")
        spec = "--tftp=127.0.0.1:%d" % tg.port
        early = os.path.join(OUT, "early.tasks")
        rc, hpa, _ = tl.tftp_hpa(tg.port, early, name="gmon.tasks")
        t.ok("gmon.tasks goes with a gmon.out: get gmon.out first" in hpa,
             "the daemon: gmon.tasks before any gmon.out delivered is refused, in words", hpa)
        time.sleep(0.5)
        rc, out, err = run([TGPROF, "-b", "-p", spec, tg.elf], d)
        gmon = os.path.join(d, "gmon.out")
        tasks_file(t, tg, d, gmon)
        ok = rc == 0 and os.path.exists(gmon)
        t.ok(ok and out == gprof_flat(tg.elf, gmon) and "work_" in out,
             "tgprof -b -p --tftp=HOST:PORT app.elf: exit 0, GNU gprof's flat profile of "
             "the gmon.out it left", "rc %d\n%s%s" % (rc, out, err))
        t.ok(not os.path.exists(os.path.join(d, "gmon.stacks")),
             "a stale gmon.stacks beside it removed: the target serves none")
        first = header_samples(gmon) if ok else 0
        time.sleep(0.5)
        rc, out, err = run([TGPROF, "-b", "-p", spec, tg.elf], d)
        t.ok(rc == 0 and os.path.exists(gmon) and header_samples(gmon) > 0,
             "a second run: a new profile, what came after the first (%d, then %d samples)"
             % (first, header_samples(gmon) if os.path.exists(gmon) else 0), err)
        w = os.path.join(OUT, "tftp-watch")
        os.makedirs(w)
        with open(os.path.join(w, "screen.txt"), "w") as f:
            p = subprocess.Popen([TGPROF, spec, "--watch=0.5", tg.elf], cwd=w, stdout=f,
                                 stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
            text = ""
            for _ in range(150):
                time.sleep(0.1)
                text = open(os.path.join(w, "screen.txt")).read()
                if "refresh 3," in text:
                    break
            p.send_signal(signal.SIGTERM)
            _, err = p.communicate(timeout=30)
        t.ok(p.returncode == 0 and "refresh 3," in text and "\033[" not in text
             and os.path.exists(os.path.join(w, "gmon.out")),
             "--watch over TFTP, output to a file: plain refreshes; SIGTERM ends it, exit 0, "
             "gmon.out left", "rc %s\n%s\n%s" % (p.returncode, text[-1500:], err))


def fake_server(blksize, payload, seen, dup=False):
    """A one-transfer TFTP server on a free port, in a thread: it answers the read request
    with an OACK granting blksize (None: no options, RFC 1350's 512-byte blocks), then
    sends payload in blocks of that size, in lock step (with dup, each block twice, as a
    server whose ACK came late resends it); seen gets the request's fields. Returns the
    port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(10)

    def acked(n):
        """Waits for ACK n, passing over the duplicates of older ones."""
        while True:
            op, got = struct.unpack(">HH", sock.recvfrom(600)[0][:4])
            if op != 4 or got > n:
                return False
            if got == n:
                return True

    def serve():
        try:
            req, peer = sock.recvfrom(600)
            seen.extend(req[2:].split(b"\0")[:-1])
            size = blksize or 512
            if blksize:
                sock.sendto(b"\0\6blksize\0%d\0" % blksize, peer)
                if not acked(0):
                    return
            for n in range(len(payload) // size + 1):
                block = struct.pack(">HH", 3, n + 1) + payload[n * size:(n + 1) * size]
                for _ in range(2 if dup else 1):
                    sock.sendto(block, peer)
                if not acked(n + 1):
                    return
            seen.append(b"complete")
            for _ in range(2):      # gmon.stacks, gmon.tasks: not served here
                while True:
                    pkt, other = sock.recvfrom(600)
                    if pkt[:2] == b"\0\1":
                        break
                sock.sendto(b"\0\5\0\1not found\0", other)
        except (OSError, socket.timeout, struct.error):
            pass
        finally:
            sock.close()

    threading.Thread(target=serve, daemon=True).start()
    return sock.getsockname()[1]


def tftp_servers(t, gmon):
    """tgprof's client against servers of every kind a transfer meets: one granting blksize
    1428 and one without options; a file that ends on a block boundary (an empty last
    block), an empty file; every block sent twice."""
    real = open(gmon, "rb").read()
    cases = ((1428, real, False, "an OACK granting blksize 1428"),
             (None, real, False, "no options (RFC 1350, 512-byte blocks)"),
             (1428, real[:2 * 1428].ljust(2 * 1428, b"\0"), False,
              "blksize 1428, a file of exactly two blocks (an empty third)"),
             (None, b"", False, "no options, an empty file (one empty block)"),
             (None, real, True, "no options, every block sent twice"))
    for k, (blksize, payload, dup, what) in enumerate(cases):
        d = os.path.join(OUT, "server-%d" % k)
        os.makedirs(d)
        seen = []
        port = fake_server(blksize, payload, seen, dup)
        rc, out, err = run([TGPROF, "-b", "-p", "--tftp=127.0.0.1:%d" % port,
                            os.path.join(OUT, "watchprog.elf")], d)
        got = os.path.join(d, "gmon.out")
        t.ok(b"complete" in seen and os.path.exists(got) and open(got, "rb").read() == payload
             and seen[:4] == [b"gmon.out", b"octet", b"blksize", b"1428"],
             "--tftp against a server answering with %s: the file byte for byte (%d bytes)"
             % (what, len(payload)), "rc %d %r\n%s" % (rc, seen[:6], err))


def main():
    t = h.Tap()
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    if not shutil.which("tmux"):
        t.skip("the live view in tmux", "tmux not installed (tools/setup installs it)")
    src = os.path.join(h.FW_DIR, "watchprog.elf")
    elf = os.path.join(OUT, "watchprog.elf")
    shutil.copyfile(src, elf)
    with h.Qemu(elf, os.path.join(OUT, "qemu.log"), cwd=OUT) as q:
        h.gdb(elf, q.port, ["detach"])         # run (it was started halted)
        one_shot_gdb(t, elf, q.port)
        if shutil.which("tmux"):
            watch_gdb(t, elf, q.port)
    tftp(t)
    got = [g for g in (os.path.join(OUT, d, "gmon.out") for d in ("gdb", "tftp"))
           if os.path.exists(g)]
    if got:
        tftp_servers(t, got[0])
    else:
        t.ok(False, "a gmon.out to serve from TFTP servers of the test's own")
    nowhere = tl.free_udp_port()
    t0 = time.time()
    rc, out, err = run([TGPROF, "--tftp=127.0.0.1:%d" % nowhere, elf], OUT)
    t.ok(rc == 1 and "no answer in 5 s" in err and time.time() - t0 < 15,
         "--tftp to a port where nothing answers: exit 1 and a sentence (%.1f s)"
         % (time.time() - t0), err)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
