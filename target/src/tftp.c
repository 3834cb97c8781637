/*
 * The TFTP daemon: "gmon.out", read-only, served by lwIP's own TFTP server app
 * (src/apps/tftp/tftp_server.c, lwIP 2.1.3) on UDP port CYGNUM_PROFILE_TFTP_PORT; in the
 * stack-profiling mode "gmon.stacks" too: the calling-context tree's counts that went with
 * the last gmon.out delivered, which stacks.c keeps (a get of it resets nothing; it is
 * replaced by the next gmon.out delivered, dropped by profile_on/profile_off).
 *
 * lwIP does the protocol (blocks, retransmission, timeouts); this file supplies the file
 * through lwIP's tftp_context callbacks:
 *   open   takes a snapshot of the profiling data (profile_snapshot_take): recording goes
 *          on into the spare set while the transfer runs;
 *   read   serves the snapshot's gmon.out image with profile_gmon_read, 512 bytes a block;
 *   close  releases the snapshot: delivered (dropped: the eCos "a completed transfer
 *          resets the counters") only if the client acknowledged the last block, else
 *          merged back, so nothing is lost.
 *
 * lwIP's close callback does not say whether the transfer completed, and its server has
 * gaps when a client misbehaves, so a thin filter sits in front of it on the same UDP PCB
 * (it parses request headers and opcodes, never transfers data):
 *   - the final ACK is seen here, which is what "completed" means for close;
 *   - requests lwIP would answer with "Unable to open requested file" get a precise error:
 *     write requests (2, access violation), other names (1, file not found), netascii and
 *     other modes (0, with the reason), profiling off (0);
 *   - an ERROR packet from the client ends the transfer at once (lwIP 2.1.3 answers it with
 *     an error of its own and keeps the transfer, and so the single transfer slot, until
 *     it times out);
 *   - duplicate and stale ACKs and retransmitted requests from the client are ignored, as
 *     RFC 1350 wants (lwIP answers them with an ERROR, which kills the client's transfer);
 *     so are DATA packets and unknown opcodes from the client during its read;
 *   - packets shorter than a TFTP header are dropped (lwIP reads four bytes regardless);
 *   - one client cannot hold the daemon (lwIP answers anyone else "Only one connection at a
 *     time", and a client that gets an ERROR gives up at once). A good read request from
 *     another client while a transfer runs:
 *       . if the transfer's client has sent no valid ACK for CYGNUM_PROFILE_TFTP_HOLD_MS
 *         (counting from its request), the transfer yields: it ends as abandoned (the
 *         snapshot is merged back) and the newcomer is served;
 *       . else, if that client has acknowledged nothing yet, the newcomer is offered block 1
 *         of the same snapshot, and the first client to acknowledge block 1 gets the
 *         transfer (a client that never acknowledges keeps nobody out, as long as fewer
 *         than 4 requests from other new clients come between a newcomer's request and its
 *         ACK: the filter remembers the last 4 newcomers);
 *       . else (the transfer is moving) the request is not answered: the client sends it
 *         again and is served once the transfer is over;
 *   - only hosts in CYGDAT_PROFILE_TFTP_ALLOW/CYGNUM_PROFILE_TFTP_ALLOW_PREFIX are served:
 *     a request from anywhere else gets ERROR 2 (access violation), any other packet from
 *     there is dropped, and neither changes anything (no snapshot, no reset, no slot).
 *
 * Everything here runs in lwIP's context: the main loop's network_poll() in a NO_SYS
 * build, the tcpip thread in an RTOS build. profile_tftp_start() is called by profile_on().
 */
#include <pkgconf/system.h>
#include <cyg/profile/opts.h>

#if PROFILE_TFTP

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <cyg/profile/gmon.h>
#include <cyg/profile/tftp.h>
#include "profile_priv.h"   /* the frozen set's counters, for the console line */
#include "lwip/apps/tftp_server.h"
#include "lwip/ip_addr.h"
#include "lwip/netif.h"
#include "lwip/pbuf.h"
#include "lwip/sys.h"
#include "lwip/udp.h"

