/*
 * Semihosting: requests to the debugger or emulator (QEMU with -semihosting-config
 * enable=on), as "Semihosting for AArch32 and AArch64" v2.0 and the RISC-V semihosting
 * specification define them. The architecture HAL implements the trap; the C library glue
 * (hal/common) uses it to end a run with its exit status.
 */
#ifndef CYGONCE_HAL_SEMIHOSTING_H
#define CYGONCE_HAL_SEMIHOSTING_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SEMIHOSTING_SYS_EXIT_EXTENDED 0x20
#define SEMIHOSTING_ADP_STOPPED_APPLICATION_EXIT 0x20026

/**
 * Make semihosting request op with its parameter (a pointer to the parameter block, or a
 * value). Without a host that answers, the trap faults or is ignored, depending on the core.
 * @return the host's answer (register r0 / a0)
 */
uintptr_t hal_semihosting_call(uintptr_t op, uintptr_t arg);

#ifdef __cplusplus
}
#endif
#endif
