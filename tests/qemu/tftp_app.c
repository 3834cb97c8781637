/*
 * TFTP end-to-end firmware (compiled with -pg): brings the network up, calls profile_on()
 * (which starts the TFTP daemon), then loops doing known work while polling the network.
 * The tests fetch gmon.out with real TFTP clients while it runs.
 *
 * Knobs gdb sets while QEMU waits at reset (or later):
 *   boot_mode    0: network, then profile_on (the eCos order)
 *                1: profile_on before the network (the daemon must say why it cannot
 *                   start), then the network, then profile_on twice (one daemon only)
 *                2: another service holds the daemon's UDP port during the first
 *                   profile_on (the daemon must say so), then lets it go before a second
 *                3: the first profile_on() fails (start == end: -EINVAL) after the network
 *                   is up: the daemon must run anyway and answer "profiling is off"; the
 *                   tests then set restart = 1 for a good profile_on()
 *   range_bytes  nonzero: profile [_stext, _stext + range_bytes) (the bench: 512 KiB, a
 *                64 KiB histogram) instead of [_stext, _etext)
 *   quiesce      1: stop calling the -pg work and stop the profile timer, so the data
 *                stays still (quiet becomes 1) for byte-for-byte comparisons
 *   restart      1: call profile_on() again from the loop, e.g. in the middle of a
 *                transfer; 2: call profile_off() (it goes back to 0 either way)
 *   inject       nonzero: hand lwIP TFTP packets that come from another host on the guest's
 *                network (inject_from, 10.0.2.99 unless set, UDP port 4444; QEMU's user network
 *                has no such host, so replies to it go nowhere), one per hex digit, lowest
 *                first: 1 RRQ gmon.out octet, 2 ACK of block inject_arg, 3 ERROR, 4 WRQ,
 *                5 a 2-byte runt. The loop says "tftp-app: injected N packets" and clears it.
 *   inject_on_transfer  nonzero: hold those packets until the daemon has started this many
 *                transfers: they go in right after the frame that started it (the client's
 *                request), before the client's ACK
 * Read by the tests: iterations (= calls of work_a and of work_b), samples_total (the
 * package's cumulative sample counter), on the console every second and via gdb.
 */
#include <pkgconf/system.h>
#ifdef CYGPKG_PROFILE_GPROF
# include <pkgconf/profile_gprof.h>
# include <cyg/profile/profile.h>
#endif
#ifdef CYGPKG_PROFILE_TFTP
# include <cyg/profile/tftp.h>
#endif
#include <network.h>
#include <string.h>
#include "lwip/inet_chksum.h"
#include "lwip/ip4.h"
#include "lwip/netif.h"
#include "lwip/prot/ip4.h"
#include "lwip/prot/udp.h"
#include "lwip/udp.h"
#ifndef CYGNUM_PROFILE_TFTP_PORT   /* a configuration without the daemon */
#define CYGNUM_PROFILE_TFTP_PORT 69
#endif
#include <stdint.h>
#include <stdio.h>
#include "tftp_app.h"

#define KEEP __attribute__((noinline, noipa))
/* Test plumbing, not the profiled work: no mcount call (GCC's no_instrument_function also
 * covers -pg), so it records no arcs, and still data (quiesce) stays still. */
#define PLUMBING __attribute__((no_instrument_function))

/* The knobs (see above): set by the tests through gdb while the guest is halted; read by
 * main(), which also clears restart, inject and inject_on_transfer once it has acted on
 * them. */
volatile uint32_t boot_mode;
volatile uint32_t range_bytes;
volatile uint32_t quiesce;
volatile uint32_t restart;
volatile uint32_t inject, inject_arg, inject_on_transfer;
volatile uint32_t inject_from = 0x0A000263;     /* 10.0.2.99 */

/* Owned by main()'s loop; tftp_support.c prints iterations for the tests (heartbeat and
 * quiesce lines), which can also read both through gdb. */
volatile uint32_t iterations;
volatile uint32_t quiet;
/* Written only by work_a and work_b (so that their loops are not optimised away). */
volatile uint32_t sink;

KEEP void work_a(void)
{
    for (uint32_t i = 0; i < 200; i++)
        sink += i;
}

KEEP void work_b(void)
{
    for (uint32_t i = 0; i < 600; i++)
        sink ^= i;
}

