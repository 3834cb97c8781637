/*
 * The board API's interrupt control (<cyg/hal/board_api.h>) on the GIC (v1 or v2, e.g.
 * Cortex-A9 MPCore's PL390-style GIC at BOARD_GICD_BASE / BOARD_GICC_BASE), for every
 * ARMv7-A board: interrupt IDs 0 .. BOARD_IRQ_COUNT-1 (0-15 software generated, 16-31 this
 * CPU's private peripherals, 32 on shared peripherals). No state of its own.
 *
 * Priorities: the GIC implements BOARD_GIC_PRIO_BITS bits (the top bits of each priority
 * byte), that is 2^BOARD_GIC_PRIO_BITS levels, 0 the most urgent. Level 0 is the profile
 * timer's alone; board priority p (0 .. BOARD_IRQ_PRIO_MAX) is level p + 1. So the profile
 * timer samples inside every firmware handler, whatever priority firmware gives it. The
 * least urgent level is never signalled: the priority mask, at its least urgent, reads back
 * as that level, and the GIC signals only what is more urgent than the mask. The
 * binary point is at its minimum, so that every implemented bit is group priority: an
 * interrupt preempts the handler of any less urgent one.
 *
 * Security: on a GIC with the Security Extensions (QEMU's vexpress-a9 boots Secure),
 * every interrupt stays in group 0 and FIQ signalling stays off, so all of them are IRQs;
 * the same code runs unchanged in Non-secure state.
 */
#include <cyg/hal/armv7a.h>
#include <cyg/hal/board.h>

_Static_assert(BOARD_GIC_PRIO_BITS >= 2 && BOARD_GIC_PRIO_BITS <= 8, "the GIC has 4 to 256 levels");
_Static_assert(BOARD_IRQ_PRIO_MAX == (1u << BOARD_GIC_PRIO_BITS) - 3,
               "board priorities are the GIC levels between the profile timer's and the mask's");

#define GICD(off) ARMV7A_REG(BOARD_GICD_BASE + (off))
#define GICC(off) ARMV7A_REG(BOARD_GICC_BASE + (off))
#define GIC_LEVEL_SHIFT (8u - BOARD_GIC_PRIO_BITS)

static inline int irq_valid(int irq)
{
    return irq >= 0 && irq < BOARD_IRQ_COUNT;
}

void armv7a_gic_init(void)
{
    GICD(GICD_CTLR) = 0;
    for (unsigned i = 0; i < BOARD_IRQ_COUNT / 32u; i++) {
        GICD(GICD_ICENABLER + 4u * i) = 0xFFFFFFFFu;
        GICD(GICD_ICPENDR + 4u * i) = 0xFFFFFFFFu;
        GICD(GICD_IGROUPR + 4u * i) = 0; /* group 0 (Secure state; ignored in Non-secure) */
    }
    /* Least urgent; shared peripheral interrupts to this CPU (RAZ/WI on a uniprocessor). */
    for (unsigned i = 0; i < BOARD_IRQ_COUNT / 4u; i++)
        GICD(GICD_IPRIORITYR + 4u * i) = 0xFFFFFFFFu;
    for (unsigned i = 32u / 4u; i < BOARD_IRQ_COUNT / 4u; i++)
        GICD(GICD_ITARGETSR + 4u * i) = 0x01010101u;
    GICC(GICC_PMR) = 0xFFu; /* every level is signalled (reads back with the bits implemented) */
    GICC(GICC_BPR) = 0;     /* raised to the implemented minimum */
    GICC(GICC_CTLR) = 1;    /* group 0 (or, Non-secure, group 1) on, as IRQ */
    GICD(GICD_CTLR) = 1;
    armv7a_barrier();
}

void armv7a_gic_enable(int irq, unsigned level)
{
    if (!irq_valid(irq))
        return;
    if (level > (1u << BOARD_GIC_PRIO_BITS) - 2u)  /* (the last is the mask's: never signalled) */
        level = (1u << BOARD_GIC_PRIO_BITS) - 2u;
    /* The priority registers are byte-accessible on the GIC. */
    ((volatile uint8_t *)(BOARD_GICD_BASE + GICD_IPRIORITYR))[irq] = (uint8_t)(level << GIC_LEVEL_SHIFT);
    GICD(GICD_ISENABLER + 4u * ((unsigned)irq / 32u)) = 1u << ((unsigned)irq % 32u);
    armv7a_barrier();
}

void board_irq_enable(int irq, unsigned priority)
{
    if (priority > BOARD_IRQ_PRIO_MAX)
        priority = BOARD_IRQ_PRIO_MAX;
    armv7a_gic_enable(irq, priority + 1u);
}

void board_irq_disable(int irq)
{
    if (!irq_valid(irq))
        return;
    GICD(GICD_ICENABLER + 4u * ((unsigned)irq / 32u)) = 1u << ((unsigned)irq % 32u);
    /* No further entry to the handler once this returns: the write has reached the
     * distributor (the read back), which then no longer signals the interrupt. */
    (void)GICD(GICD_ICENABLER + 4u * ((unsigned)irq / 32u));
    armv7a_barrier();
}

/* Software generated interrupts (0-15) are sent to this CPU; the others set pending. */
void board_irq_pend(int irq)
{
    if (!irq_valid(irq))
        return;
    if (irq < GIC_SGI_COUNT)
        GICD(GICD_SGIR) = GICD_SGIR_TO_SELF | (uint32_t)irq;
    else
        GICD(GICD_ISPENDR + 4u * ((unsigned)irq / 32u)) = 1u << ((unsigned)irq % 32u);
    /* The handler, if enabled and more urgent, has run on return: the write has reached the
     * distributor (the read back) and the core takes the IRQ it signals (QEMU at once). */
    (void)GICD(GICD_CTLR);
    armv7a_barrier();
}

/* (A software generated interrupt cannot be unpended on a GICv1.) */
void board_irq_unpend(int irq)
{
    if (!irq_valid(irq) || irq < GIC_SGI_COUNT)
        return;
    GICD(GICD_ICPENDR + 4u * ((unsigned)irq / 32u)) = 1u << ((unsigned)irq % 32u);
    (void)GICD(GICD_ICPENDR + 4u * ((unsigned)irq / 32u));
    armv7a_barrier();
}
