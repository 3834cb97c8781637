/*
 * The TFTP daemon: a read-only TFTP server (RFC 1350) of our own on lwIP's raw UDP API,
 * with option negotiation (RFC 2347) of the block size (blksize, RFC 2348) and the
 * transfer size (tsize, RFC 2349), on UDP port CYGNUM_PROFILE_TFTP_PORT. It serves the
 * files of served_files[] below: gmon.out, a snapshot of the profiling data; gmon.tasks,
 * the task table that went with the last gmon.out delivered (tasks.c keeps it); and in the
 * stack-profiling mode gmon.stacks, that gmon.out's calling-context tree (stacks.c).
 *
 * A transfer freezes its file when it starts (gmon.out: profile_snapshot_take; recording
 * goes on into the spare set), sends it block by block in lock step, and releases it when
 * it ends: delivered (gmon.out: the counts start again) only if the client acknowledged the
 * last block, else merged back, so nothing is lost.
 *
 * The protocol's rules, and where this server is stricter than a plain RFC 1350 server:
 *   - an ERROR packet is never answered; from the transfer's client it ends the transfer;
 *   - duplicate and stale ACKs, a resent request, DATA and unknown opcodes from the
 *     transfer's client are ignored (an ERROR would make it give up);
 *   - a request gets a precise error: write requests (2, access violation), other names
 *     (1, file not found), netascii and other modes (0, with the reason), profiling off
 *     (0), malformed requests (4), options with bad values or given twice (8, RFC 2347);
 *   - options it does not know (timeout, windowsize, ...) are ignored, as RFC 2347 says;
 *     a request with blksize or tsize gets an OACK, which the client must acknowledge with
 *     ACK 0 (any other ACK ends the transfer with an ERROR 8);
 *   - one client cannot hold the daemon. A good read request from another client while a
 *     transfer runs:
 *       . if the transfer's client has sent no valid ACK for CYGNUM_PROFILE_TFTP_HOLD_MS
 *         (counting from its request), the transfer yields: it ends as abandoned (its data
 *         is kept) and the newcomer is served;
 *       . else, if that client has not acknowledged block 1, the newcomer is offered block
 *         1 of the same file (512 bytes: its options declined), and the first client to
 *         acknowledge block 1 gets the transfer (the last 4 newcomers are remembered);
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
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <cyg/profile/gmon.h>
#include <cyg/profile/tftp.h>
#include "profile_priv.h"   /* the frozen set's counters, for the console line */
#include "lwip/init.h"
#include "lwip/ip_addr.h"
#include "lwip/netif.h"
#include "lwip/pbuf.h"
#include "lwip/sys.h"
#include "lwip/timeouts.h"
#include "lwip/udp.h"

/* The daemon uses only lwIP's raw UDP API, pbufs, timeouts and address helpers, but it has
 * been tested with one lwIP release: another one must pass make test first. */
#if LWIP_VERSION_MAJOR != 2 || LWIP_VERSION_MINOR != 1 || LWIP_VERSION_REVISION != 3
#pragma message "lwIP version found: " LWIP_VERSION_STRING
#error "the TFTP daemon (target/src/tftp.c) is tested with lwIP 2.1.3 only, and this lwIP is another version (see the note above): run make test with it, then widen this check"
#endif

#define OP_RRQ   1
#define OP_WRQ   2
#define OP_DATA  3
#define OP_ACK   4
#define OP_ERROR 5
#define OP_OACK  6

#define ERR_NOT_DEFINED      0
#define ERR_FILE_NOT_FOUND   1
#define ERR_ACCESS_VIOLATION 2
#define ERR_ILLEGAL_OP       4
#define ERR_OPTION           8      /* RFC 2347: the options are refused */

#define HEADER          4           /* opcode and block number, or opcode and error code */
#define BLKSIZE_DEFAULT 512         /* RFC 1350's only size */
#define BLKSIZE_MIN     8           /* RFC 2348's range */
#define BLKSIZE_MAX     65464
#define REQUEST_MAX     512         /* RFC 2347: a request, options included */
#define IPV4_UDP_HEADERS 28         /* a block must fit the interface's MTU: no fragments */

/* The allowed network from the configuration, as a C string (opts.h checks its length). */
#define ALLOW_TEXT CYGDAT_PROFILE_TFTP_ALLOW
#define ALLOW_PREFIX CYGNUM_PROFILE_TFTP_ALLOW_PREFIX

/* ---- the files served ------------------------------------------------------------------ */

struct transfer;
struct served_file;

/* A file kept by its owner for the daemon: its size now (and the generation it belongs
 * to), its bytes, whether that generation has gone, and the counter of its completed
 * transfers. */
struct kept_file {
    size_t (*size)(uint32_t *generation);
    size_t (*read)(size_t offset, void *buf, size_t len);
    int (*ended)(uint32_t generation);
    uint32_t *completed;
};