#define OP_RRQ   1
#define OP_WRQ   2
#define OP_DATA  3
#define OP_ACK   4
#define OP_ERROR 5

#define ERR_NOT_DEFINED      0
#define ERR_FILE_NOT_FOUND   1
#define ERR_ACCESS_VIOLATION 2
#define ERR_ILLEGAL_OP       4

/* The files served: gmon.out, and in the stack-profiling mode gmon.stacks, the
 * calling-context tree of the last gmon.out delivered (stacks.c keeps it). */
#define FILE_GMON   0
#define FILE_STACKS 1
static const char *const file_names[] = {"gmon.out", "gmon.stacks"};
#define NFILES (1 + PROFILE_STACKS)
#if PROFILE_STACKS
#define SERVES "gmon.out and gmon.stacks"
#else
#define SERVES "gmon.out"
#endif
#define TFTP_BLOCK 512

/* The configured allowed network, as a C string (opts.h checks its length). */
#define ALLOW_TEXT CYGDAT_PROFILE_TFTP_ALLOW
#define ALLOW_PREFIX CYGNUM_PROFILE_TFTP_ALLOW_PREFIX

/* The daemon's state. Owned here and touched only in lwIP's context (the callbacks and the
 * filter below, profile_tftp_start from profile_on); profile_tftp_get_stats copies it. */
static struct {
    int started;
    struct udp_pcb *pcb;        /* lwIP's server PCB, with the filter as its callback */
    udp_recv_fn lwip_recv;      /* lwIP's own callback and argument */
    void *lwip_arg;

    /* The transfer in progress (lwIP serves one at a time). */
    int open;
    int file;                   /* FILE_GMON or FILE_STACKS */
    struct profile_gmon_reader reader;  /* gmon.out's snapshot */
    uint32_t stacks_generation; /* gmon.stacks: the kept tree's, at the start */
    size_t size;                /* bytes of the snapshot's image */
    size_t offset;              /* bytes handed to lwIP so far */
    u16_t block;                /* blocks handed to lwIP: lwIP's current block number; the
                                   client has acknowledged nothing while it is <= 1 */
    int last_read;              /* the final (short) block has been handed out */
    int final_acked;            /* ... and the client acknowledged it */
    u32_t progress_ms;          /* sys_now() at the start and at the client's last valid ACK */
    ip_addr_t peer;
    u16_t peer_port;
    int handover;               /* take_over(): tftp_close keeps the snapshot for tftp_open */

    /* Other clients offered block 1 while the client had acknowledged nothing (block <= 1):
     * the first of them (or the client) to acknowledge it gets the transfer. ncand counts the
     * clients remembered since tftp_open emptied the table; the oldest is overwritten once
     * it is full. */
    struct {
        ip_addr_t addr;
        u16_t port;
    } cand[4];
    unsigned ncand;

    /* The hosts served (network byte order), from the configuration at the first start. */
    ip4_addr_t allow_net, allow_mask;

    struct profile_tftp_stats stats;
} tftpd;

/* ---- the file, through lwIP's callbacks -------------------------------------------------- */

/* The file a request names (FILE_GMON, FILE_STACKS: served if below NFILES), or -1. */
static int file_of(const char *name)
{
    if (name[0] == '/')
        name++;
    for (int f = 0; f < (int)(sizeof file_names / sizeof file_names[0]); f++)
        if (strcmp(name, file_names[f]) == 0)
            return f;
    return -1;
}

/* Opens gmon.stacks: the tree kept with the last gmon.out delivered. 0, or -1 if none. */
static int open_stacks(void)
{
#if PROFILE_STACKS
    tftpd.size = profile_stacks_kept_size(&tftpd.stacks_generation);
    return tftpd.size ? 0 : -1;
#else
    return -1;
#endif
}

