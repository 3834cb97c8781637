/*
 * ARMv7-A processor modes and the GIC (the interrupt controller of every A-profile board
 * here: Cortex-A9 MPCore's, Cortex-A7/A15's), for the architecture HAL and the board code;
 * firmware uses the board API (<cyg/hal/board_api.h>). Usable from assembly too.
 *
 * The exception model (hal/armv7a/src/vectors.S):
 *   - main (and an RTOS's threads) run in SYS mode (or USR), on the main stack;
 *   - an IRQ is taken in IRQ mode, which keeps the interrupted state on its own stack
 *     while the interrupt is in progress; the firmware's interrupt handlers run in SVC mode,
 *     on the SVC stack, with IRQs enabled again once the GIC has raised its running priority
 *     to the interrupt's, so that only more urgent interrupts nest;
 *   - the profile timer's interrupt is the most urgent (GIC priority 0): its sample is taken
 *     in the IRQ entry itself, in IRQ mode with IRQs masked, from the banked lr;
 *   - FIQ, aborts, undefined instructions and SVC have weak default handlers that report
 *     and exit.
 * What the board's <cyg/hal/board.h> gives this HAL (all usable from assembly):
 *   BOARD_GICD_BASE, BOARD_GICC_BASE   the GIC distributor and CPU interface
 *   BOARD_GIC_PRIO_BITS                priority bits the GIC implements (5 on Cortex-A9)
 *   BOARD_IRQ_COUNT                    interrupt IDs 0 .. BOARD_IRQ_COUNT-1 (a multiple of 32)
 *   BOARD_IRQ_VECTORS(X)               the handler name of every ID, in ID order
 *   BOARD_IRQ_PRIO_MAX                 (1 << BOARD_GIC_PRIO_BITS) - 3: board priority p is GIC
 *                                      level p + 1, level 0 being the profile timer's (the
 *                                      least urgent level is the priority mask's: never
 *                                      signalled)
 *   BOARD_PROFILE_TIMER_IRQ            the profile timer's interrupt ID
 *   BOARD_PROFILE_TIMER_SAMPLE         the board's C function void f(uintptr_t pc) that
 *                                      acknowledges the timer, gives it its next period
 *                                      and calls __profile_hit(pc)
 */
#ifndef CYGONCE_HAL_ARMV7A_H
#define CYGONCE_HAL_ARMV7A_H

/* CPSR. */
#define ARMV7A_MODE_USR 0x10
#define ARMV7A_MODE_FIQ 0x11
#define ARMV7A_MODE_IRQ 0x12
#define ARMV7A_MODE_SVC 0x13
#define ARMV7A_MODE_ABT 0x17
#define ARMV7A_MODE_UND 0x1B
#define ARMV7A_MODE_SYS 0x1F
#define ARMV7A_MODE_MASK 0x1F
#define ARMV7A_CPSR_T 0x20 /* Thumb state */
#define ARMV7A_CPSR_F 0x40 /* FIQ masked */
#define ARMV7A_CPSR_I 0x80 /* IRQ masked */

/* GIC distributor registers (offsets from BOARD_GICD_BASE). */
#define GICD_CTLR 0x000
#define GICD_TYPER 0x004
#define GICD_IGROUPR 0x080
#define GICD_ISENABLER 0x100
#define GICD_ICENABLER 0x180
#define GICD_ISPENDR 0x200
#define GICD_ICPENDR 0x280
#define GICD_IPRIORITYR 0x400
#define GICD_ITARGETSR 0x800
#define GICD_SGIR 0xF00
#define GICD_SGIR_TO_SELF (2 << 24) /* TargetListFilter: the requesting CPU only */
/* GIC CPU interface registers (offsets from BOARD_GICC_BASE). */
#define GICC_CTLR 0x00
#define GICC_PMR 0x04
#define GICC_BPR 0x08
#define GICC_IAR 0x0C
#define GICC_EOIR 0x10
#define GICC_IAR_ID_BITS 10 /* the interrupt ID; 1020..1023 are special (1023: spurious) */
#define GIC_SGI_COUNT 16    /* IDs 0..15: software generated interrupts */

#ifndef __ASSEMBLER__
#include <stdint.h>

#define ARMV7A_REG(addr) (*(volatile uint32_t *)(addr))

/* Make a device write take effect before the next instruction. */
static inline void armv7a_barrier(void)
{
    __asm__ volatile("dsb\n\tisb" : : : "memory");
}

/* The GIC distributor and this CPU's interface in a known state: every interrupt disabled,
 * not pending, least urgent, routed to this CPU, signalled as IRQ. Called by the startup
 * before board_init(). */
void armv7a_gic_init(void);
/*
 * A context switch on the IRQ exit path, for an RTOS whose tick and interrupt handlers ask
 * for a switch that is made once no handler is in progress (FreeRTOS's ARM_CA9 port:
 * ulPortYieldRequired, then FreeRTOS_SWI_Handler's save, vTaskSwitchContext, restore).
 * When the outermost handler has returned and hal_armv7a_switch_request points at a
 * nonzero word, the IRQ entry clears that word and enters hal_armv7a_switch instead of
 * returning: in IRQ mode, IRQs masked, every register the interrupted code's, lr_irq the
 * address to return to and SPSR_irq the interrupted CPSR, as an SVC handler is entered
 * (SRSDB saves both onto the task's stack, RFE returns). Set hal_armv7a_switch first, then
 * hal_armv7a_switch_request; NULL (the default): no switch. The profile timer's interrupt,
 * whose sample the IRQ entry takes itself, never switches.
 */
extern volatile uint32_t *volatile hal_armv7a_switch_request;
extern void (*volatile hal_armv7a_switch)(void);

/* Enable irq at GIC priority level (0 = most urgent .. 2^BOARD_GIC_PRIO_BITS - 2): the raw form
 * of board_irq_enable() (which never gives level 0: that is the profile timer's). */
void armv7a_gic_enable(int irq, unsigned level);
#endif

#endif