/*
 * A file the daemon serves: adding one is one entry in served_files[]. A transfer freezes
 * what it reads (open), reads it in blocks (read, checked with ended), and ends with close.
 */
struct served_file {
    const char *name;
    /* Not in this configuration: why (ERROR 1 "file not found: <absent>; ..."); the
     * functions below are then NULL. */
    const char *absent;
    /* Why it cannot be served now (and *code), or NULL; changes nothing. NULL: always. */
    const char *(*unavailable)(const struct served_file *f, u16_t *code);
    /* A companion of gmon.out: what its owner keeps (the functions below use it). */
    const struct kept_file *kept;
    /* Freezes what the transfer reads and sets t->size: 0, or a negative errno. */
    int (*open)(struct transfer *t);
    /* Up to len bytes of the frozen file at offset; fewer at its end. */
    size_t (*read)(struct transfer *t, size_t offset, void *buf, size_t len);
    /* Nonzero once what the transfer reads has gone (profile_on()/profile_off()). */
    int (*ended)(const struct transfer *t);
    /* Releases it, delivered if the client acknowledged the last block (and it had not
     * ended), and says so on the console. Returns nonzero if it counts as completed. */
    int (*close)(struct transfer *t, int final_acked);
};

/* The transfer in progress (one at a time). */
struct transfer {
    const struct served_file *file;     /* NULL: none */
    struct profile_gmon_reader reader;  /* gmon.out: its snapshot */
    uint32_t generation;        /* gmon.stacks, gmon.tasks: what was kept, at the start */
    size_t size;                /* bytes of the frozen file */
    uint32_t block;             /* the block sent last: 0 is the OACK */
    u16_t blksize;
    u8_t oack_blksize, oack_tsize;      /* options acknowledged in the OACK */
    ip_addr_t peer;
    u16_t peer_port;
    /* sys_now() at the request and at the client's last valid ACK: when the packet it
     * waits for was first sent (the retransmission timer) and the hold time's start */
    u32_t progress_ms;
    u8_t retries;               /* resends of that packet */
    /* Other clients offered block 1 while the client had not acknowledged it: the first of
     * them (or the client) to acknowledge it gets the transfer. ncand counts the clients
     * remembered since the transfer started; the oldest is overwritten once it is full. */
    struct {
        ip_addr_t addr;
        u16_t port;
    } cand[4];
    unsigned ncand;
};

/* A read request, parsed: its strings point into tftpd.request. */
struct request {
    u16_t op;
    const char *name, *mode;
    const struct served_file *file;     /* NULL: no file of that name */
    u16_t blksize;              /* asked for; 0: not */
    u8_t tsize;                 /* asked for */
};

/* The daemon's state. Owned here and touched only in lwIP's context (the receive callback,
 * the retransmission timer, profile_tftp_start from profile_on); profile_tftp_get_stats
 * copies the counters. */
static struct {
    int started;
    struct udp_pcb *pcb;
    char request[REQUEST_MAX + 1];  /* the request being parsed, NUL-terminated */
    char why[96];                   /* an error message made for one request */
    char serves[64];                /* "gmon.out, gmon.stacks and gmon.tasks": served_files' names */
    /* The hosts served (network byte order), from the configuration at the first start. */
    ip4_addr_t allow_net, allow_mask;
    struct profile_tftp_stats stats;
} tftpd;

/* The transfer in progress: owned here, touched only in lwIP's context as tftpd is. */
static struct transfer xfer;

/* ---- blocks ---------------------------------------------------------------------------- */

/* Where block n (1, 2, ...) starts in the file, in blocks of blksize bytes. */
static size_t block_offset(u16_t blksize, uint32_t n)
{
    return (size_t)(n - 1) * blksize;
}

/* Bytes of block n of a file of size bytes: blksize, fewer in the last (0 if size is a
 * multiple of blksize: RFC 1350 ends a transfer with a short block). */
static size_t block_len(size_t size, u16_t blksize, uint32_t n)
{
    size_t left = size - block_offset(blksize, n);
    return left < blksize ? left : blksize;
}

/* Bytes of the file in the blocks sent so far. */
static size_t bytes_sent(const struct transfer *t)
{
    return t->block ? block_offset(t->blksize, t->block) + block_len(t->size, t->blksize, t->block) : 0;
}

/* gmon.out: the snapshot of the profiling data. */

static int gmon_open(struct transfer *t)
{
    int rc = profile_snapshot_take(&t->reader);
    if (rc == 0)
        t->size = profile_gmon_size(&t->reader);
    return rc;
}

static size_t gmon_read(struct transfer *t, size_t offset, void *buf, size_t len)
{
    return profile_gmon_read(&t->reader, offset, buf, len);
}

static int gmon_ended(const struct transfer *t)
{
    return profile_snapshot_ended(&t->reader);
}

/* The profiler overhead's share of samples, in tenths of a percent (integers: no
 * floating-point printf needed). */
