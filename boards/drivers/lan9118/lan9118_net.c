/*
 * A board's network when it has a LAN9118: the chip (at BOARD_LAN9118_BASE, interrupt line
 * BOARD_LAN9118_IRQ, from the board's <cyg/hal/board.h>) as lwIP's default interface, bare
 * metal (NO_SYS=1). init_all_network_interfaces() is the eCos moment after which
 * profile_on() can start the TFTP daemon; network_poll() runs the network from the main loop.
 *
 * Address: the configuration's (devs_eth_lan9118.cdl): static, by default 10.0.2.15/24
 * with gateway 10.0.2.2 (QEMU's user-mode network), or by DHCP with
 * CYGHWR_DEVS_ETH_LAN9118_DHCP=1 (QEMU's DHCP server answers 10.0.2.15 too).
 */
#include <errno.h>
#include <stdio.h>
#include <pkgconf/devs_eth_lan9118.h>
#include <cyg/hal/board.h>
#include <network.h>
#include "lwip/dhcp.h"
#include "lwip/init.h"
#include "lwip/ip4_addr.h"
#include "lwip/netif.h"
#include "lwip/timeouts.h"
#include "lan9118.h"

#ifndef CYGHWR_DEVS_ETH_LAN9118_DHCP
#define CYGHWR_DEVS_ETH_LAN9118_DHCP 0
#endif
#define BOARD_NET_DHCP_WAIT_MS 10000

/* The interface and its controller: set up once by init_all_network_interfaces(), then
 * touched only by lwIP (from network_poll() in the main loop). */
static struct lan9118 eth0_dev = { .base = BOARD_LAN9118_BASE, .irq = BOARD_LAN9118_IRQ };
static struct netif eth0;
/* Owned by init_all_network_interfaces(); network_poll() reads net_polling. */
static int net_polling;         /* the interface exists: run lwIP */
static int net_result = 1;      /* the first call's result; 1: not called yet */

/* lwIP's clock (NO_SYS): milliseconds from the board's monotonic clock. */
u32_t sys_now(void)
{
    return board_clock_ms();
}

void network_poll(void)
{
    if (!net_polling)
        return;
    lan9118_poll(&eth0);
    sys_check_timeouts();
}

/* lwIP, the interface, the address: init_all_network_interfaces()'s first call. */
static int bring_up(void)
{
    ip4_addr_t ip, mask, gw;

    lwip_init();
#if CYGHWR_DEVS_ETH_LAN9118_DHCP
    ip4_addr_set_zero(&ip);
    ip4_addr_set_zero(&mask);
    ip4_addr_set_zero(&gw);
#else
    if (!ip4addr_aton(CYGDAT_DEVS_ETH_LAN9118_IP, &ip) ||
        !ip4addr_aton(CYGDAT_DEVS_ETH_LAN9118_NETMASK, &mask) ||
        !ip4addr_aton(CYGDAT_DEVS_ETH_LAN9118_GATEWAY, &gw)) {
        printf("net: bad static address in the configuration: %s/%s gateway %s\n",
               CYGDAT_DEVS_ETH_LAN9118_IP, CYGDAT_DEVS_ETH_LAN9118_NETMASK,
               CYGDAT_DEVS_ETH_LAN9118_GATEWAY);
        return -EINVAL;
    }
#endif
    if (!netif_add(&eth0, &ip, &mask, &gw, &eth0_dev, lan9118_netif_init, netif_input)) {
        printf("net: no LAN9118 at 0x%08x\n", (unsigned)BOARD_LAN9118_BASE);
        return -ENODEV;
    }
    netif_set_default(&eth0);
    netif_set_up(&eth0);
    if (lan9118_link_up(&eth0))
        netif_set_link_up(&eth0);
    net_polling = 1;

    if (CYGHWR_DEVS_ETH_LAN9118_DHCP) {
        dhcp_start(&eth0);
        uint32_t start = board_clock_ms();
        while (!dhcp_supplied_address(&eth0)) {
            if (board_clock_ms() - start > BOARD_NET_DHCP_WAIT_MS) {
                printf("net: en0: no DHCP lease after %u ms (still asking)\n",
                       (unsigned)BOARD_NET_DHCP_WAIT_MS);
                return -ETIMEDOUT;
            }
            network_poll();
        }
    }
    char a[16], n[16], g[16];
    const u8_t *m = eth0.hwaddr;
    ip4addr_ntoa_r(netif_ip4_addr(&eth0), a, sizeof a);
    ip4addr_ntoa_r(netif_ip4_netmask(&eth0), n, sizeof n);
    ip4addr_ntoa_r(netif_ip4_gw(&eth0), g, sizeof g);
    printf("net: en0 up: %s netmask %s gateway %s (%s), MAC %02x:%02x:%02x:%02x:%02x:%02x, "
           "link %s\n", a, n, g, CYGHWR_DEVS_ETH_LAN9118_DHCP ? "DHCP" : "static",
           m[0], m[1], m[2], m[3], m[4], m[5], netif_is_link_up(&eth0) ? "up" : "down");
    return 0;
}

int init_all_network_interfaces(void)
{
    if (net_result == 1)
        net_result = bring_up();
    return net_result;
}
