/*
 * RISC-V machine mode as the HAL uses it: control and status registers, interrupt cause
 * codes, and the register width for code that serves RV32 and RV64 alike. For the HAL and
 * board code (C and assembly); firmware uses the board API (<cyg/hal/board_api.h>).
 */
#ifndef CYGONCE_HAL_RISCV_H
#define CYGONCE_HAL_RISCV_H

/* mstatus */
#define RISCV_MSTATUS_MIE 0x8   /* machine interrupts enabled */

/* mie / mip bits and mcause interrupt codes (machine level) */
#define RISCV_IRQ_M_SOFT 3      /* CLINT msip */
#define RISCV_IRQ_M_TIMER 7     /* CLINT mtimecmp */
#define RISCV_IRQ_M_EXT 11      /* PLIC */
#define RISCV_MIE_MSIE (1 << RISCV_IRQ_M_SOFT)
#define RISCV_MIE_MTIE (1 << RISCV_IRQ_M_TIMER)
#define RISCV_MIE_MEIE (1 << RISCV_IRQ_M_EXT)

/* mcause exception codes the HAL treats specially */
#define RISCV_EXC_BREAKPOINT 3

/* Register width: the stores, loads and slot size of a trap frame. */
#if __riscv_xlen == 64
#define RISCV_REG_S sd
#define RISCV_REG_L ld
#define RISCV_SZREG 8
#else
#define RISCV_REG_S sw
#define RISCV_REG_L lw
#define RISCV_SZREG 4
#endif

/*
 * The trap entry saves the integer registers only: a core with an FPU would need the
 * caller-saved FP registers saved too (handlers are ordinary C functions).
 */
#ifdef __riscv_flen
#error "hal/riscv: FP registers are not saved on trap entry; build for an integer-only ISA (rv32imac, rv64imac)"
#endif

#ifndef __ASSEMBLER__
#include <stdint.h>

#define RISCV_STR_(x) #x
#define RISCV_STR(x) RISCV_STR_(x)

#define riscv_csr_read(csr)                                                                   \
    ({                                                                                        \
        unsigned long v_;                                                                     \
        __asm__ volatile("csrr %0, " RISCV_STR(csr) : "=r"(v_) : : "memory");                \
        v_;                                                                                   \
    })
#define riscv_csr_write(csr, v)                                                               \
    __asm__ volatile("csrw " RISCV_STR(csr) ", %0" : : "r"((unsigned long)(v)) : "memory")
#define riscv_csr_set(csr, v)                                                                 \
    __asm__ volatile("csrs " RISCV_STR(csr) ", %0" : : "r"((unsigned long)(v)) : "memory")
#define riscv_csr_clear(csr, v)                                                               \
    __asm__ volatile("csrc " RISCV_STR(csr) ", %0" : : "r"((unsigned long)(v)) : "memory")

/* Memory-mapped registers (CLINT, PLIC, board devices). */
#define RISCV_REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/*
 * Depth of interrupt handling: incremented by the HAL's dispatch around every handler it
 * calls (hal/riscv/src/irq.c, mtimer.c), read by hal_profile_in_interrupt(). An RTOS that
 * takes traps through a vector of its own keeps it too (doc in hal_riscv.cdl).
 */
extern volatile unsigned hal_riscv_irq_depth;

/*
 * Nonzero (the default): the HAL's dispatch lets more urgent interrupts nest inside a
 * handler (mstatus.MIE set around it). An RTOS whose trap handler cannot nest (FreeRTOS's
 * RISC-V port: one ISR stack, taken from its top at every trap) clears it before it takes
 * the traps; handlers then run to their end with interrupts disabled.
 */
extern volatile unsigned hal_riscv_irq_nesting;

#endif /* !__ASSEMBLER__ */
#endif