static uint32_t overhead_tenths(uint32_t overhead, uint32_t samples)
{
    return samples ? (uint32_t)(((uint64_t)overhead * 1000 + samples / 2) / samples) : 0;
}

static int gmon_close(struct transfer *t, int final_acked)
{
    /* A restart after the last block was sent is seen only here: the final ACK then ends a
     * transfer whose data profile_on/profile_off already discarded. That is no delivery
     * (it reset nothing) and nothing is kept. */
    int ended = gmon_ended(t);
    int delivered = final_acked && !ended;
    /* What the file said, for the console line (the frozen set is read only here). */
    uint32_t samples = 0, overhead = 0;
    if (delivered) {
        samples = t->reader.state->samples;
        overhead = t->reader.state->samples_overhead;
    }
    /* (gmon.stacks of this gmon.out stays for `tftp get gmon.stacks`) */
    profile_snapshot_release(&t->reader, delivered ? PROFILE_SNAPSHOT_DELIVERED_GMON
                                                   : PROFILE_SNAPSHOT_MERGED);
    if (ended) {
        printf("profile: tftp: transfer of gmon.out ended by profile_on()/profile_off() "
               "after %u of %u bytes; its data was discarded\n", (unsigned)bytes_sent(t), (unsigned)t->size);
    } else if (delivered) {
        uint32_t tenths = overhead_tenths(overhead, samples);
        printf("profile: tftp: sent gmon.out (%u bytes; profiler overhead %u.%u%% of %u samples, "
               "not charged to any function); counters reset%s\n", (unsigned)t->size,
               (unsigned)(tenths / 10), (unsigned)(tenths % 10), (unsigned)samples,
               PROFILE_STACKS ? "; its gmon.stacks is served until the next gmon.out" : "");
    } else {
        printf("profile: tftp: transfer of gmon.out abandoned after %u of %u bytes; "
               "its data stays for the next one\n", (unsigned)bytes_sent(t), (unsigned)t->size);
    }
    return delivered;
}

/* The companions of gmon.out, gmon.stacks and gmon.tasks: what went with the last gmon.out
 * delivered, kept by their owners (stacks.c, tasks.c) until the next one is delivered; a
 * get resets nothing, and the same file may be got again. */

