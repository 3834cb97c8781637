/* TFTP end-to-end firmware: the parts compiled without -pg (tftp_support.c). */
#ifndef TFTP_APP_H
#define TFTP_APP_H
#include <stdint.h>

#define APP_INTERVAL_US 1000   /* profile timer: 1 kHz */

extern volatile uint32_t iterations, quiet;
/* profile_get_stats().samples_total, refreshed by app_tick(). */
extern volatile uint32_t samples_total;

/* Every main-loop iteration: refresh samples_total, print a heartbeat once a second. */
void app_tick(void);
/* Stop the profile timer (the data stays still) and say so on the console. */
void app_quiesce(void);
#endif
