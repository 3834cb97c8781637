/*
 * The profiling package's FreeRTOS kit, RISC-V glue: FreeRTOS's GCC/RISC-V port
 * (portASM.S) on this package's RISC-V HAL (doc/rtos.md). Built with the kernel
 * (freertos.mk's PROFILE_FREERTOS_SRCS), linked with -Wl,--wrap=vTaskSwitchContext
 * (PROFILE_FREERTOS_LDFLAGS). FreeRTOSConfig.h sets configMTIME_BASE_ADDRESS and
 * configMTIMECMP_BASE_ADDRESS to 0 and configISR_STACK_SIZE_WORDS; the chip-extensions
 * header (riscv/) says the port has no machine timer of its own (portasmHAS_MTIME 0).
 *
 *   - The machine timer: the HAL owns mtimecmp and shares it between the profile timer and
 *     the tick (<cyg/hal/riscv_mtimer.h>). vPortSetupTimerInterrupt asks it for the tick and
 *     puts the port's trap handler in mtvec; the port's trap handler passes every interrupt
 *     here (freertos_risc_v_application_interrupt_handler): the machine timer to
 *     hal_mtimer_isr (the sample, then the tick), the others to the HAL's dispatch, told
 *     not to let interrupts nest (the port's trap handler takes its ISR stack from the top
 *     at every trap).
 *   - The tick: xTaskIncrementTick; the switch it asks for is made after hal_mtimer_isr has
 *     taken its sample, so that a sample is counted for the task it interrupted.
 *   - A yield's switch: a profile sample already due is taken first, for the task that
 *     yields (hal_mtimer_take_due_sample).
 *   - The handler depth: the port runs vTaskSwitchContext in its trap handler (the ecall
 *     of a yield, the tick) outside any of the HAL's handlers; the wrapper counts it as a
 *     handler (hal_riscv_irq_depth), so that in the stack-profiling mode its frames go on
 *     the handlers' shadow stack, not on the task's it switches away from.
 * Nothing here is hooked (no_instrument_function): the depth changes around the hooks.
 */
#include <stdint.h>
#include "FreeRTOS.h"
#include "task.h"
#include <cyg/hal/board.h>
#include <cyg/hal/riscv.h>
#include <cyg/hal/riscv_mtimer.h>

#define GLUE __attribute__((no_instrument_function))

void freertos_risc_v_trap_handler(void);        /* the port's (portASM.S) */
uintptr_t hal_riscv_trap(uintptr_t mcause, uintptr_t mepc);   /* the HAL's dispatch */
void __real_vTaskSwitchContext(void);
void __wrap_vTaskSwitchContext(void);

/* A switch the tick asked for, made once the timer interrupt is done. Owned by the machine
 * timer interrupt (set by the tick, cleared after it). */
static volatile int tick_switch;

GLUE static void tick(void)
{
    if (xTaskIncrementTick() != pdFALSE)
        tick_switch = 1;
}

GLUE void vPortSetupTimerInterrupt(void)
{
    hal_riscv_irq_nesting = 0;      /* the port's trap handler does not nest */
    hal_mtimer_tick_start(BOARD_CLOCK_HZ / configTICK_RATE_HZ, tick);
    riscv_csr_write(mtvec, (uintptr_t)freertos_risc_v_trap_handler);  /* direct mode */
}

GLUE void freertos_risc_v_application_interrupt_handler(void)
{
    uintptr_t mcause = riscv_csr_read(mcause), mepc = riscv_csr_read(mepc);
    if ((mcause & 0xFFu) == RISCV_IRQ_M_TIMER) {
        hal_mtimer_isr(mepc);
        if (tick_switch) {
            tick_switch = 0;
            __wrap_vTaskSwitchContext();
        }
    } else {
        (void)hal_riscv_trap(mcause, mepc);
    }
}

GLUE void __wrap_vTaskSwitchContext(void)
{
    /* A yield is an ecall made with interrupts off when it comes from a critical section
     * (the queue's): a sample that came due there is the yielding task's, at the ecall,
     * not the next task's, which runs with its own interrupts on. */
    hal_mtimer_take_due_sample(riscv_csr_read(mepc));
    hal_riscv_irq_depth++;
    __real_vTaskSwitchContext();
    hal_riscv_irq_depth--;
}