static const char *why(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static const char *kept_unavailable(const struct served_file *f, u16_t *code)
{
    uint32_t generation;
    if (f->kept->size(&generation) != 0)
        return NULL;
    *code = ERR_FILE_NOT_FOUND;
    return why("%s goes with a gmon.out: get gmon.out first (none delivered since "
               "profile_on)", f->name);
}

static int kept_open(struct transfer *t)
{
    t->size = t->file->kept->size(&t->generation);
    return t->size ? 0 : -ENODATA;
}

static size_t kept_read(struct transfer *t, size_t offset, void *buf, size_t len)
{
    return t->file->kept->read(offset, buf, len);
}

/* (what was kept changed: profile_on/profile_off, or another gmon.out delivered) */
static int kept_ended(const struct transfer *t)
{
    return t->file->kept->ended(t->generation);
}

static int kept_close(struct transfer *t, int final_acked)
{
    const char *name = t->file->name;
    if (kept_ended(t)) {
        printf("profile: tftp: transfer of %s ended after %u of %u bytes: it went "
               "(profile_on()/profile_off())\n", name, (unsigned)bytes_sent(t), (unsigned)t->size);
        return 0;
    }
    if (!final_acked) {
        printf("profile: tftp: transfer of %s abandoned after %u of %u bytes; it stays for "
               "the next one\n", name, (unsigned)bytes_sent(t), (unsigned)t->size);
        return 0;
    }
    (*t->file->kept->completed)++;
    printf("profile: tftp: sent %s (%u bytes)\n", name, (unsigned)t->size);
    return 1;
}

#if PROFILE_STACKS
static const struct kept_file kept_stacks = {
    profile_stack_kept_size, profile_stack_kept_read, profile_stack_kept_ended,
    &tftpd.stats.stacks_completed};
#endif
static const struct kept_file kept_tasks = {
    profile_task_kept_size, profile_task_kept_read, profile_task_kept_ended,
    &tftpd.stats.tasks_completed};

#define KEPT_FILE(fname, owner) \
    {.name = fname, .kept = owner, .unavailable = kept_unavailable, .open = kept_open, \
     .read = kept_read, .ended = kept_ended, .close = kept_close}

/* Constant: every file the daemon knows, in the order the console lists them. */
static const struct served_file served_files[] = {
    {.name = "gmon.out", .open = gmon_open, .read = gmon_read, .ended = gmon_ended,
     .close = gmon_close},
#if PROFILE_STACKS
    KEPT_FILE("gmon.stacks", &kept_stacks),
#else
    {.name = "gmon.stacks", .absent = "gmon.stacks needs the stack-profiling mode (CYGPKG_PROFILE_STACKS)"},
#endif
    KEPT_FILE("gmon.tasks", &kept_tasks),
};
#define NFILES (sizeof served_files / sizeof served_files[0])

/* ---- sending ---------------------------------------------------------------------------- */

static void put_u16(u8_t *b, u16_t v)
{
    b[0] = (u8_t)(v >> 8);
    b[1] = (u8_t)v;
}

static void send_error(const ip_addr_t *addr, u16_t port, u16_t code, const char *msg)
{
    size_t n = strlen(msg);
    struct pbuf *p = pbuf_alloc(PBUF_TRANSPORT, (u16_t)(HEADER + n + 1), PBUF_RAM);
    if (!p)
        return;
    u8_t *b = p->payload;
    put_u16(b, OP_ERROR);
    put_u16(b + 2, code);
    memcpy(b + HEADER, msg, n + 1);
    udp_sendto(tftpd.pcb, p, addr, port);
    pbuf_free(p);
}

/* Sends block n of the transfer's file, in blocks of blksize bytes, to addr:port: 0;
 * -ENODATA if the file has gone (nothing sent: no block of a mix); -ENOMEM if lwIP has no
 * buffer (the retransmission timer tries again). */
static int send_block(const ip_addr_t *addr, u16_t port, uint32_t n, u16_t blksize)
{
    size_t len = block_len(xfer.size, blksize, n);
    if (xfer.file->ended(&xfer))
        return -ENODATA;
    struct pbuf *p = pbuf_alloc(PBUF_TRANSPORT, (u16_t)(HEADER + len), PBUF_RAM);
    if (!p)
        return -ENOMEM;
    u8_t *b = p->payload;
    put_u16(b, OP_DATA);
    put_u16(b + 2, (u16_t)n);
    xfer.file->read(&xfer, block_offset(blksize, n), b + HEADER, len);
    int rc = 0;
    if (xfer.file->ended(&xfer))
        rc = -ENODATA;                  /* it went during the read */
    else
        udp_sendto(tftpd.pcb, p, addr, port);
    pbuf_free(p);
    return rc;
}

/* Appends "name\0value\0" to an OACK being built at *end. */
static void oack_put(char **end, const char *name, unsigned long value)
{
    *end += strlen(strcpy(*end, name)) + 1;
    *end += sprintf(*end, "%lu", value) + 1;
}

/* Sends the OACK: the options the transfer acknowledged, with their values. */
static void send_oack(void)
{
    char text[sizeof "blksize" + 6 + sizeof "tsize" + 21];
    char *end = text;
    if (xfer.oack_blksize)
        oack_put(&end, "blksize", xfer.blksize);
    if (xfer.oack_tsize)
        oack_put(&end, "tsize", (unsigned long)xfer.size);
    u16_t n = (u16_t)(end - text);
    struct pbuf *p = pbuf_alloc(PBUF_TRANSPORT, (u16_t)(2 + n), PBUF_RAM);
    if (!p)
        return;                         /* the retransmission timer tries again */
    u8_t *b = p->payload;
    put_u16(b, OP_OACK);
    memcpy(b + 2, text, n);
    udp_sendto(tftpd.pcb, p, &xfer.peer, xfer.peer_port);
    pbuf_free(p);
}

/* ---- the transfer ----------------------------------------------------------------------- */

static void retransmission_tick(void *arg);

/* Ends the transfer: released as delivered if final_acked, else kept (merged back). */
static void finish(int final_acked)
{
    sys_untimeout(retransmission_tick, NULL);
    if (xfer.file->close(&xfer, final_acked))
        tftpd.stats.completed++;
    else
        tftpd.stats.abandoned++;
    xfer.file = NULL;
}

/* The file went during the transfer: the client is told, the transfer ends. */
static void fail_gone(void)
{
    send_error(&xfer.peer, xfer.peer_port, ERR_NOT_DEFINED,
               "the data went (profile_on() or profile_off() during the transfer): ask again");
    finish(0);
}

/* Sends the current block (or the OACK) again. */
static void resend(void)
{
    if (xfer.block == 0)
        send_oack();
    else if (send_block(&xfer.peer, xfer.peer_port, xfer.block, xfer.blksize) == -ENODATA)
        fail_gone();
}

/* The client acknowledged the current block: the next one, or the end. */
static void next_block(void)
{
    if (xfer.block > 0 && block_len(xfer.size, xfer.blksize, xfer.block) < xfer.blksize) {
        finish(1);                      /* that was the last block */
        return;
    }
    xfer.block++;
    xfer.retries = 0;
    if (send_block(&xfer.peer, xfer.peer_port, xfer.block, xfer.blksize) == -ENODATA)
        fail_gone();
}

/*
 * Every PROFILE_TFTP_TICK_MS while a transfer runs: once the packet sent last has waited
 * PROFILE_TFTP_TIMEOUT_MS for its ACK, it is sent again each tick, PROFILE_TFTP_RETRIES
 * times, then the transfer is given up (abandoned: its data is kept). Duplicate ACKs do not
 * restart the wait: a client that lost a block and resends its ACK still gets the block.
 */
static void retransmission_tick(void *arg)
{
    (void)arg;
    if (!xfer.file)
        return;
    sys_timeout(PROFILE_TFTP_TICK_MS, retransmission_tick, NULL);
    if ((u32_t)(sys_now() - xfer.progress_ms) < (u32_t)PROFILE_TFTP_TIMEOUT_MS)
        return;
    if (xfer.retries < PROFILE_TFTP_RETRIES) {
        xfer.retries++;
        resend();
    } else {
        finish(0);
    }
}

/* The largest block that fits the default interface's MTU without IP fragments. */
static u16_t blksize_max(void)
{
    struct netif *n = netif_default;
    if (!n || n->mtu < IPV4_UDP_HEADERS + HEADER + BLKSIZE_DEFAULT)
        return BLKSIZE_DEFAULT;
    unsigned max = n->mtu - IPV4_UDP_HEADERS - HEADER;
    return (u16_t)(max < BLKSIZE_MAX ? max : BLKSIZE_MAX);
}

/* The block size and the OACK's options from what the request asked for. */
static void negotiate(const struct request *rq)
{
    u16_t max = blksize_max();
    xfer.blksize = BLKSIZE_DEFAULT;
    if (rq->blksize) {
        xfer.blksize = rq->blksize < max ? rq->blksize : max;
        xfer.oack_blksize = 1;
    }
    xfer.oack_tsize = rq->tsize;
}

/* Starts the transfer a good read request asks for: the OACK, or block 1. */
static void start_transfer(const struct request *rq, const ip_addr_t *addr, u16_t port)
{
    memset(&xfer, 0, sizeof xfer);
    xfer.file = rq->file;               /* (open reads it) */
    int rc = rq->file->open(&xfer);
    if (rc != 0) {
        xfer.file = NULL;
        tftpd.stats.refused++;
        snprintf(tftpd.why, sizeof tftpd.why, "%s cannot be frozen now (error %d)", rq->file->name, rc);
        send_error(addr, port, ERR_NOT_DEFINED, tftpd.why);
        return;
    }
    ip_addr_copy(xfer.peer, *addr);
    xfer.peer_port = port;
    xfer.progress_ms = sys_now();
    tftpd.stats.transfers++;
    negotiate(rq);
    sys_timeout(PROFILE_TFTP_TICK_MS, retransmission_tick, NULL);
    if (xfer.oack_blksize || xfer.oack_tsize)
        send_oack();                    /* block 0: the client acknowledges it first */
    else
        next_block();
}

/* ---- requests --------------------------------------------------------------------------- */

/* An error message made for this request (in tftpd.why). */
static const char *why(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tftpd.why, sizeof tftpd.why, fmt, ap);
    va_end(ap);
    return tftpd.why;
}

