#!/usr/bin/env python3
"""The FreeRTOS kit (rtos/freertos/) without FreeRTOS (Debian packages none; doc/rtos.md
tells how it was tried with the real kernel): a file standing for FreeRTOS's tasks.c, with a
TCB, pxCurrentTCB and a FreeRTOSConfig.h that includes the kit, built with the reference
board's compiler and configuration:
  - traceTASK_SWITCHED_IN() calls profile_task_switch with the TCB and its pcTaskName;
  - traceTASK_DELETE() calls profile_task_end with the TCB;
  - the port's handlers get the vector table's names (PendSV_Handler, SVC_Handler,
    SysTick_Handler), or keep theirs with PROFILE_FREERTOS_KEEP_HANDLER_NAMES;
  - a table too small for PROFILE_FREERTOS_TASKS + idle + timer + main stops the build with
    the option's name; one just large enough builds;
  - freertos.mk: the kernel's sources and a heap, no hooks in the port's files in the
    stack-profiling mode (none to exclude otherwise), the RISC-V glue and its link flag;
  - the RISC-V glue (profile_freertos_riscv.c) compiles for riscv32-virt with the kit's
    flags against stand-ins for FreeRTOS's headers, without a hook of its own (it changes
    the handler depth around them), and uses only what that board's HAL defines.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "qemu"))
import harness as h  # noqa: E402

KIT = os.path.join(h.ROOT, "rtos", "freertos")
CC = "arm-none-eabi-gcc"
NM = "arm-none-eabi-nm"
TASKS_C = r"""
#include <stdint.h>
typedef struct { void *top; char pcTaskName[12]; } TCB_t;
TCB_t *volatile pxCurrentTCB;
#include "FreeRTOSConfig.h"
void vTaskSwitchContext(void) { traceTASK_SWITCHED_IN(); }
void vTaskDelete(TCB_t *pxTCB) { traceTASK_DELETE(pxTCB); }
void xPortPendSVHandler(void) {}
void vPortSVCHandler(void) {}
void xPortSysTickHandler(void) {}
"""


def include_dirs(tmp):
    """The reference board's configuration, the package's headers and its HAL's (ARMv7-M),
    the kit, the config."""
    return [os.path.join(os.path.dirname(h.FW_DIR), "include"),
            os.path.join(h.ROOT, "target", "include")] + \
        [os.path.join(h.ROOT, "hal", d, "include") for d in ("armv7m", "arm", "cortexm")] + \
        [KIT, tmp]


def build(tmp, config, defines=()):
    with open(os.path.join(tmp, "FreeRTOSConfig.h"), "w") as f:
        f.write(config)
    with open(os.path.join(tmp, "tasks.c"), "w") as f:
        f.write(TASKS_C)
    cmd = [CC, "-mcpu=cortex-m3", "-mthumb", "-O2", "-c", "tasks.c", "-o", "tasks.o"]
    cmd += ["-I" + d for d in include_dirs(tmp)] + ["-D" + d for d in defines]
    p = subprocess.run(cmd, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        return p.stdout, None
    return p.stdout, subprocess.run([NM, "tasks.o"], cwd=tmp, stdout=subprocess.PIPE,
                                    text=True).stdout


def make_vars(tmp, pg, port):
    mk = os.path.join(tmp, "probe.mk")
    with open(mk, "w") as f:
        f.write("PROFILE_PG_CFLAGS := %s\nFREERTOS_KERNEL := /k\nFREERTOS_PORT := %s\n"
                "include %s/freertos.mk\n"
                "print:\n\t@echo 'SRCS=$(PROFILE_FREERTOS_SRCS)'\n"
                "\t@echo 'CFLAGS=$(PROFILE_FREERTOS_CFLAGS)'\n"
                "\t@echo 'LDFLAGS=$(PROFILE_FREERTOS_LDFLAGS)'\n" % (pg, port, KIT))
    out = subprocess.run(["make", "-s", "-f", mk, "print"], stdout=subprocess.PIPE, text=True).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


RV_BOARD = "riscv32-virt"
RV_FREERTOS_H = """#include "FreeRTOSConfig.h"
typedef long BaseType_t;
#define pdFALSE ((BaseType_t)0)
"""
RV_TASK_H = "BaseType_t xTaskIncrementTick(void);\nvoid vTaskSwitchContext(void);\n"


def riscv_glue(t, tmp):
    """Compiles the kit's RISC-V glue as freertos.mk would in the stack-profiling mode, and
    checks its undefined symbols against the board's library."""
    lib = os.path.join(h.BUILD, RV_BOARD, "lib", "libprofile.a")
    if not os.path.exists(lib):
        t.skip("the RISC-V glue", "%s is not built" % lib)
        return
    for name, text in (("FreeRTOS.h", RV_FREERTOS_H), ("task.h", RV_TASK_H),
                       ("FreeRTOSConfig.h", "#define configTICK_RATE_HZ 1000\n")):
        with open(os.path.join(tmp, name), "w") as f:
            f.write(text)
    cross = h.board_var("CROSS_COMPILE", RV_BOARD)
    inc = [os.path.join(h.BUILD, RV_BOARD, "include"), os.path.join(h.ROOT, "target", "include"),
           os.path.join(h.ROOT, "hal", "riscv", "include"),
           os.path.join(h.ROOT, "hal", "common", "include"),
           os.path.join(h.ROOT, "boards", RV_BOARD, "include"), os.path.join(KIT, "riscv"), tmp]
    cmd = [cross + "gcc", "--specs=picolibc.specs"] + h.board_var("BOARD_CPUFLAGS", RV_BOARD).split()
    cmd += ["-O2", "-pg", "-finstrument-functions", "-Wall", "-Wextra", "-Werror", "-c",
            os.path.join(KIT, "profile_freertos_riscv.c"), "-o", "glue.o"] + ["-I" + d for d in inc]
    p = subprocess.run(cmd, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if not t.ok(p.returncode == 0, "the RISC-V glue compiles for %s, -Wall -Wextra -Werror" % RV_BOARD,
                p.stdout):
        return
    nm = cross + "nm"
    undef = set(re.findall(r"^\s+U (\w+)$", subprocess.run([nm, "glue.o"], cwd=tmp,
                stdout=subprocess.PIPE, text=True).stdout, re.M))
    t.ok(not undef & {"_mcount", "mcount", "__cyg_profile_func_enter", "__cyg_profile_func_exit"},
         "... with neither mcount nor the stack mode's hooks in it", sorted(undef))
    hal = {u for u in undef if u.startswith("hal_")}
    defined = set(re.findall(r"^[0-9a-f]+ [TDBRC] (\w+)$", subprocess.run(
        [nm, lib], stdout=subprocess.PIPE, text=True).stdout, re.M))
    t.ok(hal and hal <= defined, "... and every hal_ symbol it uses is the board's HAL's",
         sorted(hal - defined) or sorted(hal))


def main():
    t = h.Tap()
    config = "#define configUSE_TIMERS 1\n#define PROFILE_FREERTOS_TASKS %d\n#include \"profile_freertos.h\"\n"
    with tempfile.TemporaryDirectory(prefix="test-freertos-kit.") as tmp:
        out, r = build(tmp, config % 13)      # 13 + idle + timer + main = 16, the default
        if t.ok(r is not None, "a table just large enough builds", out):
            syms = r
            t.ok(re.search(r"\bU profile_task_switch\b", syms) is not None,
                 "traceTASK_SWITCHED_IN calls profile_task_switch", syms)
            pre = subprocess.run([CC, "-mcpu=cortex-m3", "-mthumb", "-E", "-P", "tasks.c"] +
                                 ["-I" + d for d in include_dirs(tmp)],
                                 cwd=tmp, stdout=subprocess.PIPE, text=True).stdout
            body = pre[pre.find("void vTaskSwitchContext(void)"):]
            t.ok(re.search(r"profile_task_switch\(\(uintptr_t\)pxCurrentTCB, "
                           r"pxCurrentTCB->pcTaskName\)", body[:300]) is not None,
                 "... with the TCB and its pcTaskName", body[:300])
            t.ok(re.search(r"\bU profile_task_end\b", syms) is not None and
                 re.search(r"profile_task_end\(\(uintptr_t\)\(pxTCB\)\)",
                           pre[pre.find("void vTaskDelete("):][:200]) is not None,
                 "traceTASK_DELETE calls profile_task_end with the TCB",
                 pre[pre.find("void vTaskDelete("):][:200])
            t.eq(sorted(re.findall(r"\bT (\w+_Handler)\b", syms)),
                 ["PendSV_Handler", "SVC_Handler", "SysTick_Handler"],
                 "the port's handlers under the vector table's names")
        out, r = build(tmp, "#define PROFILE_FREERTOS_KEEP_HANDLER_NAMES\n" + config % 1)
        t.ok(r is not None and "T xPortPendSVHandler" in r and "PendSV_Handler" not in r,
             "PROFILE_FREERTOS_KEEP_HANDLER_NAMES keeps FreeRTOS's names", out + (r or ""))
        out, r = build(tmp, config % 14)
        t.ok(r is None and "#error \"CYGNUM_PROFILE_TASKS is smaller than the tasks FreeRTOS will run" in out,
             "one task too many for CYGNUM_PROFILE_TASKS stops the build, naming it", out)
        out, r = build(tmp, config % 2, ["CYGPKG_PROFILE_STACKS=1", "CYGNUM_PROFILE_STACKS_THREADS=4"])
        t.ok(r is None and "CYGNUM_PROFILE_STACKS_THREADS is smaller" in out,
             "stack mode: too few shadow stacks stop the build, naming the option", out)

        v = make_vars(tmp, "-pg -finstrument-functions", "GCC/ARM_CM3")
        t.ok(all(("/k/%s.c" % s) in v.get("SRCS", "") for s in ("tasks", "queue", "list", "timers",
                                                               "portable/MemMang/heap_4")),
             "freertos.mk: the kernel's sources and heap_4", v)
        t.ok("-finstrument-functions-exclude-file-list=/portable/" in v.get("CFLAGS", "")
             and "-pg" in v.get("CFLAGS", "") and v.get("LDFLAGS", "").strip() == "",
             "freertos.mk, stack mode: -pg, no hooks in the port's files", v)
        v = make_vars(tmp, "-pg", "GCC/ARM_CM3")
        t.ok("exclude" not in v.get("CFLAGS", ""), "freertos.mk, plain mode: nothing to exclude", v)
        v = make_vars(tmp, "-pg", "GCC/RISC-V")
        t.ok("profile_freertos_riscv.c" in v.get("SRCS", "") and
             v.get("LDFLAGS", "").strip() == "-Wl,--wrap=vTaskSwitchContext" and
             "/riscv" in v.get("CFLAGS", ""),
             "freertos.mk, RISC-V: the glue, its chip-extensions header, --wrap=vTaskSwitchContext", v)
        riscv_glue(t, tmp)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