static void *tftp_open(const char *fname, const char *mode, u8_t is_write)
{
    /* The filter has refused anything else already; this is the last line. */
    int file = file_of(fname);
    if (is_write || file < 0 || file >= NFILES || strcasecmp(mode, "octet") != 0)
        return NULL;
    if (tftpd.handover) {
        tftpd.handover = 0;     /* take_over(): the same file, for another client */
    } else if (file == FILE_STACKS) {
        if (open_stacks() != 0)
            return NULL;
        tftpd.progress_ms = sys_now();
    } else {
        if (profile_snapshot_take(&tftpd.reader) != 0)
            return NULL;        /* lwIP answers "Unable to open requested file." */
        tftpd.size = profile_gmon_size(&tftpd.reader);
        tftpd.progress_ms = sys_now();
    }
    tftpd.offset = 0;
    tftpd.block = 0;
    tftpd.last_read = 0;
    tftpd.final_acked = 0;
    tftpd.ncand = 0;
    tftpd.file = file;
    tftpd.open = 1;
    return &tftpd;
}

/* profile_on()/profile_off() during the transfer ended the snapshot (its generation is
 * over): its data is gone, neither delivered nor kept. For gmon.stacks: the kept tree
 * changed (profile_on/profile_off again, or another gmon.out delivered). */
static int snapshot_ended(void)
{
#if PROFILE_STACKS
    if (tftpd.file == FILE_STACKS)
        return profile_stacks_kept_ended(tftpd.stacks_generation);
#endif
    return profile_snapshot_ended(&tftpd.reader);
}

/* A piece of the transfer's file. */
static size_t file_read(size_t offset, void *buf, size_t len)
{
#if PROFILE_STACKS
    if (tftpd.file == FILE_STACKS)
        return profile_stacks_kept_read(offset, buf, len);
#endif
    return profile_gmon_read(&tftpd.reader, offset, buf, len);
}

static int tftp_read(void *handle, void *buf, int bytes)
{
    (void)handle;
    /* A snapshot that ended fails the transfer (lwIP sends an error and closes) rather
     * than serve a mix. */
    if (snapshot_ended())
        return -1;
    size_t n = file_read(tftpd.offset, buf, (size_t)bytes);
    if (snapshot_ended())
        return -1;              /* (gmon.stacks: read without a lock, the tree changed) */
    tftpd.offset += n;
    tftpd.block++;
    if (n < (size_t)bytes)
        tftpd.last_read = 1;
    return (int)n;
}

static int tftp_write(void *handle, struct pbuf *p)
{
    (void)handle;
    (void)p;
    return -1;                  /* never opened for writing */
}

/* The end of a gmon.stacks transfer: nothing to release (the kept tree stays until the
 * next gmon.out is delivered, for another get). */
static void close_stacks(void)
{
    int ended = snapshot_ended();
    tftpd.open = 0;
    if (ended) {
        tftpd.stats.abandoned++;
        printf("profile: tftp: transfer of gmon.stacks ended after %u of %u bytes: its tree "
               "went (profile_on()/profile_off())\n", (unsigned)tftpd.offset, (unsigned)tftpd.size);
    } else if (tftpd.final_acked) {
        tftpd.stats.completed++;
        tftpd.stats.stacks_completed++;
        printf("profile: tftp: sent gmon.stacks (%u bytes)\n", (unsigned)tftpd.size);
    } else {
        tftpd.stats.abandoned++;
        printf("profile: tftp: transfer of gmon.stacks abandoned after %u of %u bytes; "
               "it stays for the next one\n", (unsigned)tftpd.offset, (unsigned)tftpd.size);
    }
}