/* Past the NUL that ends the string at s, or NULL if none does before end. */
static const char *after_string(const char *s, const char *end)
{
    const char *nul = memchr(s, 0, (size_t)(end - s));
    return nul ? nul + 1 : NULL;
}

/* A decimal number of digits only into *v (ULONG_MAX if it is larger: it never wraps): 0,
 * or -1 if text is not one. */
static int decimal(const char *text, unsigned long *v)
{
    if (!*text)
        return -1;
    *v = 0;
    for (; *text; text++) {
        if (*text < '0' || *text > '9')
            return -1;
        unsigned long digit = (unsigned long)(*text - '0');
        *v = *v > (ULONG_MAX - digit) / 10 ? ULONG_MAX : *v * 10 + digit;
    }
    return 0;
}

static const char *take_blksize(struct request *rq, const char *value)
{
    unsigned long v;
    if (rq->blksize)
        return "option blksize given twice";
    if (decimal(value, &v) != 0 || v < BLKSIZE_MIN || v > BLKSIZE_MAX)
        return why("blksize \"%.12s\" refused: RFC 2348 allows 8 to 65464 bytes", value);
    rq->blksize = (u16_t)v;
    return NULL;
}

static const char *take_tsize(struct request *rq, const char *value)
{
    unsigned long v;
    if (rq->tsize)
        return "option tsize given twice";
    if (decimal(value, &v) != 0)
        return why("tsize \"%.12s\" refused: a number of bytes (0 in a read request)", value);
    rq->tsize = 1;
    return NULL;
}

/* The options after the mode (RFC 2347: name and value, each NUL-terminated). blksize and
 * tsize are taken; options this server does not know are ignored, as RFC 2347 says. NULL,
 * or why the request is refused (and *code). */
