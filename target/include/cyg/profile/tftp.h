/*
 * The TFTP daemon (configurations with CYGPKG_PROFILE_TFTP): serves the profiling data as
 * the read-only file "gmon.out" on UDP port CYGNUM_PROFILE_TFTP_PORT, over lwIP's raw UDP
 * API (RFC 1350; the blksize and tsize options of RFC 2347-2349 are negotiated); in the
 * stack-profiling mode also "gmon.stacks", the calling-context tree that goes with the
 * last gmon.out delivered (get gmon.out, then gmon.stacks; getting gmon.stacks resets
 * nothing, and it stays until the next gmon.out is delivered or profile_on/profile_off).
 *
 * profile_on() starts it; it needs the network up first (init_all_network_interfaces(),
 * see <network.h>), as in eCos. Each get takes a snapshot of the data: recording goes on
 * during the transfer into the next file; a completed transfer (the client acknowledged
 * the last block) drops the snapshot, which resets the counts; an abandoned or failed one
 * merges it back, so nothing is lost or counted twice.
 *
 * One client cannot hold the daemon: while a transfer runs, another client's read request
 * takes it over if the transfer's client has sent no valid ACK for
 * CYGNUM_PROFILE_TFTP_HOLD_MS (that transfer ends as abandoned); is offered block 1 of the
 * same snapshot if that client has not acknowledged block 1 yet (the first to acknowledge it
 * gets the transfer); and is left unanswered otherwise (the client retransmits it and is
 * served later). Only hosts in CYGDAT_PROFILE_TFTP_ALLOW / ..._ALLOW_PREFIX are served;
 * others get ERROR 2 (access violation) and change nothing. See doc/tftp.md.
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
 * @retval -EINVAL      CYGDAT_PROFILE_TFTP_ALLOW is not an IPv4 address, or has bits set
 *                      beyond CYGNUM_PROFILE_TFTP_ALLOW_PREFIX: the daemon serves nobody
 */
int profile_tftp_start(void);

/** What the daemon did since it started. */
struct profile_tftp_stats {
    uint32_t transfers;   /**< read requests that started a transfer (either file) */
    uint32_t completed;   /**< transfers whose last block was acknowledged (gmon.out's:
                               data reset) */
    uint32_t abandoned;   /**< transfers given up (client error, timeout, an OACK not
                               acknowledged with ACK 0): data kept; or
                               ended by profile_on()/profile_off(): data discarded */
    uint32_t refused;     /**< requests answered with an error (write, other names, modes,
                               malformed requests, refused options) */
    uint32_t ignored;     /**< duplicate requests and ACKs, malformed packets, stray errors */
    uint32_t busy;        /**< good read requests from another client while a moving
                               transfer ran, left unanswered (the client retransmits) */
    uint32_t offered;     /**< block 1 sent to another client that asked while the
                               transfer's client had not acknowledged it yet */
    uint32_t taken_over;  /**< transfers that went on with such a client, which acknowledged
                               block 1 first (the same transfer: not abandoned) */
    uint32_t yielded;     /**< transfers ended because their client sent no valid ACK for
                               CYGNUM_PROFILE_TFTP_HOLD_MS and another client asked (also
                               counted in abandoned: data kept) */
    uint32_t denied;      /**< packets from hosts outside CYGDAT_PROFILE_TFTP_ALLOW: requests
                               answered with ERROR 2, the rest dropped */
    uint32_t stacks_completed;  /**< of completed: gmon.stacks transfers */
    uint32_t tasks_completed;   /**< of completed: gmon.tasks transfers */
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