static void tftp_close(void *handle)
{
    (void)handle;
    if (tftpd.handover) {
        tftpd.open = 0;         /* take_over(): the snapshot goes on to the next client */
        return;
    }
    if (tftpd.file == FILE_STACKS) {
        close_stacks();
        return;
    }
    /* The restart may come after the last block was read, so tftp_read never saw it:
     * the final ACK then completes a transfer whose data profile_on/profile_off already
     * discarded. That is no delivery (nothing was reset by it) and nothing is kept. */
    int ended = snapshot_ended();
    int delivered = tftpd.final_acked && !ended;
    /* What the file said, for the console line (the frozen set is read only here). */
    uint32_t samples = 0, overhead = 0;
    if (delivered) {
        samples = tftpd.reader.state->samples;
        overhead = tftpd.reader.state->samples_overhead;
    }
    /* (gmon.stacks of this gmon.out stays for `tftp get gmon.stacks`) */
    profile_snapshot_release(&tftpd.reader, delivered ? PROFILE_SNAPSHOT_DELIVERED_GMON
                                                      : PROFILE_SNAPSHOT_MERGED);
    tftpd.open = 0;
    if (ended) {
        tftpd.stats.abandoned++;
        printf("profile: tftp: transfer of gmon.out ended by profile_on()/profile_off() "
               "after %u of %u bytes; its data was discarded\n", (unsigned)tftpd.offset,
               (unsigned)tftpd.size);
    } else if (delivered) {
        tftpd.stats.completed++;
        /* (tenths of a percent in integers: no floating-point printf needed) */
        uint32_t tenths = samples ? (uint32_t)(((uint64_t)overhead * 1000 + samples / 2) / samples) : 0;
        printf("profile: tftp: sent gmon.out (%u bytes; profiler overhead %u.%u%% of %u samples, "
               "not charged to any function); counters reset%s\n", (unsigned)tftpd.size,
               (unsigned)(tenths / 10), (unsigned)(tenths % 10), (unsigned)samples,
               PROFILE_STACKS ? "; its gmon.stacks is served until the next gmon.out" : "");
    } else {
        tftpd.stats.abandoned++;
        printf("profile: tftp: transfer of gmon.out abandoned after %u of %u bytes; "
               "its data stays for the next one\n", (unsigned)tftpd.offset, (unsigned)tftpd.size);
    }
}

/* Constant: the file callbacks above, handed to lwIP's tftp_init() by start_server(). */
static const struct tftp_context tftp_ctx = {
    .open = tftp_open,
    .close = tftp_close,
    .read = tftp_read,
    .write = tftp_write,
};

/* ---- the filter in front of lwIP's server ------------------------------------------------ */

static void send_error(const ip_addr_t *addr, u16_t port, u16_t code, const char *msg)
{
    size_t n = strlen(msg);
    struct pbuf *p = pbuf_alloc(PBUF_TRANSPORT, (u16_t)(4 + n + 1), PBUF_RAM);
    if (!p)
        return;
    u8_t *b = p->payload;
    b[0] = 0;
    b[1] = OP_ERROR;
    b[2] = (u8_t)(code >> 8);
    b[3] = (u8_t)code;
    memcpy(b + 4, msg, n + 1);
    udp_sendto(tftpd.pcb, p, addr, port);
    pbuf_free(p);
}

/* A read or write request (other than the transfer's client resending its own): NULL if it
 * is a good read request of a file served (*file says which), which lwIP may have (or,
 * while a transfer runs, the filter serves as it decides), else the error message (and
 * *code) to answer with. */
static const char *check_request(struct pbuf *p, u16_t op, u16_t *code, int *file)
{
    char req[2 + TFTP_MAX_FILENAME_LEN + 1 + 16 + 1];
    u16_t n = pbuf_copy_partial(p, req, sizeof req - 1, 0);
    req[n] = 0;
    *code = ERR_ILLEGAL_OP;
    const char *name = req + 2, *end = req + n;
    size_t name_len = strnlen(name, (size_t)(end - name));
    if (name + name_len >= end)
        return p->tot_len >= sizeof req - 1 ? "file name too long" : "malformed request";
    const char *mode = name + name_len + 1;
    size_t mode_len = strnlen(mode, (size_t)(end - mode));
    if (mode + mode_len >= end)
        return p->tot_len >= sizeof req - 1 ? "mode too long" : "malformed request: no mode";

    if (op == OP_WRQ) {
        *code = ERR_ACCESS_VIOLATION;
        return "read-only: this target serves " SERVES " for reading";
    }
    *file = file_of(name);
    if (*file < 0 || *file >= NFILES) {
        *code = ERR_FILE_NOT_FOUND;
        if (*file == FILE_STACKS)
            return "file not found: gmon.stacks needs the stack-profiling mode "
                   "(CYGPKG_PROFILE_STACKS); this target serves gmon.out";
        return "file not found: this target serves " SERVES;
    }
    *code = ERR_NOT_DEFINED;
    if (strcasecmp(mode, "netascii") == 0)
        return *file == FILE_GMON ? "netascii refused: gmon.out is binary, use octet mode (tftp: binary)"
                                  : "netascii refused: gmon.stacks is binary, use octet mode (tftp: binary)";
    if (strcasecmp(mode, "octet") != 0)
        return "unsupported mode: use octet (binary)";
    struct profile_gmon_reader live;
    profile_gmon_reader_init(&live);
    if (profile_gmon_size(&live) == 0)
        return "profiling is off";
#if PROFILE_STACKS
    uint32_t generation;
    if (*file == FILE_STACKS && profile_stacks_kept_size(&generation) == 0) {
        *code = ERR_FILE_NOT_FOUND;
        return "gmon.stacks goes with a gmon.out: get gmon.out first (none delivered since "
               "profile_on)";
    }
#endif
    return NULL;
}