static const char *parse_options(struct request *rq, const char *s, const char *end, u16_t *code)
{
    while (s < end) {
        const char *name = s, *value = after_string(s, end), *refused = NULL;
        *code = ERR_ILLEGAL_OP;
        if (!value)
            return "malformed request: an option name is not NUL-terminated";
        if (!*name && value == end)
            break;                      /* one NUL more after the last string: padding */
        if (value == end)
            return why("malformed request: option \"%.16s\" has no value", name);
        s = after_string(value, end);
        if (!s)
            return why("malformed request: the value of option \"%.16s\" is not NUL-terminated", name);
        *code = ERR_OPTION;
        if (strcasecmp(name, "blksize") == 0)
            refused = take_blksize(rq, value);
        else if (strcasecmp(name, "tsize") == 0)
            refused = take_tsize(rq, value);
        if (refused)
            return refused;
    }
    return NULL;
}

/* Reads a request's file name, mode and options into rq (its strings in tftpd.request):
 * NULL, or why it is malformed (and *code). */
static const char *parse_request(struct pbuf *p, u16_t op, struct request *rq, u16_t *code)
{
    memset(rq, 0, sizeof *rq);
    rq->op = op;
    *code = ERR_ILLEGAL_OP;
    if (p->tot_len > REQUEST_MAX)
        return why("request too long: %u bytes (RFC 2347 allows 512)", (unsigned)p->tot_len);
    u16_t n = pbuf_copy_partial(p, tftpd.request, (u16_t)(p->tot_len - 2), 2);
    const char *end = tftpd.request + n;
    tftpd.request[n] = 0;
    rq->name = tftpd.request;
    rq->mode = after_string(rq->name, end);
    if (!rq->mode)
        return "malformed request: the file name is not NUL-terminated";
    const char *options = after_string(rq->mode, end);
    if (!options)
        return "malformed request: no mode (octet), or it is not NUL-terminated";
    return parse_options(rq, options, end, code);
}

/* The served file named name (with or without a leading '/'), or NULL. */
static const struct served_file *file_named(const char *name)
{
    if (name[0] == '/')
        name++;
    for (size_t f = 0; f < NFILES; f++)
        if (strcmp(name, served_files[f].name) == 0)
            return &served_files[f];
    return NULL;
}

static int profiling_on(void)
{
    struct profile_gmon_reader live;
    profile_gmon_reader_init(&live);
    return profile_gmon_size(&live) != 0;
}

/* Why a well-formed request is refused (and *code), or NULL; sets rq->file. */
static const char *refusal(struct request *rq, u16_t *code)
{
    if (rq->op == OP_WRQ) {
        *code = ERR_ACCESS_VIOLATION;
        return why("read-only: this target serves %s for reading", tftpd.serves);
    }
    rq->file = file_named(rq->name);
    if (!rq->file || rq->file->absent) {
        *code = ERR_FILE_NOT_FOUND;
        return why("file not found: %s%sthis target serves %s", rq->file ? rq->file->absent : "",
                   rq->file ? "; " : "", tftpd.serves);
    }
    *code = ERR_NOT_DEFINED;
    if (strcasecmp(rq->mode, "netascii") == 0)
        return why("netascii refused: %s is binary, use octet mode (tftp: binary)", rq->file->name);
    if (strcasecmp(rq->mode, "octet") != 0)
        return "unsupported mode: use octet (binary)";
    if (!profiling_on())
        return "profiling is off";
    return rq->file->unavailable ? rq->file->unavailable(rq->file, code) : NULL;
}

/* ---- sharing the daemon ----------------------------------------------------------------- */

/* The transfer's client has sent no valid ACK (none at all: no request) for
 * CYGNUM_PROFILE_TFTP_HOLD_MS. */
static int stalled(void)
{
    return (u32_t)(sys_now() - xfer.progress_ms) >= (u32_t)CYGNUM_PROFILE_TFTP_HOLD_MS;
}

#define NCAND_MAX (sizeof xfer.cand / sizeof xfer.cand[0])

static int is_candidate(const ip_addr_t *addr, u16_t port)
{
    for (unsigned i = 0; i < xfer.ncand && i < NCAND_MAX; i++)
        if (xfer.cand[i].port == port && ip_addr_cmp(&xfer.cand[i].addr, addr))
            return 1;
    return 0;
}

/* Another client asked while the transfer's client has not acknowledged block 1: send it
 * block 1 of the same file (512 bytes: as a server without options would) and remember it;
 * the oldest is forgotten when the table is full. */
static void offer(const ip_addr_t *addr, u16_t port)
{
    if (send_block(addr, port, 1, BLKSIZE_DEFAULT) != 0)
        return;
    tftpd.stats.offered++;
    if (is_candidate(addr, port))
        return;                         /* it resent its request */
    unsigned i = xfer.ncand++ % NCAND_MAX;
    ip_addr_copy(xfer.cand[i].addr, *addr);
    xfer.cand[i].port = port;
}

