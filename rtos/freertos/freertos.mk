# The profiling package's FreeRTOS kit: FreeRTOS's sources with the right flags
# (doc/rtos.md). Include it after the install tree's lib/profile.mk:
#
#   include $(HOME)/gprof-rtos/mps2-an385/lib/profile.mk
#   FREERTOS_KERNEL := $(HOME)/FreeRTOS-Kernel
#   FREERTOS_PORT   := GCC/ARM_CM3              # (or GCC/RISC-V, ...)
#   FREERTOS_HEAP   := heap_4                   # (portable/MemMang; the default)
#   include $(HOME)/gprof-rtos/mps2-an385/share/rtos/freertos/freertos.mk
#
# and compile FreeRTOS's files (PROFILE_FREERTOS_SRCS) with $(PROFILE_FREERTOS_CFLAGS),
# your own with $(PROFILE_PG_CFLAGS) $(PROFILE_FREERTOS_INC).
#
# PROFILE_FREERTOS_CFLAGS: -pg for the kernel and the port as for your code; in the
# stack-profiling mode the port's files (portable/...) get no -finstrument-functions
# hooks, which would break their naked handlers (xPortPendSVHandler, vPortSVCHandler): the
# hooks' call overwrites the exception return value and the task's registers.
# (-pg's mcount call is safe there.) PROFILE_CHECK (lib/profile.mk) refuses a firmware in
# which a naked function got them all the same.

PROFILE_FREERTOS_KIT  := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
PROFILE_FREERTOS_PORT_DIR := $(FREERTOS_KERNEL)/portable/$(FREERTOS_PORT)

PROFILE_FREERTOS_SRCS := $(addprefix $(FREERTOS_KERNEL)/,tasks.c queue.c list.c timers.c \
                           event_groups.c stream_buffer.c) \
                         $(wildcard $(PROFILE_FREERTOS_PORT_DIR)/*.c $(PROFILE_FREERTOS_PORT_DIR)/*.S) \
                         $(FREERTOS_KERNEL)/portable/MemMang/$(or $(FREERTOS_HEAP),heap_4).c
# RISC-V: the kit's glue (the machine timer through the HAL, the handler depth) and its
# chip-extensions header; the handler depth needs the link flags below.
PROFILE_FREERTOS_RISCV := $(if $(findstring RISC-V,$(FREERTOS_PORT)),y)
PROFILE_FREERTOS_SRCS  += $(if $(PROFILE_FREERTOS_RISCV),$(PROFILE_FREERTOS_KIT)/profile_freertos_riscv.c)

PROFILE_FREERTOS_INC := -I$(FREERTOS_KERNEL)/include -I$(PROFILE_FREERTOS_PORT_DIR) \
                        -I$(PROFILE_FREERTOS_KIT) \
                        $(if $(PROFILE_FREERTOS_RISCV),-I$(PROFILE_FREERTOS_KIT)/riscv)
PROFILE_FREERTOS_CFLAGS := $(PROFILE_PG_CFLAGS) $(PROFILE_FREERTOS_INC) \
    $(if $(findstring -finstrument-functions,$(PROFILE_PG_CFLAGS)),\
      -finstrument-functions-exclude-file-list=/portable/)
PROFILE_FREERTOS_COMMA := ,
PROFILE_FREERTOS_LDFLAGS := $(if $(PROFILE_FREERTOS_RISCV),-Wl$(PROFILE_FREERTOS_COMMA)--wrap=vTaskSwitchContext)
