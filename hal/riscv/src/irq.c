/*
 * Interrupts of a RISC-V board in machine mode whose interrupts come through a SiFive-style
 * CLINT (the software interrupt, msip) and a PLIC (external sources): the board API's
 * board_irq_*() and the dispatch from the trap entry to the handlers.
 *
 * Numbering: irq 0 is the machine software interrupt (msip; the PLIC has no source 0),
 * irq 1 .. BOARD_IRQ_COUNT-1 are the PLIC's sources. The board names their handlers in
 * BOARD_IRQ_VECTORS(X), in that order; each is a weak alias of a default that reports
 * "*** unhandled interrupt N" and exits with 144 + N. Firmware takes an interrupt by
 * defining a function of that name (void MachineSoft_IRQHandler(void), ...).
 *
 * Priorities, 0 (most urgent) .. BOARD_IRQ_PRIO_MAX, are nested in software, because
 * RISC-V takes every interrupt with the others masked: a handler of priority p runs with
 * interrupts enabled and masked down to those more urgent than p:
 *   - PLIC sources: PLIC priority BOARD_IRQ_PRIO_MAX + 1 - p (1 .. the PLIC's maximum),
 *     and the hart context's threshold passes only the more urgent ones;
 *   - msip: its own priority, gated by mie.MSIE;
 *   - the machine timer (the profile timer, mtimer.c): BOARD_PROFILE_TIMER_PRIO, 0, gated
 *     by mie.MTIE: it samples inside every handler but those of priority 0.
 * Equal priorities do not preempt one another, as on an NVIC. The current level lives in
 * irq_level; mie and the threshold are always derived from it (irq_apply_level()).
 *
 * What a handler may rely on: its interrupt's pending state is cleared before it runs
 * (msip; the PLIC's claim), and a PLIC source is completed after it returns, so one that
 * still asserts (not acknowledged at the device) is taken again.
 *
 * board_irq_pend()/unpend() work on irq 0 only: the PLIC's pending bits follow the devices
 * and are read-only.
 */
#include <stdint.h>

#include <cyg/hal/board.h>
#include <cyg/hal/profile_arch.h>
#include <cyg/hal/riscv.h>
#include "riscv_priv.h"

#define CLINT_MSIP RISCV_REG32(BOARD_CLINT_BASE) /* hart 0 */
#define PLIC_PRIORITY(src) RISCV_REG32(BOARD_PLIC_BASE + 4u * (src))
#define PLIC_ENABLE(word) RISCV_REG32(BOARD_PLIC_BASE + 0x2000u + 0x80u * BOARD_PLIC_CONTEXT + 4u * (word))
#define PLIC_THRESHOLD RISCV_REG32(BOARD_PLIC_BASE + 0x200000u + 0x1000u * BOARD_PLIC_CONTEXT)
#define PLIC_CLAIM RISCV_REG32(BOARD_PLIC_BASE + 0x200004u + 0x1000u * BOARD_PLIC_CONTEXT)

/* No handler running: every priority passes. */
#define LEVEL_THREAD (BOARD_IRQ_PRIO_MAX + 1u)

_Static_assert(BOARD_IRQ_PRIO_MAX + 1 <= BOARD_PLIC_PRIORITY_MAX,
               "every board priority needs a PLIC priority of at least 1");
_Static_assert(BOARD_PROFILE_TIMER_PRIO == 0, "the machine timer is the most urgent interrupt");
_Static_assert(BOARD_SOFT_IRQ == 0, "irq 0 is the CLINT's software interrupt");

volatile unsigned hal_riscv_irq_depth;
/* (riscv.h) Owned by the firmware: an RTOS port clears it; read by the dispatch. */
volatile unsigned hal_riscv_irq_nesting = 1;

/*
 * The current execution priority: LEVEL_THREAD, or the priority of the innermost handler
 * running. Written only by hal_riscv_irq_dispatch() around a handler, with interrupts
 * disabled; read by board_irq_enable/disable (masked) to re-derive the mask.
 */
static unsigned irq_level = LEVEL_THREAD;

/* The software interrupt (irq 0): enabled, and its priority. Written by board_irq_enable/
 * disable with interrupts masked; read by the dispatch and irq_apply_level(). */
static int soft_enabled;
static unsigned soft_prio;

/* Mask everything less urgent than level (or as urgent): mie for the CLINT's interrupts,
 * the PLIC context's threshold for the rest. Called with interrupts disabled. */
static inline __attribute__((always_inline)) void irq_apply_level(unsigned level)
{
    unsigned long mie = RISCV_MIE_MEIE;
    if (level > BOARD_PROFILE_TIMER_PRIO)
        mie |= RISCV_MIE_MTIE;
    if (soft_enabled && soft_prio < level)
        mie |= RISCV_MIE_MSIE;
    riscv_csr_write(mie, mie);
    PLIC_THRESHOLD = LEVEL_THREAD - level;  /* passes PLIC priority > threshold */
}

