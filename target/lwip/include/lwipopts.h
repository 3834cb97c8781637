/*
 * lwIP configuration for the profiling package's TFTP daemon: bare metal, NO_SYS=1 (raw
 * API, no threads), IPv4 + UDP only, one Ethernet interface. lwIP is driven from the main
 * loop: the board's network_poll() moves received frames into lwIP and runs
 * sys_check_timeouts() (see <network.h>). Nothing in lwIP ever runs from an interrupt.
 *
 * An RTOS build changes (see doc/tftp.md): NO_SYS=0 with a sys_arch (semaphores, mailboxes,
 * threads), the tcpip thread running timers and input (tcpip_init, tcpip_input as the
 * netif's input function), LWIP_TCPIP_CORE_LOCKING=1 and profile_tftp_start()
 * called under LOCK_TCPIP_CORE() (or through tcpip_callback), and SYS_LIGHTWEIGHT_PROT=1.
 */
#ifndef CYGONCE_LWIPOPTS_H
#define CYGONCE_LWIPOPTS_H

/* ---- system ---------------------------------------------------------------------------- */
#define NO_SYS                  1
#define SYS_LIGHTWEIGHT_PROT    0    /* lwIP runs only in the main loop, never in an ISR */
#define LWIP_SOCKET             0
#define LWIP_NETCONN            0
#define LWIP_NETIF_API          0

/* ---- memory: heap for PBUF_RAM (TFTP data and error packets), pool for received frames --- */
#define MEM_ALIGNMENT           4
#define MEM_SIZE                (16 * 1024)
#define MEMP_NUM_PBUF           16
#define MEMP_NUM_UDP_PCB        4
#define PBUF_POOL_SIZE          16
/* One received Ethernet frame (up to 1514 bytes) fits one pool buffer. */
#define PBUF_POOL_BUFSIZE       1536
/* lwIP's own timers (ARP, IP reassembly, DHCP), the TFTP daemon's retransmission timer, and
 * room for the application's. */
#define MEMP_NUM_SYS_TIMEOUT    (LWIP_NUM_SYS_TIMEOUT_INTERNAL + 8)

/* ---- protocols ------------------------------------------------------------------------- */
#define LWIP_IPV4               1
#define LWIP_IPV6               0
#define LWIP_ARP                1
#define LWIP_ETHERNET           1
#define LWIP_ICMP               1    /* ping, for "is the board there?" */
#define LWIP_RAW                0
#define LWIP_UDP                1
#define LWIP_TCP                0
#define LWIP_DHCP               1    /* optional: the board helper uses a static address unless asked */
#define LWIP_AUTOIP             0
#define LWIP_IGMP               0
#define LWIP_DNS                0
#define IP_REASSEMBLY           0    /* TFTP requests and ACKs are small */
#define IP_FRAG                 0    /* the daemon's blocks fit the MTU (blksize is capped) */
#define ETH_PAD_SIZE            0
#define LWIP_NETIF_HOSTNAME     0
#define LWIP_NETIF_STATUS_CALLBACK 0
#define LWIP_NETIF_LINK_CALLBACK 0
#define LWIP_STATS              0
#define LWIP_DEBUG              0

#endif