static err_t start_server(void);

/*
 * An ERROR from the client ends the transfer. lwIP 2.1.3 has no call to end one, so the
 * server is restarted: tftp_cleanup() closes the transfer (tftp_close: not delivered, the
 * data is merged back) and removes the PCB, tftp_init() binds a new one. This runs inside
 * the old PCB's receive callback, which lwIP 2.1.3's udp_input() allows: it does not touch
 * the PCB after the callback returns. Doing it here, not later, keeps the order of the
 * packets: a request queued right behind the ERROR finds the slot free.
 */
static void abort_transfer(void)
{
    tftp_cleanup();
    tftpd.pcb = NULL;
    if (start_server() != ERR_OK) {
        tftpd.started = 0;
        printf("profile: tftp: daemon stopped: could not bind UDP port %d again\n", TFTP_PORT);
    }
}

/* Is the host at addr one the daemon serves? */
static int allowed(const ip_addr_t *addr)
{
    if (ip4_addr_isany_val(tftpd.allow_mask))
        return 1;                           /* 0.0.0.0/0: everyone */
    if (!IP_IS_V4(addr))
        return 0;
    return ip4_addr_netcmp(ip_2_ip4(addr), &tftpd.allow_net, &tftpd.allow_mask);
}

/* The transfer's client has sent no valid ACK (none at all: no request) for
 * CYGNUM_PROFILE_TFTP_HOLD_MS. */
static int stalled(void)
{
    return (u32_t)(sys_now() - tftpd.progress_ms) >= (u32_t)CYGNUM_PROFILE_TFTP_HOLD_MS;
}

#define NCAND_MAX (sizeof tftpd.cand / sizeof tftpd.cand[0])

static int is_candidate(const ip_addr_t *addr, u16_t port)
{
    for (unsigned i = 0; i < tftpd.ncand && i < NCAND_MAX; i++)
        if (tftpd.cand[i].port == port && ip_addr_cmp(&tftpd.cand[i].addr, addr))
            return 1;
    return 0;
}

/* Another client asked while the transfer's client has acknowledged nothing: send it block 1
 * of the same snapshot (what lwIP sent the client) and remember it; the oldest is forgotten
 * when the table is full. */
static void offer(const ip_addr_t *addr, u16_t port)
{
    struct pbuf *p = pbuf_alloc(PBUF_TRANSPORT, 4 + TFTP_BLOCK, PBUF_RAM);
    if (!p)
        return;
    u8_t *b = p->payload;
    b[0] = 0;
    b[1] = OP_DATA;
    b[2] = 0;
    b[3] = 1;
    size_t n = file_read(0, b + 4, TFTP_BLOCK);
    if (snapshot_ended()) {
        pbuf_free(p);           /* the data went meanwhile (profile_on/profile_off from
                                   another thread): no block of a mix */
        return;
    }
    pbuf_realloc(p, (u16_t)(4 + n));
    udp_sendto(tftpd.pcb, p, addr, port);
    pbuf_free(p);
    tftpd.stats.offered++;
    if (is_candidate(addr, port))
        return;                             /* it resent its request */
    unsigned i = tftpd.ncand++ % NCAND_MAX;
    ip_addr_copy(tftpd.cand[i].addr, *addr);
    tftpd.cand[i].port = port;
}

