# What every Cortex-M board shares (ARMv6-M, ARMv7-M, ARMv8-M): reset, the vector table,
# the default exception handler, the NVIC, semihosting, the linker script's sections.
# Included by the Cortex-M architecture HALs' hal.mk (file lists; rules in the Makefile).
CORTEXM_INC    := hal/cortexm/include
CORTEXM_SRCS   := hal/cortexm/src/startup.c hal/cortexm/src/nvic.c hal/cortexm/src/semihosting.c
CORTEXM_CDL    := hal/cortexm/hal_cortexm.cdl
# Where the board linker scripts' INCLUDE finds cortexm.ld.
CORTEXM_LDPATH := hal/cortexm
CORTEXM_LDFILES := hal/cortexm/cortexm.ld