/* A candidate acknowledged block 1 first: the transfer goes on with it, on the same file,
 * in blocks of 512 bytes (what it was offered). */
static void take_over(const ip_addr_t *addr, u16_t port)
{
    ip_addr_copy(xfer.peer, *addr);
    xfer.peer_port = port;
    xfer.blksize = BLKSIZE_DEFAULT;
    xfer.oack_blksize = xfer.oack_tsize = 0;
    xfer.block = 1;
    xfer.progress_ms = sys_now();
    tftpd.stats.taken_over++;
    next_block();
}

/* The client has been silent for the hold time and another asks: its transfer ends
 * (abandoned: the data is kept, nothing lost). */
static void yield(void)
{
    tftpd.stats.yielded++;
    printf("profile: tftp: client silent for %u ms (hold limit %u ms): its transfer yields to "
           "another client's request\n", (unsigned)(sys_now() - xfer.progress_ms),
           (unsigned)CYGNUM_PROFILE_TFTP_HOLD_MS);
    finish(0);
}

/* Another client's good read request while a transfer runs: 1 if the transfer yielded to
 * it (serve it now); 0 if it was offered block 1, or is left unanswered (an ERROR would
 * make the client give up; it resends and is served later). */
static int make_room(const struct request *rq, const ip_addr_t *addr, u16_t port)
{
    if (stalled()) {
        yield();
        return 1;
    }
    if (xfer.block <= 1 && rq->file == xfer.file && !xfer.file->ended(&xfer))
        offer(addr, port);
    else
        tftpd.stats.busy++;
    return 0;
}

/* ---- one function per opcode ------------------------------------------------------------ */

/* (from_peer: the packet comes from the transfer's client) */
typedef void packet_handler(struct pbuf *p, u16_t op, const ip_addr_t *addr, u16_t port, int from_peer);

static u16_t get_u16(struct pbuf *p, u16_t offset)
{
    u8_t b[2];
    pbuf_copy_partial(p, b, 2, offset);
    return (u16_t)(b[0] << 8 | b[1]);
}

/* RRQ and WRQ. */
static void on_request(struct pbuf *p, u16_t op, const ip_addr_t *addr, u16_t port, int from_peer)
{
    if (from_peer) {
        tftpd.stats.ignored++;          /* its request again */
        return;
    }
    struct request rq;
    u16_t code;
    const char *refused = parse_request(p, op, &rq, &code);
    if (!refused)
        refused = refusal(&rq, &code);
    if (refused) {
        tftpd.stats.refused++;
        send_error(addr, port, code, refused);
        return;
    }
    if (xfer.file && !make_room(&rq, addr, port))
        return;
    start_transfer(&rq, addr, port);
}

/* The transfer's client acknowledged block n. */
static void ack_from_client(u16_t n)
{
    if (n == (u16_t)xfer.block) {
        xfer.progress_ms = sys_now();
        next_block();
    } else if (xfer.block == 0) {
        send_error(&xfer.peer, xfer.peer_port, ERR_OPTION,
                   "the OACK must be acknowledged with ACK 0 (RFC 2347)");
        finish(0);
    } else {
        tftpd.stats.ignored++;          /* duplicate or stale */
    }
}

static void on_ack(struct pbuf *p, u16_t op, const ip_addr_t *addr, u16_t port, int from_peer)
{
    (void)op;
    u16_t n = get_u16(p, 2);
    if (from_peer)
        ack_from_client(n);
    else if (xfer.file && n == 1 && xfer.block <= 1 && is_candidate(addr, port) &&
             !xfer.file->ended(&xfer))
        take_over(addr, port);          /* a candidate acknowledged block 1 first */
    else
        send_error(addr, port, ERR_ACCESS_VIOLATION, xfer.file
                   ? "not your transfer: another client's is in progress"
                   : "no transfer in progress: send a read request first");
}

/* Never answered (RFC 1350). From the client: it gives the transfer up. */
static void on_error(struct pbuf *p, u16_t op, const ip_addr_t *addr, u16_t port, int from_peer)
{
    (void)p, (void)op, (void)addr, (void)port;
    if (from_peer)
        finish(0);
    else
        tftpd.stats.ignored++;
}

static void on_data(struct pbuf *p, u16_t op, const ip_addr_t *addr, u16_t port, int from_peer)
{
    (void)p, (void)op;
    if (from_peer)
        tftpd.stats.ignored++;          /* from the reading client: junk, not worth an ERROR */
    else
        send_error(addr, port, ERR_ACCESS_VIOLATION,
                   why("no write transfer: this target serves %s for reading", tftpd.serves));
}

/* OACK (a server's packet) and opcodes TFTP does not have. */
static void on_unknown(struct pbuf *p, u16_t op, const ip_addr_t *addr, u16_t port, int from_peer)
{
    (void)p;
    if (from_peer)
        tftpd.stats.ignored++;
    else
        send_error(addr, port, ERR_ILLEGAL_OP, why("unknown opcode %u", (unsigned)op));
}

