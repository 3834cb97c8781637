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
 *   range_bytes  nonzero: profile [_stext, _stext + range_bytes) (the bench: 512 KiB, a
 *                64 KiB histogram) instead of [_stext, _etext)
 *   quiesce      1: stop calling the -pg work and stop the profile timer, so the data
 *                stays still (quiet becomes 1) for byte-for-byte comparisons
 *   restart      1: call profile_on() again from the loop, e.g. in the middle of a
 *                transfer; 2: call profile_off() (it goes back to 0 either way)
 * Read by the tests: iterations (= calls of work_a and of work_b), samples_total (the
 * package's cumulative sample counter), on the console every second and via gdb.
 */
#include <pkgconf/system.h>
#ifdef CYGPKG_PROFILE_GPROF
# include <cyg/profile/profile.h>
#endif
#ifdef CYGPKG_PROFILE_TFTP
# include <cyg/profile/tftp.h>
#endif
#include <network.h>
#include "lwip/udp.h"
#ifndef CYGNUM_PROFILE_TFTP_PORT   /* a configuration without the daemon */
#define CYGNUM_PROFILE_TFTP_PORT 69
#endif
#include <stdint.h>
#include <stdio.h>
#include "tftp_app.h"

#define KEEP __attribute__((noinline, noipa))

/* The knobs (see above): set by the tests through gdb while the guest is halted; read by
 * main(), which also clears restart once it has acted on it. */
volatile uint32_t boot_mode;
volatile uint32_t range_bytes;
volatile uint32_t quiesce;
volatile uint32_t restart;

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
    struct udp_pcb *squatter = NULL;
    if (boot_mode == 2) {
        squatter = udp_new();
        printf("tftp-app: another service on UDP port %d: %d\n", CYGNUM_PROFILE_TFTP_PORT,
               squatter ? udp_bind(squatter, IP_ANY_TYPE, CYGNUM_PROFILE_TFTP_PORT) : -1);
    }
    rc = profile_on(_stext, end, 16, APP_INTERVAL_US);
    printf("tftp-app: profile_on: %d\n", rc);
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
        network_poll();
        app_tick();
    }
}