/* An interface index no interface has (lwIP numbers them 1..255; NETIF_NO_INDEX is 0). */
static u8_t unused_netif_index(void)
{
    u8_t i = 255;
    while (i != NETIF_NO_INDEX && netif_get_by_index(i))
        i--;
    return i;
}

/*
 * A candidate acknowledged block 1 first: the transfer goes on with it, on the same
 * snapshot. lwIP 2.1.3 cannot change a transfer's client, so the server is restarted
 * (tftp_close keeps the snapshot, tftp_open takes it back) and the candidate's request is
 * replayed; lwIP then sends block 1 again, which the candidate has already (from offer())
 * and which a client would take for a lost ACK (tftp-hpa then flushes its socket, block 2
 * with it): so that copy is dropped, by binding the PCB to an interface index no interface
 * has for the replay (lwIP 2.1.3's udp_sendto then finds no interface and returns ERR_RTE
 * before anything is sent; its TFTP server ignores send errors, and keeps block 1 for its
 * retransmissions). Then the candidate's ACK goes to lwIP, which sends block 2. ack is
 * consumed.
 */
static void take_over(struct pbuf *ack, const ip_addr_t *addr, u16_t port)
{
    /* The request replayed: RRQ, the transfer's file name, "octet" (NULs included). */
    const char *name = file_names[tftpd.file];
    size_t name_len = strlen(name);
    u16_t rrq_len = (u16_t)(2 + name_len + 1 + sizeof "octet");
    ip_addr_t from;
    ip_addr_copy(from, *addr);
    struct pbuf *req = pbuf_alloc(PBUF_TRANSPORT, rrq_len, PBUF_RAM);
    if (!req) {
        pbuf_free(ack);
        return;                             /* the old client keeps the transfer */
    }
    u8_t *b = req->payload;
    b[0] = 0;
    b[1] = OP_RRQ;
    memcpy(b + 2, name, name_len + 1);
    memcpy(b + 2 + name_len + 1, "octet", sizeof "octet");

    tftpd.handover = 1;
    abort_transfer();
    if (!tftpd.started) {
        /* The server could not be restarted: no transfer, the snapshot goes back. */
        tftpd.handover = 0;
        profile_snapshot_release(&tftpd.reader, 0);
        tftpd.stats.abandoned++;
        pbuf_free(req);
        pbuf_free(ack);
        return;
    }
    tftpd.pcb->netif_idx = unused_netif_index();
    tftpd.lwip_recv(tftpd.lwip_arg, tftpd.pcb, req, &from, port);
    tftpd.pcb->netif_idx = NETIF_NO_INDEX;
    if (!tftpd.open) {
        /* Not reached: tftp_open cannot fail on a handover, and the filter let only a live
         * snapshot through (tftp_read cannot fail). Kept correct all the same: if lwIP did
         * not call tftp_open, the snapshot goes back; if it opened and closed the transfer,
         * tftp_close released and counted it already. */
        if (tftpd.handover) {
            tftpd.handover = 0;
            profile_snapshot_release(&tftpd.reader, 0);
            tftpd.stats.abandoned++;
        }
        pbuf_free(ack);
        return;
    }
    ip_addr_copy(tftpd.peer, from);
    tftpd.peer_port = port;
    tftpd.stats.taken_over++;
    tftpd.progress_ms = sys_now();
    if (tftpd.last_read)
        tftpd.final_acked = 1;
    tftpd.lwip_recv(tftpd.lwip_arg, tftpd.pcb, ack, &from, port);
}