/* Constant: the handler of each opcode a client may send. */
static packet_handler *const handlers[] = {
    [OP_RRQ] = on_request,
    [OP_WRQ] = on_request,
    [OP_DATA] = on_data,
    [OP_ACK] = on_ack,
    [OP_ERROR] = on_error,
};

/* ---- receiving -------------------------------------------------------------------------- */

/* Is the host at addr one the daemon serves? */
static int allowed(const ip_addr_t *addr)
{
    if (ip4_addr_isany_val(tftpd.allow_mask))
        return 1;                       /* 0.0.0.0/0: everyone */
    if (!IP_IS_V4(addr))
        return 0;
    return ip4_addr_netcmp(ip_2_ip4(addr), &tftpd.allow_net, &tftpd.allow_mask);
}

/* From outside the allowed network: changes nothing, whatever it is. A request gets the
 * reason (so that a user there knows why); anything else is dropped unanswered. */
static void deny(struct pbuf *p, const ip_addr_t *addr, u16_t port)
{
    tftpd.stats.denied++;
    u16_t op = p->tot_len >= 2 ? get_u16(p, 0) : 0;
    if (op == OP_RRQ || op == OP_WRQ)
        send_error(addr, port, ERR_ACCESS_VIOLATION, "access denied: this host may not read the profile");
}

static void dispatch(struct pbuf *p, const ip_addr_t *addr, u16_t port)
{
    if (!allowed(addr)) {
        deny(p, addr, port);
        return;
    }
    int from_peer = xfer.file && port == xfer.peer_port && ip_addr_cmp(addr, &xfer.peer);
    if (p->tot_len < HEADER) {
        tftpd.stats.ignored++;
        if (!from_peer)
            send_error(addr, port, ERR_ILLEGAL_OP, "malformed packet: shorter than a TFTP header");
        return;
    }
    u16_t op = get_u16(p, 0);
    packet_handler *handle = op < sizeof handlers / sizeof handlers[0] ? handlers[op] : NULL;
    (handle ? handle : on_unknown)(p, op, addr, port, from_peer);
}

/* The daemon's UDP receive callback. */
static void on_packet(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr, u16_t port)
{
    (void)arg, (void)pcb;
    ip_addr_t from;
    ip_addr_copy(from, *addr);          /* (lwIP's, for this packet only) */
    dispatch(p, &from, port);
    pbuf_free(p);
}

/* ---- starting --------------------------------------------------------------------------- */

/* tftpd.serves: the names of the files this configuration serves ("a, b and c"). */
static void list_served(void)
{
    size_t names = 0, used = 0;
    for (size_t f = 0; f < NFILES; f++)
        names += !served_files[f].absent;
    for (size_t f = 0, listed = 0; f < NFILES; f++) {
        if (served_files[f].absent)
            continue;
        const char *sep = listed == 0 ? "" : listed + 1 == names ? " and " : ", ";
        int n = snprintf(tftpd.serves + used, sizeof tftpd.serves - used, "%s%s", sep,
                         served_files[f].name);
        if (n < 0 || (size_t)n >= sizeof tftpd.serves - used)
            break;                      /* (cut short: the buffer holds three names) */
        used += (size_t)n;
        listed++;
    }
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

/* The daemon's UDP PCB, bound to its port: 0, or -EADDRINUSE / -ENOMEM (said). */
static int open_port(void)
{
    struct udp_pcb *pcb = udp_new();
    err_t e = pcb ? udp_bind(pcb, IP_ANY_TYPE, CYGNUM_PROFILE_TFTP_PORT) : ERR_MEM;
    if (e != ERR_OK) {
        if (pcb)
            udp_remove(pcb);
        printf("profile: TFTP daemon not started: %s on UDP port %d (lwIP error %d)\n",
               e == ERR_USE ? "another service is" : "no PCB", CYGNUM_PROFILE_TFTP_PORT, (int)e);
        return e == ERR_USE ? -EADDRINUSE : -ENOMEM;
    }
    udp_recv(pcb, on_packet, NULL);
    tftpd.pcb = pcb;
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
    int rc = open_port();
    if (rc != 0)
        return rc;
    tftpd.started = 1;
    list_served();
    char a[IP4ADDR_STRLEN_MAX];
    ip4addr_ntoa_r(netif_ip4_addr(n), a, sizeof a);
    if (ip4_addr_isany_val(tftpd.allow_mask))
        printf("profile: TFTP daemon serving %s on %s UDP port %d\n", tftpd.serves, a,
               CYGNUM_PROFILE_TFTP_PORT);
    else
        printf("profile: TFTP daemon serving %s on %s UDP port %d to %s/%d only\n", tftpd.serves,
               a, CYGNUM_PROFILE_TFTP_PORT, ALLOW_TEXT, ALLOW_PREFIX);
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
