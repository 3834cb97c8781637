/*
 * The profiling package's FreeRTOS kit: the chip extensions of FreeRTOS's GCC/RISC-V port
 * on this package's HAL (doc/rtos.md). The HAL owns the machine timer (the profile timer
 * and the tick share it: profile_freertos_riscv.c), so the port is told it has none: every
 * interrupt goes to freertos_risc_v_application_interrupt_handler. No additional context.
 */
#ifndef __FREERTOS_RISC_V_EXTENSIONS_H__
#define __FREERTOS_RISC_V_EXTENSIONS_H__

#define portasmHAS_SIFIVE_CLINT        0
#define portasmHAS_MTIME               0
#define portasmADDITIONAL_CONTEXT_SIZE 0

.macro portasmSAVE_ADDITIONAL_REGISTERS
.endm

.macro portasmRESTORE_ADDITIONAL_REGISTERS
.endm

#endif
