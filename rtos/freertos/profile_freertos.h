/*
 * The profiling package's FreeRTOS kit: #include it at the end of FreeRTOSConfig.h
 * (doc/rtos.md). It gives FreeRTOS
 *   - the switch hook: traceTASK_SWITCHED_IN() calls profile_task_switch() with the TCB
 *     and its name, so that every timer sample is counted for the running task (gmon.tasks)
 *     and, in the stack-profiling mode, each task's calls go on a shadow stack of its own;
 *   - the delete hook: traceTASK_DELETE() calls profile_task_end(), so that a deleted
 *     task's row keeps its name and a task made in its freed TCB gets a row of its own;
 *   - on Cortex-M, the port's handlers under the names of this package's vector table
 *     (SVC_Handler, PendSV_Handler, SysTick_Handler); define
 *     PROFILE_FREERTOS_KEEP_HANDLER_NAMES if your vector table names FreeRTOS's own;
 *   - a check at build time that the package has a slot for every task: define
 *     PROFILE_FREERTOS_TASKS, the number of tasks your application creates; the idle task
 *     (one a core), the timer task (configUSE_TIMERS) and "main" are added here.
 * Build the kernel with the flags of freertos.mk (the port's naked handlers without
 * -finstrument-functions in the stack-profiling mode). On RISC-V, add riscv/ to the
 * include path (its chip-extensions header) and link profile_freertos_riscv.c.
 */
#ifndef PROFILE_FREERTOS_H
#define PROFILE_FREERTOS_H

#ifndef __ASSEMBLER__
#include <stdint.h>
#include <pkgconf/profile_gprof.h>
#include <cyg/profile/profile.h>

/* Called in tasks.c, where pxCurrentTCB and its pcTaskName (the TCB's own copy of the
 * name: it lives as long as the task) are in scope. */
#define traceTASK_SWITCHED_IN() \
    ((void)profile_task_switch((uintptr_t)pxCurrentTCB, pxCurrentTCB->pcTaskName))
/* Called in vTaskDelete before the TCB is freed: the task's row keeps its name, and a task
 * made later in the same memory gets a row of its own. */
#define traceTASK_DELETE(pxTCB) ((void)profile_task_end((uintptr_t)(pxTCB)))
#endif

#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M' && \
    !defined(PROFILE_FREERTOS_KEEP_HANDLER_NAMES)
#define vPortSVCHandler     SVC_Handler
#define xPortPendSVHandler  PendSV_Handler
#define xPortSysTickHandler SysTick_Handler
#endif

/* (C only: the package's configuration, <pkgconf/profile_gprof.h>, is not read in a port's
 * assembler file that includes FreeRTOSConfig.h) */
#if defined(PROFILE_FREERTOS_TASKS) && !defined(__ASSEMBLER__)
/* (FreeRTOS.h sets its defaults after this file: taken here the same way) */
#ifdef configNUMBER_OF_CORES
#define PROFILE_FREERTOS_IDLE_TASKS configNUMBER_OF_CORES
#else
#define PROFILE_FREERTOS_IDLE_TASKS 1
#endif
#if defined(configUSE_TIMERS) && configUSE_TIMERS
#define PROFILE_FREERTOS_TIMER_TASKS 1
#else
#define PROFILE_FREERTOS_TIMER_TASKS 0
#endif
/* Every context profile_task_switch() sees: the application's tasks, the idle and timer
 * tasks, and "main" (the context before the scheduler starts). */
#define PROFILE_FREERTOS_ALL_TASKS \
    (PROFILE_FREERTOS_TASKS + PROFILE_FREERTOS_IDLE_TASKS + PROFILE_FREERTOS_TIMER_TASKS + 1)
#if CYGNUM_PROFILE_TASKS < PROFILE_FREERTOS_ALL_TASKS
#error "CYGNUM_PROFILE_TASKS is smaller than the tasks FreeRTOS will run (PROFILE_FREERTOS_TASKS + the idle task + the timer task + main): configure the package with a larger CYGNUM_PROFILE_TASKS"
#endif
#if defined(CYGPKG_PROFILE_STACKS) && defined(CYGNUM_PROFILE_STACKS_THREADS) && \
    CYGNUM_PROFILE_STACKS_THREADS < PROFILE_FREERTOS_ALL_TASKS
#error "CYGNUM_PROFILE_STACKS_THREADS is smaller than the tasks FreeRTOS will run (PROFILE_FREERTOS_TASKS + the idle task + the timer task + main): configure the package with a larger CYGNUM_PROFILE_STACKS_THREADS"
#endif
#if defined(CYGPKG_PROFILE_STACKS) && !defined(CYGNUM_PROFILE_STACKS_THREADS) && \
    PROFILE_FREERTOS_ALL_TASKS > 1
#error "CYGNUM_PROFILE_STACKS_THREADS is 1 (the default) in the stack-profiling mode: configure the package with CYGNUM_PROFILE_STACKS_THREADS set to the tasks FreeRTOS will run (PROFILE_FREERTOS_TASKS + the idle task + the timer task + main)"
#endif
#endif

#endif
