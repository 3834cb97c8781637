/*
 * Bringing the network up on a board, the eCos way: an application calls
 * init_all_network_interfaces() early in main(), then profile_on() (which starts the TFTP
 * daemon when the configuration has CYGPKG_PROFILE_TFTP).
 *
 * Each board with a network interface implements these (boards/<board>/net.c) on top of
 * lwIP, configured bare metal (NO_SYS=1): nothing happens on the network unless the
 * application calls network_poll() regularly, typically from its main loop.
 */
#ifndef CYGONCE_NETWORK_H
#define CYGONCE_NETWORK_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Initialise lwIP and bring up the board's interfaces (the default one gets the address
 * the board chooses: static, or DHCP if the board was built for it). A second call does
 * nothing and returns the first call's result.
 * @retval 0        the default interface is up and has an address
 * @retval -ENODEV  no network controller found
 * @retval -ETIMEDOUT  DHCP got no lease (the interface stays up and keeps trying)
 */
int init_all_network_interfaces(void);

/**
 * Run the network: receive frames from the controllers into lwIP and run lwIP's timers
 * (ARP, DHCP, TFTP retransmission). Call from the main loop, as often as possible; a
 * transfer's speed is one 512-byte TFTP block per call at best.
 */
void network_poll(void);

#ifdef __cplusplus
}
#endif
#endif
