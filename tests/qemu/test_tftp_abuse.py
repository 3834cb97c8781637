#!/usr/bin/env python3
"""The TFTP daemon under abuse: raw UDP packets from the host (127.0.0.1 only) that a
daemon must survive: write requests, other names, netascii and other modes, truncated,
oversized and random packets, ERROR packets, a second client during a transfer, duplicate
requests and ACKs, a client that vanishes; and option negotiation (RFC 2347-2349): blksize
from 8 to the MTU's 1468, tsize, unknown and garbage options ignored, bad values (blksize
0, 7, 65465, not a number), options given twice, missing NULs and oversized requests
refused with an ERROR in words, an OACK acknowledged wrongly or refused. Each gets an error or is ignored; the firmware
keeps profiling; a normal get succeeds afterwards; and over all the completed gets nothing
is lost or counted twice (abandoned transfers are merged back).

One client cannot hold the daemon (CYGNUM_PROFILE_TFTP_HOLD_MS, 1000 ms by default): a
client that never acknowledges is taken over by the first other client to acknowledge
block 1 (and gets no second block 1); one that stops acknowledging yields after the hold
time to the next request, and each valid ACK starts the hold time again; and
tftp-hpa gets gmon.out every time while an attacker sends a read request from a fresh port
every 1.5 s, or every 0.3 s, of guest time and never acknowledges.

Also the daemon's start: profile_on() before the network says why the daemon cannot start,
and profile_on() called again once the network is up starts exactly one daemon; a first
profile_on() that fails still starts it, and a client is told "profiling is off" at once."""
import os
import random
import re
import struct
import sys
import threading
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
        return answer(r, wait)
    finally:
        r.close()


def answer(r, wait=2.0):
    """The packets that come back to r: the first within wait seconds (a loaded machine may
    take a while), then every one until none comes for 0.1 s."""
    first = r.recv(wait)
    return [first] + r.drain(0.1) if first is not None else []


