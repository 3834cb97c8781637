/*
 * The TFTP daemon (configurations with CYGPKG_PROFILE_TFTP): serves the profiling data as
 * the read-only file "gmon.out" on UDP port CYGNUM_PROFILE_TFTP_PORT, over lwIP.
 *
 * profile_on() starts it; it needs the network up first (init_all_network_interfaces(),
 * see <network.h>), as in eCos. Each get takes a snapshot of the data: recording goes on
 * during the transfer into the next file; a completed transfer (the client acknowledged
 * the last block) drops the snapshot, which resets the counts; an abandoned or failed one
 * merges it back, so nothing is lost or counted twice.
 */
#ifndef CYGONCE_PROFILE_TFTP_H
#define CYGONCE_PROFILE_TFTP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Start the daemon (profile_on() calls this). Says on the console why it could not.
 * Calling it again while the daemon runs does nothing.
 * @retval 0            the daemon is serving (now or already)
 * @retval -ENETDOWN    no network interface is up with an address yet: bring the network
 *                      up, then call this (or profile_on()) again
 * @retval -EADDRINUSE  another service has the UDP port
 * @retval -ENOMEM      lwIP has no UDP PCB left (MEMP_NUM_UDP_PCB)
 */
int profile_tftp_start(void);

/** What the daemon did since it started. */
struct profile_tftp_stats {
    uint32_t transfers;   /**< read requests for gmon.out that started a transfer */
    uint32_t completed;   /**< transfers whose last block was acknowledged (data reset) */
    uint32_t abandoned;   /**< transfers given up (client error, timeout): data kept; or
                               ended by profile_on()/profile_off(): data discarded */
    uint32_t refused;     /**< requests answered with an error (write, other names, modes) */
    uint32_t ignored;     /**< duplicate requests and ACKs, malformed packets, stray errors */
};

/**
 * Read the counters.
 * @retval 0         *stats filled in
 * @retval -ENETDOWN the daemon is not running
 */
int profile_tftp_get_stats(struct profile_tftp_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
