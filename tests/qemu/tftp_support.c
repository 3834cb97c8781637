/* TFTP end-to-end firmware, compiled without -pg: nothing here records arcs. */
#include <cyg/hal/board.h>
#include <cyg/profile/profile.h>
#include <pkgconf/profile_gprof.h>
#ifdef CYGPKG_PROFILE_TFTP
#include <cyg/profile/tftp.h>
#endif
#include <stdio.h>
#include "tftp_app.h"

/* Owned by refresh() (from app_tick and app_quiesce in the main loop); printed by them for
 * the tests, which can also read it through gdb. */
volatile uint32_t samples_total;
#ifdef CYGPKG_PROFILE_TFTP
/* The daemon's counters, for gdb: owned by refresh(), which copies them from the daemon in
 * the main loop; the tests read them through gdb (tftplib.Target.stats). */
struct profile_tftp_stats tftp_stats;
#endif
/* Owned by app_tick() (main loop only): when the next heartbeat line is due, in
 * board_clock_ms() time; 0 at reset, so the first call prints one at once. */
static uint32_t next_beat_ms;

static void refresh(void)
{
    struct profile_stats st;
    if (profile_get_stats(&st) == 0)
        samples_total = st.samples_total;
#ifdef CYGPKG_PROFILE_TFTP
    profile_tftp_get_stats(&tftp_stats);
#endif
}

void app_tick(void)
{
    refresh();
    uint32_t now = board_clock_ms();
    if ((int32_t)(now - next_beat_ms) >= 0) {
        next_beat_ms = now + 1000;
        printf("tftp-app: alive at %u ms: iterations %u samples_total %u\n", (unsigned)now,
               (unsigned)iterations, (unsigned)samples_total);
    }
}

void app_quiesce(void)
{
    hal_disable_profile_timer();
    refresh();
    printf("tftp-app: quiet: iterations %u samples_total %u\n", (unsigned)iterations,
           (unsigned)samples_total);
}