def main():
    t = h.Tap()
    delivered = []     # paths of the completed gets, in order

    def keep(tg, name, data):
        """Writes a completed get's data (None: the get failed, nothing to keep)."""
        if data is None:
            return None
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
        got = replies(port, lambda r: r.rrq(name="gmon.stacks"))
        err = tl.parse_error(got[0]) if len(got) == 1 else None
        t.ok(err is not None and err[0] == 1 and "CYGPKG_PROFILE_STACKS" in err[1],
             "gmon.stacks without the stack-profiling mode: ERROR 1 naming the option (%r)" % (err,))

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
        keep(tg, "after-error.gmon", data)
        t.eq(a.drain(0.3), [], "the client that sent the ERROR gets no answer and no more data")

        # A second client while the first has acknowledged nothing is offered block 1 of the
        # same snapshot (the first to acknowledge it gets the transfer: here the first
        # client); once the first has acknowledged a block, it gets no answer (no ERROR,
        # which would make it give up: it sends its request again later).
        offers, silent = [], []
        data, why = a.get(after_first=lambda: offers.append(replies(port, lambda r: r.rrq())),
                          after_ack=lambda n: n == 2 and silent.append(replies(port, lambda r: r.rrq(), wait=0.3)))
        offer = offers[0] if offers else []
        t.ok(len(offer) == 1 and offer[0][:4] == struct.pack(">HH", tl.DATA, 1) and data is not None
             and offer[0][4:] == data[:512],
             "a second client while the first has acknowledged nothing: offered block 1 of the "
             "same snapshot", offer)
        t.eq(silent, [[]], "a second client once the first has acknowledged a block: no answer")
        t.ok(data is not None, "... and the first client's transfer completes", why)
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
        keep(tg, "junk-mid-transfer.gmon", data)

        data, why = a.get(dup_acks=True)
        t.ok(data is not None, "every block acknowledged twice: duplicates ignored, the get completes", why)
        keep(tg, "dup-acks.gmon", data)
        data, why = b.get(dup_rrq=True)
        t.ok(data is not None, "a request sent twice: one transfer, the get completes", why)
        keep(tg, "dup-rrq.gmon", data)

        # ---- option negotiation: blksize (RFC 2348), tsize (RFC 2349), in an OACK (RFC 2347) ----
        opts = tl.option_bytes
        data, why = b.get(options=opts(("blksize", 1428), ("tsize", 0)))
        size = len(data or b"")
        t.ok(data is not None and b.oack == {"blksize": "1428", "tsize": str(size)} and
             b.blocks == size // 1428 + 1,
             "blksize 1428 and tsize 0: an OACK with blksize 1428 and tsize %s, acknowledged with "
             "ACK 0, then %d blocks for %d bytes" % (b.oack and b.oack.get("tsize"), b.blocks, size), why)
        keep(tg, "blksize-1428.gmon", data)
        data, why = b.get(options=opts(("BlkSize", 65464), ("timeout", 1), ("windowsize", 8)))
        t.ok(data is not None and b.oack == {"blksize": "1468"},
             "blksize 65464 (RFC 2348's largest; names in any case): capped to 1468, what fits "
             "the 1500-byte MTU unfragmented; timeout and windowsize ignored (%s)" % b.oack, why)
        keep(tg, "blksize-max.gmon", data)
        r = tl.Raw(port)            # (two blocks of it, then the client gives up: data kept)
        r.rrq(extra=opts(("blksize", 8)))
        small = [r.recv(2)]
        r.ack(0)
        small.append(r.recv(2))
        r.ack(1)
        small.append(r.recv(2))
        r.error(0, "enough")
        r.close()
        t.ok(tl.parse_oack(small[0] or b"") == {"blksize": "8"} and
             [p and p[:4] for p in small[1:]] == [struct.pack(">HH", tl.DATA, n) for n in (1, 2)] and
             [len(p or b"") - 4 for p in small[1:]] == [8, 8],
             "blksize 8 (RFC 2348's smallest): an OACK, then blocks of 8 bytes", small)
        data, why = b.get(options=b"\xff\x01junk\0\x7f\0" + opts(("timeout", 3), ("multicast", "")))
        t.ok(data is not None and b.oack is None and b.blocks == len(data) // 512 + 1,
             "only options it does not know (garbage, timeout, multicast): ignored (RFC 2347), no "
             "OACK, 512-byte blocks", why)
        keep(tg, "unknown-options.gmon", data)
        data, why = b.get(options=b"\0")
        t.ok(data is not None and b.oack is None, "a request padded with one more NUL: served", why)
        keep(tg, "padded.gmon", data)

        refusals = [
            ("blksize 0", opts(("blksize", 0)), 8),
            ("blksize 7", opts(("blksize", 7)), 8),
            ("blksize 65465", opts(("blksize", 65465)), 8),
            ("blksize of 30 digits", opts(("blksize", "9" * 30)), 8),
            ("blksize -512", opts(("blksize", "-512")), 8),
            ("blksize empty", opts(("blksize", "")), 8),
            ("blksize given twice", opts(("blksize", 1024), ("blksize", 512)), 8),
            ("tsize given twice", opts(("tsize", 0), ("TSIZE", 0)), 8),
            ("tsize not a number", opts(("tsize", "lots")), 8),
            ("an option value without its NUL", b"blksize\x001428", 4),
            ("an option name without its NUL", b"blksize", 4),
            ("an option without a value", b"blksize\0", 4),
            ("a request of 600 bytes (RFC 2347: 512 at most)",
             opts(*[("x%d" % i, "y" * 20) for i in range(25)]), 4),
        ]
        clients = [tl.Raw(port) for _ in refusals]     # (all at once: each its own port)
        for r, (desc, extra, code) in zip(clients, refusals):
            r.rrq(extra=extra)
        for r, (desc, extra, code) in zip(clients, refusals):
            first = r.recv(2)
            got = [first] + r.drain(0.05) if first is not None else []
            r.close()
            err = tl.parse_error(got[0]) if len(got) == 1 else None
            t.ok(err is not None and err[0] == code and len(err[1]) > 10,
                 "%s: one ERROR %d, in words (%r)" % (desc, code, err), got)
            if desc == "blksize 7":
                t.ok(err and "8 to 65464" in err[1], "... the blksize refusal says the range")

        # A client that does not acknowledge the OACK with ACK 0 gets ERROR 8 and its transfer
        # ends (its data kept); one that refuses the OACK with an ERROR ends it unanswered.
        before = tg.stats()
        r = tl.Raw(port)
        r.rrq(extra=opts(("blksize", 1024)))
        oack = r.recv(2)
        r.ack(1)
        bad_ack = answer(r)
        r.rrq(extra=opts(("tsize", 0)))
        oack2 = r.recv(2)
        r.error(8, "options refused")
        after_refusal = r.drain(0.3)
        r.close()
        data, why = b.get()
        keep(tg, "after-oack.gmon", data)
        time.sleep(0.2)
        after = tg.stats()
        t.ok(tl.parse_oack(oack or b"") == {"blksize": "1024"} and len(bad_ack) == 1 and
             (tl.parse_error(bad_ack[0]) or (0,))[0] == 8,
             "an OACK answered with ACK 1: ERROR 8 (%r)" % (tl.parse_error(bad_ack[0]) if bad_ack else None,),
             bad_ack)
        t.ok(tl.parse_op(oack2 or b"") == tl.OACK and after_refusal == [] and data is not None and
             after["abandoned"] == before["abandoned"] + 2 and after["completed"] == before["completed"] + 1,
             "an OACK refused with ERROR 8: no answer; both transfers abandoned (data kept), the "
             "next get completes (%r -> %r)" % (before, after), why)

        # A newcomer asking with options while the transfer's client has not acknowledged its
        # OACK: offered block 1 of 512 bytes (its options declined, as RFC 2347 allows), and
        # acknowledging it first takes the transfer over in 512-byte blocks.
        x = tl.Raw(port)
        x.rrq(extra=opts(("blksize", 1428)))
        x_oack = x.recv(2)
        data, why = b.get(options=opts(("blksize", 1428), ("tsize", 0)))
        x.ack(0)
        x_late = answer(x)
        x.close()
        t.ok(tl.parse_op(x_oack or b"") == tl.OACK and data is not None and b.oack is None and
             b.blocks == len(data) // 512 + 1 and len(x_late) == 1 and tl.parse_op(x_late[0]) == tl.ERROR,
             "a newcomer with options while a client holds an unacknowledged OACK: block 1 of 512 "
             "bytes, takes the transfer over; the first client's late ACK 0 gets an ERROR", why)
        keep(tg, "taken-over-oack.gmon", data)

        # ---- one client cannot hold the daemon -------------------------------------------
        def late_ack(x, block, desc):
            """x, whose transfer went to another client, acknowledges block: one ERROR back."""
            x.ack(block)
            late = answer(x)
            x.close()
            t.ok(len(late) == 1 and tl.parse_op(late[0]) == tl.ERROR,
                 "%s (%r)" % (desc, tl.parse_error(late[0]) if late else None), late)

        # A client that never acknowledges: another client's request is offered block 1, and
        # acknowledging it first takes the transfer over (the same snapshot: not abandoned).
        time.sleep(0.2)
        before = tg.stats()
        x = tl.Raw(port)
        x.rrq()
        x1 = x.recv(2)
        data, why = b.get()
        t.ok(x1 is not None and x1[:4] == struct.pack(">HH", tl.DATA, 1) and data is not None and
             data[:512] == x1[4:],
             "a client that never acknowledges: another client, offered block 1, acknowledges it "
             "first and gets the whole file", why)
        t.eq(b.dups, 0, "... and no second block 1 (the transfer goes on from block 2)")
        keep(tg, "taken-over.gmon", data)
        late_ack(x, 1, "... the first client's late ACK gets an ERROR")
        time.sleep(0.2)     # app_tick copies the daemon's counters after network_poll()
        after = tg.stats()
        t.ok(after["taken_over"] == before["taken_over"] + 1 and after["offered"] > before["offered"] and
             after["abandoned"] == before["abandoned"] and after["completed"] == before["completed"] + 1 and
             after["transfers"] == before["transfers"] + 1,
             "... one transfer, taken over and completed, none abandoned (%r -> %r)" % (before, after))

        # A client that stops acknowledging (after block 1): once it has been silent for the
        # hold time, the next request ends its transfer (abandoned, its data kept) and is served.
        before = tg.stats()
        yields = tg.console().count("yields to another client's request")
        x = tl.Raw(port)
        x.rrq()
        x1 = x.recv(2)
        x.ack(1)
        x2 = x.recv(2)
        tg.wait_beats(2)    # at least 1 s of guest time: the hold limit
        data, why = b.get()
        t.ok(x1 is not None and x2 is not None and x2[:4] == struct.pack(">HH", tl.DATA, 2) and data is not None,
             "a client silent for the hold time (1 s of guest time) after block 1: another "
             "client's get succeeds", why)
        keep(tg, "after-hold.gmon", data)
        late_ack(x, 2, "... the silent client's next ACK gets an ERROR")
        time.sleep(0.2)
        after = tg.stats()
        con = tg.console()
        t.ok(after["yielded"] == before["yielded"] + 1 and after["abandoned"] == before["abandoned"] + 1 and
             after["completed"] == before["completed"] + 1 and
             con.count("yields to another client's request") == yields + 1 and
             re.search(r"profile: tftp: client silent for (\d+) ms \(hold limit 1000 ms\): its transfer "
                       r"yields to another client's request\nprofile: tftp: transfer of gmon.out "
                       r"abandoned after 1024 of \d+ bytes; its data stays for the next one", con),
             "... its transfer yielded: abandoned after 2 blocks, its data kept (%r -> %r)" % (before, after),
             con[-800:])

        # A valid ACK restarts the hold time: a client silent for the hold time since its
        # request acknowledges block 1, and a newcomer's request right behind that ACK (sent
        # back to back, so it reaches the daemon within the same guest millisecond or so) is
        # left unanswered (busy), not served by a yield; the client's get completes.
        before = tg.stats()
        newcomer = []

        def ack_then_newcomer(n):
            if n == 1:
                r = tl.Raw(port)
                r.rrq()
                newcomer.append(r)
        data, why = b.get(after_first=lambda: tg.wait_beats(2), after_ack=ack_then_newcomer)
        keep(tg, "hold-restarted.gmon", data)
        heard = newcomer[0].drain(0.3) if newcomer else None
        for r in newcomer:
            r.close()
        time.sleep(0.2)
        after = tg.stats()
        t.ok(data is not None and heard == [] and after["busy"] == before["busy"] + 1 and
             after["yielded"] == before["yielded"] and after["offered"] == before["offered"] and
             after["completed"] == before["completed"] + 1 and after["abandoned"] == before["abandoned"],
             "a client silent for the hold time after its request, then acknowledging block 1: "
             "its ACK restarts the hold time, a newcomer right behind it gets no answer (busy, "
             "no yield) and the client's get completes (%s; %r -> %r)" % (why, before, after),
             [p[:4] for p in heard or []])

        # The hold attack: a read request from a fresh port every 1.5 s, then every
        # 0.3 s (faster than the hold time), of guest time, never acknowledged; meanwhile
        # tftp-hpa (the real client) fetches gmon.out eight times each.
        ratio = tg.guest_ratio()
        before = tg.stats()
        attack = []
        for period in (1.5, 0.3):
            interval = period / ratio
            stop = threading.Event()
            sent = [0]

            def attacker():
                socks = []
                while not stop.is_set():
                    r = tl.Raw(port)
                    r.rrq()
                    sent[0] += 1
                    socks.append(r)
                    if len(socks) > 50:
                        socks.pop(0).close()
                    stop.wait(interval)
                for r in socks:
                    r.close()
            th = threading.Thread(target=attacker)
            th.start()
            results = []
            try:
                for i in range(8):
                    time.sleep(rnd.uniform(0, 3) * interval)    # any phase of the attack
                    path = os.path.join(tg.dir, "attack-%s-%d.gmon" % (period, i))
                    rc, out, secs = tl.tftp_hpa(port, path)
                    good = tl.hpa_ok(rc, out, path)
                    results.append((good, secs, out))
                    if good:
                        delivered.append(path)
            finally:
                stop.set()
                th.join()
            oks = [r for r in results if r[0]]
            attack.append((period, len(oks), len(results)))
            t.ok(len(oks) == len(results),
                 "tftp-hpa under an attacker that asks every %.1f s of guest time (%.3f s of host "
                 "time; %d requests, never acknowledged): %d of %d gets succeeded, the slowest in %.2f s"
                 % (period, interval, sent[0], len(oks), len(results), max(r[1] for r in results)),
                 "\n".join(r[2] for r in results if not r[0]))
        # The attacker's last transfer (if any) goes to the next client.
        path = os.path.join(tg.dir, "after-attack.gmon")
        rc, out, secs = tl.tftp_hpa(port, path)
        if t.ok(tl.hpa_ok(rc, out, path), "after the attack, a get succeeds", out):
            delivered.append(path)
        time.sleep(0.2)
        after = tg.stats()
        print("# under attack: %s; daemon %s" % (", ".join("every %.1f s: %d of %d" % a for a in attack),
              {k: after[k] - before[k] for k in after}))

        # A client whose block 2 went missing resends its ACK of block 1 (a duplicate: ignored).
        # The duplicates do not restart the retransmission wait, so block 2 comes again.
        r = tl.Raw(port)
        r.rrq()
        r.recv(2)
        r.ack(1)
        lost = r.recv(2)
        t0, again = time.time(), None
        while again is None and time.time() - t0 < 20:
            r.ack(1)
            again = r.recv(0.1)
        r.error(0, "done")
        r.close()
        t.ok(lost is not None and lost[:4] == struct.pack(">HH", tl.DATA, 2) and again == lost,
             "a client that lost block 2 and resends ACK 1 every 0.1 s of host time (well within "
             "the 10 s wait, in guest time): block 2 sent again after %.2f s of host time"
             % (time.time() - t0), again)

        # A client that vanishes after block 1: the daemon resends it, then gives the transfer up.
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
        if t.ok(tl.hpa_ok(rc, out, p), "after all that, a normal get with tftp-hpa succeeds", out):
            delivered.append(p)

        beats1 = tg.heartbeats()
        t.ok(len(beats1) > len(beats0) and beats1[-1][1] > beats0[-1][1] and beats1[-1][2] > beats0[-1][2],
             "the firmware kept running and profiling (iterations %d -> %d, samples %d -> %d)"
             % (beats0[-1][1], beats1[-1][1], beats0[-1][2], beats1[-1][2]))

        iterations, samples_total = tg.quiesce()
        p = os.path.join(tg.dir, "final.gmon")
        rc, out, s = tl.tftp_hpa(port, p)
        t.ok(tl.hpa_ok(rc, out, p), "a final get of the still data", out)
        delivered.append(p)
        stats = tg.stats()

        # profile_on() again in the middle of a transfer: the snapshot is gone, the transfer
        # fails with an ERROR ("the data went ..."), and the daemon goes on (the same one).
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
        t.ok(tl.hpa_ok(rc, out, p) and tl.gmon_summary(p)[0] > 0,
             "... and the next get succeeds, with the new data", out)

        # profile_on() again after the client got the last block, before its final ACK: no
        # block is read after the restart, the ACK closes the transfer. The
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
        t.ok(tl.hpa_ok(rc, out, p), "... and it serves", out)

    # The first profile_on() fails (an empty range) after the network is up: the daemon runs
    # anyway (profile_on starts it before it checks its arguments), and a client is told
    # "profiling is off" at once rather than left to time out; a good profile_on() then serves.
    with tl.Target("abuse-off", boot_mode=3) as to:
        to.wait_console(r"tftp-app: ready")
        con = to.console()
        t.ok(re.search(r"tftp-app: profile_on with an empty range: -\d+", con) and
             con.count("profile: TFTP daemon serving gmon.out") == 1,
             "the first profile_on() fails (start == end) after the network is up: the daemon "
             "starts anyway", con)
        t0 = time.time()
        got = replies(to.port, lambda r: r.rrq(), wait=5)
        dt = time.time() - t0
        t.ok(len(got) == 1 and tl.parse_error(got[0]) == (0, "profiling is off") and dt < 2,
             "a read request is answered \"profiling is off\" (%.2f s)" % dt, got)
        p = os.path.join(to.dir, "off.gmon")
        rc, out, s = tl.tftp_hpa(to.port, p)
        t.ok("Error code 0: profiling is off" in out and s < 3,
             "tftp-hpa prints \"Error code 0: profiling is off\" at once (%.2f s, no timeout)" % s, out)
        to.gdb(["set var restart = 1"])
        to.wait_console(r"tftp-app: restarted: profile_on: 0")
        time.sleep(0.3)
        p = os.path.join(to.dir, "on.gmon")
        rc, out, s = tl.tftp_hpa(to.port, p)
        t.ok(tl.hpa_ok(rc, out, p) and tl.gmon_summary(p)[0] > 0,
             "then profile_on() with a good range: a get succeeds, with samples", out)
        t.eq(to.console().count("profile: TFTP daemon serving gmon.out"), 1, "... one daemon")

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
