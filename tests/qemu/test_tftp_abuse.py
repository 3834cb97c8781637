#!/usr/bin/env python3
"""The TFTP daemon under abuse: raw UDP packets from the host (127.0.0.1 only) that a
daemon must survive: write requests, other names, netascii and other modes, truncated,
oversized and random packets, ERROR packets, a second client during a transfer, duplicate
requests and ACKs, a client that vanishes. Each gets an error or is ignored; the firmware
keeps profiling; a normal get succeeds afterwards; and over all the completed gets nothing
is lost or counted twice (abandoned transfers are merged back).

Also the daemon's start: profile_on() before the network says why the daemon cannot start,
and profile_on() called again once the network is up starts exactly one daemon."""
import os
import random
import re
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402
import tftplib as tl  # noqa: E402


def replies(port, send, wait=0.5):
    """Sends from a fresh client port; returns the packets that came back (waiting up to
    wait seconds for the first, then until none comes for 0.1 s)."""
    r = tl.Raw(port)
    try:
        send(r)
        first = r.recv(wait)
        return [first] + r.drain(0.1) if first is not None else []
    finally:
        r.close()


def main():
    t = h.Tap()
    delivered = []     # paths of the completed gets, in order

    def keep(tg, name, data):
        path = os.path.join(tg.dir, name)
        with open(path, "wb") as f:
            f.write(data)
        delivered.append(path)
        return path

    with tl.Target("abuse", boot_mode=1) as tg:
        tg.wait_console(r"tftp-app: ready")
        con = tg.console()
        down = con.find("profile: TFTP daemon not started: the network is not up")
        up = con.find("net: en0 up")
        t.ok(0 <= down < up, "profile_on before the network: the daemon says why it cannot start", con)
        t.ok("tftp-app: profile_on before the network: 0" in con,
             "profiling itself is on without the network")
        t.eq(con.count("profile: TFTP daemon serving gmon.out"), 1,
             "profile_on twice more once the network is up: one daemon")
        port = tg.port
        time.sleep(0.5)
        beats0 = tg.heartbeats()

        # ---- requests the daemon refuses with a proper error ----
        def error_code(pkts):
            errs = [tl.parse_error(p) for p in pkts]
            return errs[0][0] if len(errs) == 1 and errs[0] else ("replies", pkts)

        cases = [
            ("write request", lambda r: r.rrq(op=tl.WRQ), 2),
            ("read request for another file", lambda r: r.rrq(name="etc/passwd"), 1),
            ("netascii mode", lambda r: r.rrq(mode="netascii"), 0),
            ("mail mode", lambda r: r.rrq(mode="mail"), 0),
            ("request without a mode", lambda r: r.send(b"\0\x01gmon.out\0"), 4),
            ("request with a 1400-byte file name", lambda r: r.rrq(name="g" * 1400), 4),
            ("ACK with no transfer", lambda r: r.ack(1), 2),
            ("DATA with no transfer", lambda r: r.send(struct.pack(">HH", 3, 1) + b"x" * 512), 2),
            ("unknown opcode 9", lambda r: r.send(struct.pack(">HH", 9, 0)), 4),
        ]
        for desc, send, code in cases:
            got = replies(port, send)
            t.eq(error_code(got), code, "%s: one ERROR packet with code" % desc)
        got = replies(port, lambda r: r.rrq(mode="netascii"))
        msg = tl.parse_error(got[0])[1] if got and tl.parse_error(got[0]) else ""
        t.ok("octet" in msg, "the netascii refusal says to use octet mode (%r)" % msg)

        # ---- packets that get an error or nothing, never data ----
        def errors_or_nothing(pkts):
            return all(tl.parse_op(p) == tl.ERROR for p in pkts)

        junk = [
            ("an empty datagram", b""),
            ("a 1-byte packet", b"\0"),
            ("a 2-byte RRQ opcode", b"\0\x01"),
            ("a 3-byte ACK", b"\0\x04\0"),
            ("a request without NULs", b"\0\x01gmon.out"),
            ("a 1472-byte packet", b"\0\x01" + b"A" * 1470),
            ("an 8000-byte datagram (fragmented)", b"\0\x01" + b"B" * 7998),
            ("an ERROR with no transfer", struct.pack(">HH", 5, 0) + b"bye\0"),
        ]
        for desc, data in junk:
            got = replies(port, lambda r: r.send(data))
            t.ok(errors_or_nothing(got), "%s: an error or nothing (%d replies)" % (desc, len(got)), got)
        t.eq(replies(port, lambda r: r.error()), [], "an ERROR packet is never answered")

        rnd = random.Random(3)
        r = tl.Raw(port)
        for i in range(200):
            data = bytes(rnd.getrandbits(8) for _ in range(rnd.randrange(0, 700)))
            if i % 4 == 0:
                data = struct.pack(">H", rnd.randrange(0, 7)) + data   # plausible opcodes
            r.send(data)
            time.sleep(0.005)
        got = r.drain(0.5)
        r.close()
        t.ok(errors_or_nothing(got), "200 random packets: %d errors, never data" % len(got),
             [p[:16] for p in got if tl.parse_op(p) != tl.ERROR])

        # ---- transfers that go wrong ----
        a, b = tl.Raw(port), tl.Raw(port)
        a.rrq()
        first = a.recv(2)
        t.ok(first is not None and tl.parse_op(first) == tl.DATA, "a read starts (block 1)", first)
        a.error(0, "client gives up")
        data, why = b.get()
        t.ok(data is not None, "an ERROR from the client ends its transfer at once: the next get "
             "succeeds", why)
        if data:
            keep(tg, "after-error.gmon", data)
        t.eq(a.drain(0.3), [], "the client that sent the ERROR gets no answer and no more data")

        errs = []
        data, why = a.get(after_first=lambda: errs.append(replies(port, lambda r: r.rrq())))
        second = errs[0] if errs else []
        t.ok(len(second) == 1 and tl.parse_error(second[0]) and tl.parse_error(second[0])[0] == 2,
             "a second client during a transfer gets an ERROR (%s)"
             % (tl.parse_error(second[0]) if second else None,), second)
        t.ok(data is not None, "... and the first client's transfer completes", why)
        if data:
            keep(tg, "with-second-client.gmon", data)

        # Junk during a transfer: from the client itself (DATA, an unknown opcode, a short
        # packet: ignored, no ERROR that would make a real client give up) and from a third
        # party (an ERROR, which must not end someone else's transfer, and junk: errors or
        # nothing).
        third = []

        def junk_mid_transfer():
            a.send(struct.pack(">HH", tl.DATA, 1) + b"x" * 100)
            a.send(struct.pack(">HH", 9, 0))
            a.send(b"\0")
            third.append(replies(port, lambda r: r.error(0, "not yours")))
            third.append(replies(port, lambda r: r.send(b"\0\x07" + b"z" * 40)))
        data, why = a.get(after_first=junk_mid_transfer)
        t.ok(data is not None, "junk from the client and a stranger's ERROR during a transfer: "
             "the client gets no ERROR and its get completes", why)
        t.ok(len(third) == 2 and third[0] == [] and errors_or_nothing(third[1]),
             "... the stranger's ERROR is not answered, its junk gets an error or nothing", third)
        if data:
            keep(tg, "junk-mid-transfer.gmon", data)

        data, why = a.get(dup_acks=True)
        t.ok(data is not None, "every block acknowledged twice: duplicates ignored, the get completes", why)
        if data:
            keep(tg, "dup-acks.gmon", data)
        data, why = b.get(dup_rrq=True)
        t.ok(data is not None, "a request sent twice: one transfer, the get completes", why)
        if data:
            keep(tg, "dup-rrq.gmon", data)

        # A client that vanishes after block 1: lwIP resends it, then gives the transfer up.
        a.close()
        a = tl.Raw(port)
        t0 = time.time()
        a.rrq()
        first = a.recv(2)
        retx = a.recv(30)
        t_retx = time.time() - t0
        t.ok(retx is not None and retx == first,
             "a silent client: block 1 resent after %.2f s of host time" % t_retx)
        while True:
            got = replies(port, lambda r: r.rrq(), wait=0.2)
            if got and tl.parse_op(got[0]) == tl.DATA or time.time() - t0 > 60:
                break
            time.sleep(0.1)
        t_free = time.time() - t0
        t.ok(time.time() - t0 <= 60, "... and the transfer given up after %.2f s of host time" % t_free)
        time.sleep(0.3)   # that probe's own transfer (never acknowledged) must go away too
        rc = None
        for _ in range(60):
            got = replies(port, lambda r: r.rrq(name="nosuch"), wait=0.2)
            if got and tl.parse_error(got[0]) and tl.parse_error(got[0])[0] == 1:
                break
            time.sleep(0.2)
        a.close()
        b.close()

        p = os.path.join(tg.dir, "tftp-hpa.gmon")
        rc, out, s = tl.tftp_hpa(port, p)
        t.ok(rc == 0 and os.path.exists(p) and os.path.getsize(p) > 0,
             "after all that, a normal get with tftp-hpa succeeds", out)
        if os.path.exists(p):
            delivered.append(p)

        beats1 = tg.heartbeats()
        t.ok(len(beats1) > len(beats0) and beats1[-1][1] > beats0[-1][1] and beats1[-1][2] > beats0[-1][2],
             "the firmware kept running and profiling (iterations %d -> %d, samples %d -> %d)"
             % (beats0[-1][1], beats1[-1][1], beats0[-1][2], beats1[-1][2]))

        iterations, samples_total = tg.quiesce()
        p = os.path.join(tg.dir, "final.gmon")
        rc, out, s = tl.tftp_hpa(port, p)
        t.ok(rc == 0 and os.path.exists(p), "a final get of the still data", out)
        delivered.append(p)
        stats = tg.stats()

        # profile_on() again in the middle of a transfer: the snapshot is gone, the transfer
        # fails with an ERROR (lwIP's "Error occured while reading the file."), and the daemon
        # goes on (the same one).
        a = tl.Raw(port)
        a.rrq()
        first = a.recv(2)
        tg.gdb(["set var restart = 1"])
        tg.wait_console(r"tftp-app: restarted: profile_on: 0")
        a.ack(1)
        got = a.drain(0.5)
        a.close()
        t.ok(first is not None and len(got) == 1 and tl.parse_op(got[0]) == tl.ERROR,
             "profile_on() during a transfer: the transfer ends with an ERROR (%r)"
             % (tl.parse_error(got[0]) if got else None,), got)
        p = os.path.join(tg.dir, "after-restart.gmon")
        rc, out, s = tl.tftp_hpa(port, p)
        t.ok(rc == 0 and os.path.exists(p) and os.path.getsize(p) > 0 and
             tl.gmon_summary(p)[0] > 0, "... and the next get succeeds, with the new data", out)

        # profile_on() again after the client got the last block, before its final ACK:
        # tftp_read never sees the restart, the ACK makes lwIP close the transfer. The
        # snapshot's data is gone: abandoned, not completed, and no "counters reset".
        before = tg.stats()
        a = tl.Raw(port)
        a.rrq()
        last, block = None, 1
        while last is None:
            p = a.recv(2)
            if p is None or tl.parse_op(p) != tl.DATA or struct.unpack(">H", p[2:4])[0] != block:
                break
            if len(p) - 4 < 512:
                last = block
            else:
                a.ack(block)
                block += 1
        restarts = tg.console().count("tftp-app: restarted: profile_on: 0")
        tg.gdb(["set var restart = 1"])
        deadline = time.time() + 30
        while (tg.console().count("tftp-app: restarted: profile_on: 0") == restarts and
               time.time() < deadline):
            time.sleep(0.05)
        con = tg.console()
        closes, sent = con.count("profile: tftp: "), con.count("counters reset")
        a.ack(last or 0)
        while tg.console().count("profile: tftp: ") == closes and time.time() < deadline + 10:
            time.sleep(0.05)
        a.close()
        time.sleep(0.3)   # app_tick copies the daemon's counters after network_poll()
        after = tg.stats()
        con = tg.console()
        t.ok(last is not None and after.get("completed") == before.get("completed") and
             after.get("abandoned") == before.get("abandoned", 0) + 1 and
             con.count("counters reset") == sent and
             re.search(r"profile: tftp: transfer of gmon.out ended by profile_on\(\)/profile_off\(\) "
                       r"after (\d+) of \1 bytes; its data was discarded", con),
             "profile_on() after the last block, before its ACK: the transfer counts as abandoned "
             "(its data was discarded), not completed, and no \"counters reset\" (block %s; %r -> %r)"
             % (last, before, after), con[-600:])

        tg.gdb(["set var restart = 2"])
        tg.wait_console(r"tftp-app: profile_off")
        got = replies(port, lambda r: r.rrq())
        t.ok(len(got) == 1 and tl.parse_error(got[0]) == (0, "profiling is off"),
             "after profile_off(): a get is answered \"profiling is off\"", got)
        con = tg.console()
        elf = tg.elf
        t.eq(con.count("profile: TFTP daemon serving gmon.out"), 1, "... still one daemon")

    # The daemon's port taken by another service at profile_on(): profiling starts, the
    # daemon says why it did not, and starts at the next profile_on() once the port is free.
    with tl.Target("abuse-port", boot_mode=2) as tp:
        tp.wait_console(r"tftp-app: ready")
        con = tp.console()
        t.ok("tftp-app: another service on UDP port 69: 0" in con and
             "profile: TFTP daemon not started: another service is on UDP port 69" in con and
             "tftp-app: profile_on: 0" in con,
             "the port taken at profile_on(): profiling on, the daemon says why it did not start",
             con)
        t.ok(con.count("profile: TFTP daemon serving gmon.out") == 1 and
             "tftp-app: port free again, profile_on: 0" in con,
             "the port free again: the next profile_on() starts the daemon", con)
        p = os.path.join(tp.dir, "port.gmon")
        rc, out, s = tl.tftp_hpa(tp.port, p)
        t.ok(rc == 0 and os.path.exists(p) and os.path.getsize(p) > 0, "... and it serves", out)

    total = 0
    calls = 0
    for f in delivered:
        samples, oor, bins, narcs = tl.gmon_summary(f)
        print("# %s: %d samples (%d in bins, %d outside)" % (os.path.basename(f), samples, bins, oor))
        total += samples
        cg, err = tl.call_counts(elf, f)
        calls += (cg or {}).get(("main", "work_a"), 0)
    t.eq(total, samples_total, "samples over the %d completed gets = the target's samples_total "
         "(abandoned transfers merged back, nothing lost or counted twice)" % len(delivered))
    t.eq(calls, iterations, "main -> work_a over the completed gets = the loop's iterations")
    t.eq(stats.get("completed"), len(delivered), "daemon: completed transfers")
    t.ok(stats.get("abandoned", 0) >= 2, "daemon: the aborted and the vanished transfers were "
         "abandoned (%d)" % stats.get("abandoned", 0))
    t.ok("lwip: assertion" not in con, "no lwIP assertion on the console", con[-2000:])
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
