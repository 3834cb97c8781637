/*
 * The TFTP daemon: "gmon.out", read-only, served by lwIP's own TFTP server app
 * (src/apps/tftp/tftp_server.c, lwIP 2.1.3) on UDP port CYGNUM_PROFILE_TFTP_PORT.
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
 *   - packets shorter than a TFTP header are dropped (lwIP reads four bytes regardless).
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
#include "lwip/apps/tftp_server.h"
#include "lwip/ip_addr.h"
#include "lwip/netif.h"
#include "lwip/pbuf.h"
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

#define FILE_NAME "gmon.out"

/* The daemon's state. Owned here and touched only in lwIP's context (the callbacks and the
 * filter below, profile_tftp_start from profile_on); profile_tftp_get_stats copies it. */
static struct {
    int started;
    struct udp_pcb *pcb;        /* lwIP's server PCB, with the filter as its callback */
    udp_recv_fn lwip_recv;      /* lwIP's own callback and argument */
    void *lwip_arg;

    /* The transfer in progress (lwIP serves one at a time). */
    int open;
    struct profile_gmon_reader reader;
    size_t size;                /* bytes of the snapshot's image */
    size_t offset;              /* bytes handed to lwIP so far */
    u16_t block;                /* blocks handed to lwIP: lwIP's current block number */
    int last_read;              /* the final (short) block has been handed out */
    int final_acked;            /* ... and the client acknowledged it */
    ip_addr_t peer;
    u16_t peer_port;

    struct profile_tftp_stats stats;
} tftpd;

/* ---- the file, through lwIP's callbacks -------------------------------------------------- */

static int name_ok(const char *name)
{
    if (name[0] == '/')
        name++;
    return strcmp(name, FILE_NAME) == 0;
}

static void *tftp_open(const char *fname, const char *mode, u8_t is_write)
{
    /* The filter has refused anything else already; this is the last line. */
    if (is_write || !name_ok(fname) || strcasecmp(mode, "octet") != 0)
        return NULL;
    if (profile_snapshot_take(&tftpd.reader) != 0)
        return NULL;            /* lwIP answers "Unable to open requested file." */
    tftpd.size = profile_gmon_size(&tftpd.reader);
    tftpd.offset = 0;
    tftpd.block = 0;
    tftpd.last_read = 0;
    tftpd.final_acked = 0;
    tftpd.open = 1;
    return &tftpd;
}

/* profile_on()/profile_off() during the transfer ended the snapshot (it emptied the
 * frozen set the reader points at): its data is gone, neither delivered nor kept. */
static int snapshot_ended(void)
{
    return profile_gmon_size(&tftpd.reader) != tftpd.size;
}

static int tftp_read(void *handle, void *buf, int bytes)
{
    (void)handle;
    /* A snapshot that ended fails the transfer (lwIP sends an error and closes) rather
     * than serve a mix. */
    if (snapshot_ended())
        return -1;
    size_t n = profile_gmon_read(&tftpd.reader, tftpd.offset, buf, (size_t)bytes);
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

static void tftp_close(void *handle)
{
    (void)handle;
    /* The restart may come after the last block was read, so tftp_read never saw it:
     * the final ACK then completes a transfer whose data profile_on/profile_off already
     * discarded. That is no delivery (nothing was reset by it) and nothing is kept. */
    int ended = snapshot_ended();
    int delivered = tftpd.final_acked && !ended;
    profile_snapshot_release(&tftpd.reader, delivered);
    tftpd.open = 0;
    if (ended) {
        tftpd.stats.abandoned++;
        printf("profile: tftp: transfer of gmon.out ended by profile_on()/profile_off() "
               "after %u of %u bytes; its data was discarded\n", (unsigned)tftpd.offset,
               (unsigned)tftpd.size);
    } else if (delivered) {
        tftpd.stats.completed++;
        printf("profile: tftp: sent gmon.out (%u bytes); counters reset\n", (unsigned)tftpd.size);
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

/* A read or write request while no transfer runs: NULL if lwIP may have it, else the error
 * message (and *code) to answer with. */
static const char *check_request(struct pbuf *p, u16_t op, u16_t *code)
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
        return "read-only: this target serves gmon.out for reading";
    }
    if (!name_ok(name)) {
        *code = ERR_FILE_NOT_FOUND;
        return "file not found: this target serves gmon.out";
    }
    *code = ERR_NOT_DEFINED;
    if (strcasecmp(mode, "netascii") == 0)
        return "netascii refused: gmon.out is binary, use octet mode (tftp: binary)";
    if (strcasecmp(mode, "octet") != 0)
        return "unsupported mode: use octet (binary)";
    struct profile_gmon_reader live;
    profile_gmon_reader_init(&live);
    if (profile_gmon_size(&live) == 0)
        return "profiling is off";
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

static void filter(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr, u16_t port)
{
    (void)arg;
    u8_t h[4];
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
        if (tftpd.open) {
            if (from_peer) {
                tftpd.stats.ignored++;      /* the client resent its request */
                pbuf_free(p);
                return;
            }
            break;                          /* lwIP: one transfer at a time */
        }
        u16_t code;
        const char *why = check_request(p, op, &code);
        if (why) {
            tftpd.stats.refused++;
            send_error(addr, port, code, why);
            pbuf_free(p);
            return;
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
    case OP_ACK:
        if (from_peer) {
            u16_t block = (u16_t)(h[2] << 8 | h[3]);
            if (block != tftpd.block) {
                tftpd.stats.ignored++;      /* duplicate or stale */
                pbuf_free(p);
                return;
            }
            if (tftpd.last_read)
                tftpd.final_acked = 1;      /* lwIP closes the transfer on this one */
        }
        break;
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

int profile_tftp_start(void)
{
    if (tftpd.started)
        return 0;
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
    printf("profile: TFTP daemon serving gmon.out on %s UDP port %d\n", a, TFTP_PORT);
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