static void filter(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr, u16_t port)
{
    (void)arg;
    u8_t h[4];

    if (!allowed(addr)) {
        /* From outside the allowed network: changes nothing, whatever it is. A request gets
         * the reason (so that a user there knows why); anything else is dropped unanswered. */
        tftpd.stats.denied++;
        if (pbuf_copy_partial(p, h, 2, 0) == 2 && h[0] == 0 && (h[1] == OP_RRQ || h[1] == OP_WRQ))
            send_error(addr, port, ERR_ACCESS_VIOLATION, "access denied: this host may not read the profile");
        pbuf_free(p);
        return;
    }

    int from_peer = tftpd.open && port == tftpd.peer_port && ip_addr_cmp(addr, &tftpd.peer);

    if (p->tot_len < 4 || pbuf_copy_partial(p, h, 4, 0) != 4) {
        /* Shorter than any TFTP packet. */
        tftpd.stats.ignored++;
        if (!from_peer)
            send_error(addr, port, ERR_ILLEGAL_OP, "malformed packet");
        pbuf_free(p);
        return;
    }
    u16_t op = (u16_t)(h[0] << 8 | h[1]);
    switch (op) {
    case OP_RRQ:
    case OP_WRQ:
        if (from_peer) {
            tftpd.stats.ignored++;          /* the client resent its request */
            pbuf_free(p);
            return;
        }
        u16_t code;
        int file = FILE_GMON;
        const char *why = check_request(p, op, &code, &file);
        if (why) {
            tftpd.stats.refused++;
            send_error(addr, port, code, why);
            pbuf_free(p);
            return;
        }
        if (tftpd.open) {
            /* Another client's good request while a transfer runs. */
            if (stalled()) {
                /* The client has been silent too long: its transfer yields (abandoned:
                 * the snapshot is merged back, nothing lost), the newcomer is served by
                 * the restarted server. */
                tftpd.stats.yielded++;
                printf("profile: tftp: client silent for %u ms (hold limit %u ms): its "
                       "transfer yields to another client's request\n",
                       (unsigned)(sys_now() - tftpd.progress_ms), (unsigned)CYGNUM_PROFILE_TFTP_HOLD_MS);
                abort_transfer();
                if (!tftpd.started) {
                    pbuf_free(p);
                    return;
                }
                pcb = tftpd.pcb;
            } else {
                if (tftpd.block <= 1 && file == tftpd.file && !snapshot_ended())
                    offer(addr, port);      /* the first to acknowledge block 1 wins */
                else
                    tftpd.stats.busy++;     /* no answer: an ERROR would make the client
                                               give up; it resends and is served later */
                pbuf_free(p);
                return;
            }
        }
        {
            ip_addr_t from;
            ip_addr_copy(from, *addr);      /* addr points into lwIP's current packet */
            tftpd.lwip_recv(tftpd.lwip_arg, pcb, p, addr, port);
            if (tftpd.open) {
                ip_addr_copy(tftpd.peer, from);
                tftpd.peer_port = port;
                tftpd.stats.transfers++;
            } else {
                tftpd.stats.refused++;
            }
        }
        return;
    case OP_ACK: {
        u16_t block = (u16_t)(h[2] << 8 | h[3]);
        if (from_peer) {
            if (block != tftpd.block) {
                tftpd.stats.ignored++;      /* duplicate or stale */
                pbuf_free(p);
                return;
            }
            tftpd.progress_ms = sys_now();
            if (tftpd.last_read)
                tftpd.final_acked = 1;      /* lwIP closes the transfer on this one */
        } else if (tftpd.open && block == 1 && tftpd.block == 1 &&
                   is_candidate(addr, port) && !snapshot_ended()) {
            take_over(p, addr, port);       /* a candidate acknowledged block 1 first */
            return;
        }
        break;
    }
    case OP_ERROR:
        /* Never answered (RFC 1350). From the client: it gives the transfer up. */
        pbuf_free(p);
        if (from_peer)
            abort_transfer();
        else
            tftpd.stats.ignored++;
        return;
    default:
        if (from_peer) {
            /* DATA or an unknown opcode from the client mid-read: ignored. lwIP would answer
             * with an ERROR yet keep the transfer, and a client that gets an ERROR gives
             * up, leaving the single slot taken until lwIP times it out. */
            tftpd.stats.ignored++;
            pbuf_free(p);
            return;
        }
        break;                              /* lwIP answers DATA and unknown opcodes */
    }
    tftpd.lwip_recv(tftpd.lwip_arg, pcb, p, addr, port);
}

/* ---- starting ---------------------------------------------------------------------------- */