void hal_riscv_default_irq_handler(void);

#define RISCV_WEAK_HANDLER(name) void name(void) __attribute__((weak, alias("hal_riscv_default_irq_handler")));
#define RISCV_VECTOR(name) name,
BOARD_IRQ_VECTORS(RISCV_WEAK_HANDLER)

/* The handlers, by irq number. Never written. */
static void (*const irq_vectors[])(void) = { BOARD_IRQ_VECTORS(RISCV_VECTOR) };
_Static_assert(sizeof irq_vectors / sizeof irq_vectors[0] == BOARD_IRQ_COUNT,
               "BOARD_IRQ_VECTORS must name BOARD_IRQ_COUNT handlers");

/* (Never entered: the dispatch reports an interrupt whose handler is this one instead.) */
HAL_RISCV_TRAP_CODE void hal_riscv_default_irq_handler(void)
{
    hal_riscv_unhandled("interrupt", BOARD_IRQ_COUNT, 0, 144 + BOARD_IRQ_COUNT);
}

void hal_riscv_irq_init(void)
{
    CLINT_MSIP = 0;
    for (unsigned src = 1; src < BOARD_IRQ_COUNT; src++)
        PLIC_PRIORITY(src) = 0;                 /* never delivered */
    for (unsigned word = 0; word < (BOARD_IRQ_COUNT + 31) / 32; word++)
        PLIC_ENABLE(word) = 0;
    irq_apply_level(LEVEL_THREAD);
}

HAL_RISCV_TRAP_CODE void hal_riscv_irq_dispatch(unsigned code, uintptr_t mepc)
{
    unsigned irq, prio;
    if (code == RISCV_IRQ_M_EXT) {
        irq = PLIC_CLAIM;
        if (irq == 0)
            return;                             /* taken by nobody (another hart) */
        prio = LEVEL_THREAD - PLIC_PRIORITY(irq);
    } else if (code == RISCV_IRQ_M_SOFT) {
        CLINT_MSIP = 0;                         /* taken: no longer pending */
        irq = 0;
        prio = soft_prio;
    } else {
        hal_riscv_unhandled("interrupt cause", code, mepc, 128 + 64 + (int)code);
    }
    void (*handler)(void) = irq < BOARD_IRQ_COUNT ? irq_vectors[irq] : hal_riscv_default_irq_handler;
    if (handler == hal_riscv_default_irq_handler)
        hal_riscv_unhandled("interrupt", irq, mepc, 144 + (int)irq);

    unsigned outer = irq_level;
    irq_level = prio;
    irq_apply_level(prio);
    hal_riscv_irq_depth++;
    if (hal_riscv_irq_nesting)
        riscv_csr_set(mstatus, RISCV_MSTATUS_MIE);  /* more urgent interrupts may nest */
    handler();
    riscv_csr_clear(mstatus, RISCV_MSTATUS_MIE);
    hal_riscv_irq_depth--;
    irq_level = outer;
    irq_apply_level(outer);
    if (code == RISCV_IRQ_M_EXT)
        PLIC_CLAIM = irq;                       /* complete: the source may interrupt again */
}

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
    hal_profile_irq_state s = hal_profile_irq_save();
    if (irq == 0) {
        soft_prio = priority;
        soft_enabled = 1;
    } else {
        PLIC_PRIORITY(irq) = LEVEL_THREAD - priority;
        PLIC_ENABLE((unsigned)irq / 32) |= 1u << ((unsigned)irq % 32);
    }
    irq_apply_level(irq_level);
    hal_profile_irq_restore(s);
}

void board_irq_disable(int irq)
{
    if (!irq_valid(irq))
        return;
    hal_profile_irq_state s = hal_profile_irq_save();
    if (irq == 0)
        soft_enabled = 0;
    else
        PLIC_ENABLE((unsigned)irq / 32) &= ~(1u << ((unsigned)irq % 32));
    irq_apply_level(irq_level);
    /* Read back: the disable has reached the controller before interrupts are enabled. */
    (void)PLIC_THRESHOLD;
    hal_profile_irq_restore(s);
}

void board_irq_pend(int irq)
{
    if (irq != 0)
        return;
    CLINT_MSIP = 1;
    (void)CLINT_MSIP; /* the write has arrived: the handler, if it may run, has run */
}

void board_irq_unpend(int irq)
{
    if (irq != 0)
        return;
    CLINT_MSIP = 0;
    (void)CLINT_MSIP;
}
