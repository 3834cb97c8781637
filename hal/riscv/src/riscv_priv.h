/* What the parts of hal/riscv/src share and nobody else uses. */
#ifndef CYGONCE_HAL_RISCV_PRIV_H
#define CYGONCE_HAL_RISCV_PRIV_H

#include <stdint.h>

/*
 * Code that runs between a trap and its handler: placed with the trap vector, before _stext
 * (riscv.ld), outside the profiled range (see vectors.S).
 */
#define HAL_RISCV_TRAP_CODE __attribute__((section(".hal_trap")))

/* The ebreak of hal_semihosting_call (semihosting.S). */
extern const char hal_riscv_semihosting_ebreak[];

/* irq.c: every interrupt masked at the controllers, then the thread level's mask. */
void hal_riscv_irq_init(void);
/* mtimer.c: the machine timer's comparator set to never. */
void hal_riscv_mtimer_init(void);
/* irq.c: take interrupt mcause code (with interrupts disabled); mepc for reports. */
void hal_riscv_irq_dispatch(unsigned code, uintptr_t mepc);
/* startup.c: report a trap nobody handles and exit with status. */
__attribute__((noreturn)) void hal_riscv_unhandled(const char *what, unsigned n, uintptr_t pc,
                                                   int status);

#endif