static err_t start_server(void)
{
    err_t e = tftp_init(&tftp_ctx);
    if (e != ERR_OK)
        return e;
    /* lwIP's server PCB is the one tftp_init just bound: udp_bind puts it at the head of
     * udp_pcbs. Its callback goes behind the filter. */
    struct udp_pcb *pcb = udp_pcbs;
    if (!pcb || pcb->local_port != TFTP_PORT || !pcb->recv) {
        tftp_cleanup();
        return ERR_VAL;
    }
    tftpd.pcb = pcb;
    tftpd.lwip_recv = pcb->recv;
    tftpd.lwip_arg = pcb->recv_arg;
    udp_recv(pcb, filter, NULL);
    return ERR_OK;
}

/* The allowed network from the configuration, into tftpd.allow_net/allow_mask: 0, or
 * -EINVAL (said on the console) if the address is malformed or has bits set beyond the
 * prefix ("10.0.2.2" with prefix 24 is ambiguous: one host or the subnet?). The address must
 * be four decimal numbers 0..255 without leading zeros: what ip4addr_ntoa writes back, so
 * stricter than ip4addr_aton (inet_aton), which also reads "10.2", hex and octal. */
static int parse_allow(void)
{
    ip4_addr_t net, mask;
    char buf[IP4ADDR_STRLEN_MAX];
    ip4_addr_set_u32(&mask, lwip_htonl(ALLOW_PREFIX == 0 ? 0 : 0xFFFFFFFFu << (32 - ALLOW_PREFIX)));
    if (!ip4addr_aton(ALLOW_TEXT, &net) || !ip4addr_ntoa_r(&net, buf, sizeof buf) ||
        strcmp(buf, ALLOW_TEXT) != 0) {
        printf("profile: TFTP daemon not started: CYGDAT_PROFILE_TFTP_ALLOW \"%s\" is not an "
               "IPv4 address (four decimal numbers 0..255, e.g. \"10.0.2.2\")\n", ALLOW_TEXT);
        return -EINVAL;
    }
    if (ip4_addr_get_u32(&net) & ~ip4_addr_get_u32(&mask)) {
        printf("profile: TFTP daemon not started: CYGDAT_PROFILE_TFTP_ALLOW \"%s\" has bits set "
               "beyond its prefix length CYGNUM_PROFILE_TFTP_ALLOW_PREFIX %d (one host: 32; a "
               "network: its first address)\n", ALLOW_TEXT, ALLOW_PREFIX);
        return -EINVAL;
    }
    tftpd.allow_net = net;
    tftpd.allow_mask = mask;
    return 0;
}

int profile_tftp_start(void)
{
    if (tftpd.started)
        return 0;
    /* A malformed allow option serves nobody (never everybody by mistake). */
    if (parse_allow() != 0)
        return -EINVAL;
    struct netif *n = netif_default;
    if (!n || !netif_is_up(n) || ip4_addr_isany_val(*netif_ip4_addr(n))) {
        printf("profile: TFTP daemon not started: the network is not up "
               "(call init_all_network_interfaces() before profile_on())\n");
        return -ENETDOWN;
    }
    err_t e = start_server();
    if (e != ERR_OK) {
        printf("profile: TFTP daemon not started: %s on UDP port %d (lwIP error %d)\n",
               e == ERR_USE ? "another service is" : "no PCB", TFTP_PORT, (int)e);
        return e == ERR_USE ? -EADDRINUSE : -ENOMEM;
    }
    tftpd.started = 1;
    char a[16];
    ip4addr_ntoa_r(netif_ip4_addr(n), a, sizeof a);
    if (ip4_addr_isany_val(tftpd.allow_mask))
        printf("profile: TFTP daemon serving " SERVES " on %s UDP port %d\n", a, TFTP_PORT);
    else
        printf("profile: TFTP daemon serving " SERVES " on %s UDP port %d to %s/%d only\n", a,
               TFTP_PORT, ALLOW_TEXT, ALLOW_PREFIX);
    return 0;
}

int profile_tftp_get_stats(struct profile_tftp_stats *stats)
{
    if (!tftpd.started)
        return -ENETDOWN;
    *stats = tftpd.stats;
    return 0;
}

#endif /* PROFILE_TFTP */
