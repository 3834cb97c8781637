/* TFTP end-to-end firmware, compiled without -pg: nothing here records arcs. */
#include <cyg/hal/board.h>
#include <cyg/profile/profile.h>
#include <pkgconf/profile_gprof.h>
#ifdef CYGPKG_PROFILE_TFTP
#include <cyg/profile/tftp.h>
#endif
#include <stdio.h>
#include "tftp_app.h"

volatile uint32_t samples_total;
#ifdef CYGPKG_PROFILE_TFTP
/* The daemon's counters, for gdb. */
struct profile_tftp_stats tftp_stats;
#endif
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
