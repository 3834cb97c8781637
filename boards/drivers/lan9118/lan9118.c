/*
 * SMSC LAN9118 driver for lwIP (polled). Register layout and FIFO protocol from the SMSC
 * LAN9118 datasheet; exercised on QEMU's model (hw/net/lan9118.c), which is what the tests
 * run on. The FIFOs are accessed 32 bits at a time; frames are copied through an aligned
 * bounce buffer, so the pbufs may have any alignment and chaining.
 */
#include <string.h>
#include "lan9118.h"
#include "lwip/etharp.h"
#include "lwip/pbuf.h"
#include "netif/ethernet.h"

/* System control and status registers (offsets from base). */
#define RX_DATA_FIFO    0x00
#define TX_DATA_FIFO    0x20
#define RX_STATUS_FIFO  0x40
#define TX_STATUS_FIFO  0x48
#define ID_REV          0x50
#define IRQ_CFG         0x54
#define INT_STS         0x58
#define INT_EN          0x5C
#define BYTE_TEST       0x64
#define RX_CFG          0x6C
#define TX_CFG          0x70
#define HW_CFG          0x74
#define RX_FIFO_INF     0x7C
#define TX_FIFO_INF     0x80
#define PMT_CTRL        0x84
#define MAC_CSR_CMD     0xA4
#define MAC_CSR_DATA    0xA8

#define BYTE_TEST_VALUE 0x87654321u
#define HW_CFG_SRST     (1u << 0)
#define PMT_CTRL_READY  (1u << 0)
#define TX_CFG_TX_ON    (1u << 1)
#define TX_CFG_TXSAO    (1u << 2)     /* TX status FIFO may overrun: we do not need them all */
#define MAC_CSR_BUSY    (1u << 31)
#define MAC_CSR_READ    (1u << 30)

/* MAC registers (through MAC_CSR_CMD/DATA). */
#define MAC_CR          1
#define MAC_ADDRH       2
#define MAC_ADDRL       3
#define MAC_MII_ACC     6
#define MAC_MII_DATA    7
#define MAC_CR_RXEN     (1u << 2)
#define MAC_CR_TXEN     (1u << 3)
#define MAC_CR_FDPX     (1u << 20)
#define MII_ACC_BUSY    (1u << 0)
#define MII_ACC_WRITE   (1u << 1)
#define PHY_ADDR        1             /* the internal PHY */
#define PHY_BSR         1
#define PHY_BSR_LINK    (1u << 2)

/* TX command words. */
#define TXA_FIRST_SEG   (1u << 13)
#define TXA_LAST_SEG    (1u << 12)
/* RX status word. */
#define RXS_ERROR       (1u << 15)
#define RXS_LEN(s)      (((s) >> 16) & 0x3FFFu)   /* frame bytes including the 4-byte FCS */

#define SPIN_LIMIT      100000        /* bounded waits: a wedged chip must not hang the caller */
#define POLL_BUDGET     16            /* frames per lan9118_poll() call */

static inline volatile uint32_t *reg(const struct lan9118 *d, unsigned off)
{
    return (volatile uint32_t *)(d->base + off);
}
static inline uint32_t rd(const struct lan9118 *d, unsigned off) { return *reg(d, off); }
static inline void wr(const struct lan9118 *d, unsigned off, uint32_t v) { *reg(d, off) = v; }

static int mac_wait(const struct lan9118 *d)
{
    for (int i = 0; i < SPIN_LIMIT; i++)
        if (!(rd(d, MAC_CSR_CMD) & MAC_CSR_BUSY))
            return 0;
    return -1;
}

static uint32_t mac_read(const struct lan9118 *d, unsigned r)
{
    if (mac_wait(d))
        return 0;
    wr(d, MAC_CSR_CMD, MAC_CSR_BUSY | MAC_CSR_READ | r);
    mac_wait(d);
    return rd(d, MAC_CSR_DATA);
}

static void mac_write(const struct lan9118 *d, unsigned r, uint32_t v)
{
    if (mac_wait(d))
        return;
    wr(d, MAC_CSR_DATA, v);
    wr(d, MAC_CSR_CMD, MAC_CSR_BUSY | r);
    mac_wait(d);
}

static int phy_read(const struct lan9118 *d, unsigned r, uint32_t *v)
{
    int i;
    for (i = 0; i < SPIN_LIMIT && (mac_read(d, MAC_MII_ACC) & MII_ACC_BUSY); i++)
        ;
    mac_write(d, MAC_MII_ACC, (PHY_ADDR << 11) | (r << 6) | MII_ACC_BUSY);
    for (i = 0; i < SPIN_LIMIT && (mac_read(d, MAC_MII_ACC) & MII_ACC_BUSY); i++)
        ;
    if (i == SPIN_LIMIT)
        return -1;
    *v = mac_read(d, MAC_MII_DATA) & 0xFFFFu;
    return 0;
}

int lan9118_link_up(struct netif *netif)
{
    uint32_t bsr;
    return phy_read(netif->state, PHY_BSR, &bsr) == 0 && (bsr & PHY_BSR_LINK);
}

