/*
 * NVIC access for firmware (see <cyg/hal/board.h>): enable with a priority, disable,
 * pend and unpend from software. No state of its own.
 */
#include <cyg/hal/board.h>
#include "an385_regs.h"

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
    /* The implemented priority bits are the top ones of each byte. */
    NVIC_IPR_BYTE(irq) = (uint8_t)(priority << (8 - BOARD_IRQ_PRIO_BITS));
    NVIC_ISER((unsigned)irq / 32) = 1u << ((unsigned)irq % 32);
    an385_barrier();
}

void board_irq_disable(int irq)
{
    if (!irq_valid(irq))
        return;
    NVIC_ICER((unsigned)irq / 32) = 1u << ((unsigned)irq % 32);
    an385_barrier(); /* no further entry to the handler once this returns */
}

void board_irq_pend(int irq)
{
    if (!irq_valid(irq))
        return;
    NVIC_ISPR((unsigned)irq / 32) = 1u << ((unsigned)irq % 32);
    an385_barrier(); /* the handler, if enabled and more urgent, has run on return */
}

void board_irq_unpend(int irq)
{
    if (!irq_valid(irq))
        return;
    NVIC_ICPR((unsigned)irq / 32) = 1u << ((unsigned)irq % 32);
    an385_barrier();
}