/* One UDP/IPv4 packet to the daemon from inject_from:4444, into lwIP as if received. */
PLUMBING static void inject_packet(unsigned kind)
{
    static const uint8_t rrq[] = "\0\1gmon.out\0octet", wrq[] = "\0\2gmon.out\0octet";
    static const uint8_t err[] = "\0\5\0\0not yours";
    uint8_t ack[4] = {0, 4, (uint8_t)(inject_arg >> 8), (uint8_t)inject_arg};
    const uint8_t *d;
    size_t n;
    switch (kind) {
    case 1: d = rrq; n = sizeof rrq; break;
    case 2: d = ack; n = sizeof ack; break;
    case 3: d = err; n = sizeof err; break;
    case 4: d = wrq; n = sizeof wrq; break;
    default: d = rrq; n = 2; break;
    }
    struct netif *nif = netif_default;
    struct pbuf *p = nif ? pbuf_alloc(PBUF_RAW, (u16_t)(IP_HLEN + UDP_HLEN + n), PBUF_RAM) : NULL;
    if (!p)
        return;
    struct ip_hdr *ip = p->payload;
    memset(ip, 0, IP_HLEN);
    IPH_VHL_SET(ip, 4, IP_HLEN / 4);
    IPH_LEN_SET(ip, lwip_htons((u16_t)(IP_HLEN + UDP_HLEN + n)));
    IPH_TTL_SET(ip, 64);
    IPH_PROTO_SET(ip, IP_PROTO_UDP);
    ip4_addr_set_u32(&ip->src, lwip_htonl(inject_from));
    ip4_addr_copy(ip->dest, *netif_ip4_addr(nif));
    IPH_CHKSUM_SET(ip, inet_chksum(ip, IP_HLEN));
    struct udp_hdr *u = (struct udp_hdr *)((uint8_t *)ip + IP_HLEN);
    u->src = lwip_htons(4444);
    u->dest = lwip_htons(CYGNUM_PROFILE_TFTP_PORT);
    u->len = lwip_htons((u16_t)(UDP_HLEN + n));
    u->chksum = 0;                      /* none (IPv4 allows it) */
    memcpy(u + 1, d, n);
    ip4_input(p, nif);                  /* takes p */
}

/* The inject knobs: the packets go in once the daemon has started inject_on_transfer
 * transfers (at once if 0). Called by the main loop and after each received frame. */
PLUMBING static void maybe_inject(void)
{
    if (!inject)
        return;
    if (inject_on_transfer) {
#ifdef CYGPKG_PROFILE_TFTP
        struct profile_tftp_stats st;
        if (profile_tftp_get_stats(&st) != 0 || st.transfers < inject_on_transfer)
            return;
#endif
        inject_on_transfer = 0;
    }
    unsigned count = 0;
    for (uint32_t k = inject; k; k >>= 4, count++)
        inject_packet(k & 0xF);
    inject = 0;
    printf("tftp-app: injected %u packets from %u.%u.%u.%u\n", count, (unsigned)(inject_from >> 24),
           (unsigned)(inject_from >> 16 & 255), (unsigned)(inject_from >> 8 & 255),
           (unsigned)(inject_from & 255));
}

/* The interface's own input function: saved by main() once the network is up, then called
 * only by app_input. */
static netif_input_fn net_input;

/* In front of it: a request that starts a transfer and the client's first ACK may arrive in
 * one network_poll() call, and injected packets must be able to come in between. */
PLUMBING static err_t app_input(struct pbuf *p, struct netif *inp)
{
    err_t e = net_input(p, inp);
    maybe_inject();
    return e;
}

int main(void)
{
    extern char _stext[], _etext[];
    char *end = range_bytes ? _stext + range_bytes : _etext;
    int rc;

    printf("tftp-app: start, boot mode %u\n", (unsigned)boot_mode);
    if (boot_mode == 1) {
        rc = profile_on(_stext, end, 16, APP_INTERVAL_US);
        printf("tftp-app: profile_on before the network: %d\n", rc);
    }
    rc = init_all_network_interfaces();
    printf("tftp-app: init_all_network_interfaces: %d\n", rc);
    if (netif_default && netif_default->input) {
        net_input = netif_default->input;
        netif_default->input = app_input;
    }
    struct udp_pcb *squatter = NULL;
    if (boot_mode == 3) {
        rc = profile_on(_stext, _stext, 16, APP_INTERVAL_US);
        printf("tftp-app: profile_on with an empty range: %d\n", rc);
    } else if (boot_mode == 2) {
        squatter = udp_new();
        printf("tftp-app: another service on UDP port %d: %d\n", CYGNUM_PROFILE_TFTP_PORT,
               squatter ? udp_bind(squatter, IP_ANY_TYPE, CYGNUM_PROFILE_TFTP_PORT) : -1);
    }
    if (boot_mode != 3) {
        rc = profile_on(_stext, end, 16, APP_INTERVAL_US);
        printf("tftp-app: profile_on: %d\n", rc);
    }
    if (squatter) {
        udp_remove(squatter);
        rc = profile_on(_stext, end, 16, APP_INTERVAL_US);
        printf("tftp-app: port free again, profile_on: %d\n", rc);
    }
    if (boot_mode == 1) {
        rc = profile_on(_stext, end, 16, APP_INTERVAL_US);
        printf("tftp-app: profile_on again: %d\n", rc);
    }
    printf("tftp-app: ready\n");

    for (;;) {
        if (!quiesce) {
            work_a();
            work_b();
            iterations++;
        } else if (!quiet) {
            app_quiesce();
            quiet = 1;
        }
        if (restart == 1) {
            restart = 0;
            rc = profile_on(_stext, end, 16, APP_INTERVAL_US);
            printf("tftp-app: restarted: profile_on: %d\n", rc);
        } else if (restart == 2) {
            restart = 0;
            profile_off();
            printf("tftp-app: profile_off\n");
        }
        maybe_inject();
        network_poll();
        app_tick();
    }
}
