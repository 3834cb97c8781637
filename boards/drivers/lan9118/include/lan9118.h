/*
 * SMSC LAN9118 (and the compatible LAN9115..9221 family) as an lwIP network interface.
 * Boards that have one: Arm MPS2 (AN385 etc., at 0x40200000, IRQ 13), Versatile Express
 * (vexpress-a9: 0x4e000000), Realview; QEMU models all of them ("-nic user,model=lan9118").
 *
 * Polled: lan9118_poll() moves received frames into lwIP from the caller's context (the
 * main loop in a NO_SYS build, the tcpip thread or a driver thread in an RTOS build). The
 * chip's interrupt is left disabled; an interrupt-driven build would enable RSFL in INT_EN,
 * route IRQ_CFG (IRQ_EN, push-pull, active high) and have the ISR only wake the thread that
 * calls lan9118_poll() (lwIP must not be entered from the ISR). The link state is read
 * from the PHY once, at init (lan9118_link_up() reads it again on demand).
 *
 *   static struct lan9118 eth0_dev = { .base = 0x40200000, .irq = 13 };
 *   netif_add(&eth0, &ip, &mask, &gw, &eth0_dev, lan9118_netif_init, netif_input);
 *   ...
 *   for (;;) { lan9118_poll(&eth0); sys_check_timeouts(); ... }
 */
#ifndef CYGONCE_LAN9118_H
#define CYGONCE_LAN9118_H

#include <stdint.h>
#include "lwip/netif.h"

#ifdef __cplusplus
extern "C" {
#endif

struct lan9118 {
    uintptr_t base;       /* register block (32-bit bus) */
    int irq;              /* the board's interrupt line, for an interrupt-driven caller */
    /* Filled in by the driver: */
    uint32_t rx_frames, rx_dropped, tx_frames, tx_dropped;
    uint32_t buf[(1536 + 4) / 4];   /* one frame on its way in or out */
};

/**
 * netif_add() init function: netif->state points to a struct lan9118 with base set.
 * Resets the chip, reads its MAC address (QEMU: the -nic macaddr), enables the receiver
 * and transmitter. Returns ERR_IF if no LAN9118 answers at base.
 */
err_t lan9118_netif_init(struct netif *netif);

/** Pass the frames received so far to netif->input; returns how many. */
int lan9118_poll(struct netif *netif);

/** Link state from the PHY (basic status register): 1 up, 0 down. */
int lan9118_link_up(struct netif *netif);

#ifdef __cplusplus
}
#endif
#endif
