/*
 * The board API's interrupt control (<cyg/hal/board_api.h>) on the NVIC, for every
 * Cortex-M board: lines 0 .. BOARD_IRQ_COUNT-1, priorities 0 .. BOARD_IRQ_PRIO_MAX in the
 * top BOARD_IRQ_PRIO_BITS bits of each priority byte. No state of its own.
 */
#include <cyg/hal/board.h>
#include <cyg/hal/cortexm.h>

_Static_assert(BOARD_IRQ_PRIO_MAX == (1u << BOARD_IRQ_PRIO_BITS) - 1,
               "BOARD_IRQ_PRIO_MAX must be the least urgent of BOARD_IRQ_PRIO_BITS bits");

static inline int irq_valid(int irq)
{
    return irq >= 0 && irq < BOARD_IRQ_COUNT;
}

void board_irq_enable(int irq, unsigned priority)
{
    if (!irq_valid(irq))
        return;
    if (priority > BOARD_IRQ_PRIO_MAX)
        priority = BOARD_IRQ_PRIO_MAX;
    /* Word access (ARMv6-M has no byte access to the priority registers); masked, because
     * another line's priority byte in the same word may be changed by an interrupt handler. */
    unsigned shift = 8u * ((unsigned)irq % 4u);
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
    uint32_t ipr = NVIC_IPR((unsigned)irq / 4u) & ~(0xFFu << shift);
    NVIC_IPR((unsigned)irq / 4u) = ipr | ((priority << (8 - BOARD_IRQ_PRIO_BITS)) << shift);
    __asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
    NVIC_ISER((unsigned)irq / 32) = 1u << ((unsigned)irq % 32);
    cortexm_barrier();
}

void board_irq_disable(int irq)
{
    if (!irq_valid(irq))
        return;
    NVIC_ICER((unsigned)irq / 32) = 1u << ((unsigned)irq % 32);
    cortexm_barrier(); /* no further entry to the handler once this returns */
}

void board_irq_pend(int irq)
{
    if (!irq_valid(irq))
        return;
    NVIC_ISPR((unsigned)irq / 32) = 1u << ((unsigned)irq % 32);
    cortexm_barrier(); /* the handler, if enabled and more urgent, has run on return */
}

void board_irq_unpend(int irq)
{
    if (!irq_valid(irq))
        return;
    NVIC_ICPR((unsigned)irq / 32) = 1u << ((unsigned)irq % 32);
    cortexm_barrier();
}