static err_t lan9118_output(struct netif *netif, struct pbuf *p)
{
    struct lan9118 *d = netif->state;
    uint32_t len = p->tot_len;
    uint32_t words = (len + 3) / 4;

    if (len > sizeof d->buf) {
        d->tx_dropped++;
        return ERR_BUF;
    }
    /* Room for the two command words and the data (TDFREE, in bytes). */
    int i;
    for (i = 0; i < SPIN_LIMIT && (rd(d, TX_FIFO_INF) & 0xFFFFu) < 8 + words * 4; i++)
        ;
    if (i == SPIN_LIMIT) {
        d->tx_dropped++;
        return ERR_MEM;
    }
    pbuf_copy_partial(p, d->buf, (u16_t)len, 0);
    wr(d, TX_DATA_FIFO, TXA_FIRST_SEG | TXA_LAST_SEG | len);
    wr(d, TX_DATA_FIFO, (len << 16) | len);    /* packet tag (unused) and length */
    for (uint32_t w = 0; w < words; w++)
        wr(d, TX_DATA_FIFO, d->buf[w]);
    /* Drain the TX status FIFO (TXSUSED): nobody needs the statuses. */
    while ((rd(d, TX_FIFO_INF) >> 16) & 0xFFu)
        (void)rd(d, TX_STATUS_FIFO);
    d->tx_frames++;
    return ERR_OK;
}

int lan9118_poll(struct netif *netif)
{
    struct lan9118 *d = netif->state;
    int n = 0;

    while (n < POLL_BUDGET && ((rd(d, RX_FIFO_INF) >> 16) & 0xFFu)) {
        uint32_t status = rd(d, RX_STATUS_FIFO);
        uint32_t len = RXS_LEN(status);
        uint32_t words = (len + 3) / 4;
        int ok = !(status & RXS_ERROR) && len >= 14 + 4 && words <= sizeof d->buf / 4;
        /* The data always leaves the FIFO, whether the frame is kept or not. */
        for (uint32_t w = 0; w < words; w++) {
            uint32_t v = rd(d, RX_DATA_FIFO);
            if (ok)
                d->buf[w] = v;
        }
        n++;
        struct pbuf *p = ok ? pbuf_alloc(PBUF_RAW, (u16_t)(len - 4), PBUF_POOL) : NULL;
        if (!p) {
            d->rx_dropped++;
            continue;
        }
        pbuf_take(p, d->buf, (u16_t)(len - 4));
        d->rx_frames++;
        if (netif->input(p, netif) != ERR_OK)
            pbuf_free(p);
    }
    return n;
}

err_t lan9118_netif_init(struct netif *netif)
{
    struct lan9118 *d = netif->state;
    int i;

    if (!d || rd(d, BYTE_TEST) != BYTE_TEST_VALUE)
        return ERR_IF;
    wr(d, HW_CFG, HW_CFG_SRST);
    for (i = 0; i < SPIN_LIMIT && (rd(d, HW_CFG) & HW_CFG_SRST); i++)
        ;
    for (i = 0; i < SPIN_LIMIT && !(rd(d, PMT_CTRL) & PMT_CTRL_READY); i++)
        ;
    if (i == SPIN_LIMIT)
        return ERR_IF;

    wr(d, INT_EN, 0);
    wr(d, INT_STS, 0xFFFFFFFFu);
    wr(d, IRQ_CFG, 0);                  /* polled: the interrupt pin stays inactive */

    uint32_t lo = mac_read(d, MAC_ADDRL), hi = mac_read(d, MAC_ADDRH);
    netif->hwaddr_len = ETH_HWADDR_LEN;
    netif->hwaddr[0] = (u8_t)lo;
    netif->hwaddr[1] = (u8_t)(lo >> 8);
    netif->hwaddr[2] = (u8_t)(lo >> 16);
    netif->hwaddr[3] = (u8_t)(lo >> 24);
    netif->hwaddr[4] = (u8_t)hi;
    netif->hwaddr[5] = (u8_t)(hi >> 8);
    if ((lo == 0 && (hi & 0xFFFFu) == 0) || (lo == 0xFFFFFFFFu && (hi & 0xFFFFu) == 0xFFFFu)) {
        /* No EEPROM: a locally administered address (QEMU's default range). */
        static const u8_t fallback[ETH_HWADDR_LEN] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
        memcpy(netif->hwaddr, fallback, ETH_HWADDR_LEN);
        mac_write(d, MAC_ADDRL, fallback[0] | fallback[1] << 8 | fallback[2] << 16 |
                                (uint32_t)fallback[3] << 24);
        mac_write(d, MAC_ADDRH, fallback[4] | fallback[5] << 8);
    }

    wr(d, RX_CFG, 0);                   /* no offset, no end padding */
    wr(d, TX_CFG, TX_CFG_TX_ON | TX_CFG_TXSAO);
    /* Own address and broadcast only (not promiscuous), full duplex. */
    mac_write(d, MAC_CR, MAC_CR_RXEN | MAC_CR_TXEN | MAC_CR_FDPX);

    netif->name[0] = 'e';
    netif->name[1] = 'n';
    netif->mtu = 1500;
    netif->flags = NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP | NETIF_FLAG_ETHERNET;
    netif->output = etharp_output;
    netif->linkoutput = lan9118_output;
    return ERR_OK;
}
