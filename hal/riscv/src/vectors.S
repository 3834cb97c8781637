/*
 * Reset entry, trap vector and trap entries of every RISC-V board (machine mode, RV32 and
 * RV64). The linker script (riscv.ld) names _start as the entry point and places these
 * sections before _stext: the trap code is to RISC-V what the hardware exception entry is
 * to Cortex-M, so it stays outside the profiled range, and every interrupt handler's caller
 * counts as "from outside the range", a root in gprof's call graph, as on Cortex-M.
 */
#include <cyg/hal/riscv.h>

/* The trap frame: the 16 registers the psABI lets a C function clobber, then mstatus (a
 * handler may let other interrupts nest, which overwrite it; mepc is kept by the C code). */
#define FRAME_REGS 17
#define FRAME_SIZE ((FRAME_REGS * RISCV_SZREG + 15) & ~15)   /* sp stays 16-byte aligned */
#define SLOT(n) ((n) * RISCV_SZREG)

        .macro save_caller_saved
        RISCV_REG_S ra, SLOT(0)(sp)
        RISCV_REG_S t0, SLOT(1)(sp)
        RISCV_REG_S t1, SLOT(2)(sp)
        RISCV_REG_S t2, SLOT(3)(sp)
        RISCV_REG_S a0, SLOT(4)(sp)
        RISCV_REG_S a1, SLOT(5)(sp)
        RISCV_REG_S a2, SLOT(6)(sp)
        RISCV_REG_S a3, SLOT(7)(sp)
        RISCV_REG_S a4, SLOT(8)(sp)
        RISCV_REG_S a5, SLOT(9)(sp)
        RISCV_REG_S a6, SLOT(10)(sp)
        RISCV_REG_S a7, SLOT(11)(sp)
        RISCV_REG_S t3, SLOT(12)(sp)
        RISCV_REG_S t4, SLOT(13)(sp)
        RISCV_REG_S t5, SLOT(14)(sp)
        RISCV_REG_S t6, SLOT(15)(sp)
        .endm

        .macro restore_caller_saved
        RISCV_REG_L ra, SLOT(0)(sp)
        RISCV_REG_L t0, SLOT(1)(sp)
        RISCV_REG_L t1, SLOT(2)(sp)
        RISCV_REG_L t2, SLOT(3)(sp)
        RISCV_REG_L a0, SLOT(4)(sp)
        RISCV_REG_L a1, SLOT(5)(sp)
        RISCV_REG_L a2, SLOT(6)(sp)
        RISCV_REG_L a3, SLOT(7)(sp)
        RISCV_REG_L a4, SLOT(8)(sp)
        RISCV_REG_L a5, SLOT(9)(sp)
        RISCV_REG_L a6, SLOT(10)(sp)
        RISCV_REG_L a7, SLOT(11)(sp)
        RISCV_REG_L t3, SLOT(12)(sp)
        RISCV_REG_L t4, SLOT(13)(sp)
        RISCV_REG_L t5, SLOT(14)(sp)
        RISCV_REG_L t6, SLOT(15)(sp)
        .endm

/* ---- reset ------------------------------------------------------------------------------ */
        .section .hal_reset, "ax", @progbits
        .global _start
        .type   _start, @function
_start:
        /* gp first, and without relaxation: nothing may be gp-relative before it is set. */
        .option push
        .option norelax
        la      gp, __global_pointer$
        .option pop
        csrw    mie, zero
        csrci   mstatus, RISCV_MSTATUS_MIE
        csrr    t0, mhartid
        bnez    t0, 1f                  /* one hart runs the firmware; others wait */
        la      sp, __stack_top
        la      tp, __tls_base          /* the one thread's TLS block (psABI): errno */
        la      t0, hal_riscv_vectors
        ori     t0, t0, 1               /* vectored: interrupt n enters at base + 4n */
        csrw    mtvec, t0
        call    hal_riscv_cstart        /* never returns */
1:      wfi
        j       1b
        .size   _start, . - _start

/* ---- trap vector ------------------------------------------------------------------------ */
        .section .hal_trap, "ax", @progbits
        .global hal_riscv_vectors
        .balign 64                      /* mtvec.BASE alignment real cores want */
hal_riscv_vectors:
        .option push
        .option norvc                   /* one 4-byte jump per cause */
        j       hal_riscv_trap_entry    /* 0: every synchronous exception */
        .rept   RISCV_IRQ_M_TIMER - 1
        j       hal_riscv_trap_entry    /* 1..6: 3 the CLINT's msip; the others never enabled */
        .endr
        j       hal_riscv_mtimer_entry  /* 7: machine timer (profile timer, tick) */
        .rept   15 - RISCV_IRQ_M_TIMER
        j       hal_riscv_trap_entry    /* 8..15: 11 the PLIC; the others never enabled */
        .endr
        .option pop

/*
 * The machine timer interrupt: the profile timer's sample (and an application's or RTOS's
 * tick sharing the timer, riscv_mtimer.h). It lets nothing nest (it is the most urgent
 * interrupt and short), so mepc stays in its CSR: hal_mtimer_isr(interrupted pc).
 */
        .global hal_riscv_mtimer_entry
        .type   hal_riscv_mtimer_entry, @function
hal_riscv_mtimer_entry:
        addi    sp, sp, -FRAME_SIZE
        save_caller_saved
        csrr    a0, mepc
        call    hal_mtimer_isr
        restore_caller_saved
        addi    sp, sp, FRAME_SIZE
        mret
        .size   hal_riscv_mtimer_entry, . - hal_riscv_mtimer_entry

/*
 * Every other trap: hal_riscv_trap(mcause, mepc) (startup.c) dispatches interrupts to
 * their handlers, which may let more urgent ones nest (irq.c), so mepc and mstatus are
 * saved in the frame; it returns the pc to resume at (an exception it handled moves it on).
 */
        .global hal_riscv_trap_entry
        .type   hal_riscv_trap_entry, @function
hal_riscv_trap_entry:
        addi    sp, sp, -FRAME_SIZE
        save_caller_saved
        csrr    a0, mcause
        csrr    a1, mepc
        csrr    t0, mstatus
        RISCV_REG_S t0, SLOT(16)(sp)
        call    hal_riscv_trap
        csrw    mepc, a0
        RISCV_REG_L t0, SLOT(16)(sp)
        csrw    mstatus, t0             /* MPIE, MPP: where mret goes back to */
        restore_caller_saved
        addi    sp, sp, FRAME_SIZE
        mret
        .size   hal_riscv_trap_entry, . - hal_riscv_trap_entry
