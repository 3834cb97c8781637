/*
 * Code that runs from RAM: functions in section ".ramfunc" (and ".ramfunc.*"),
 * which every board's linker script links to run in RAM and loads in CODE, and which the
 * startup copies before main. Compiled with -pg, as tests/qemu/calls.c.
 *
 * The call structure (numbers in ramfunc.h), N_RAM_CALLS times from run_calls:
 *
 *     run_calls -> flash_caller -> ram_func -> flash_leaf     flash -> RAM -> flash
 *                                           -> ram_leaf       RAM -> RAM
 *
 * and N_RAM_WORK times each, from main, the same loop in RAM (ram_work) and in flash
 * (flash_work), so that samples land in both alike. main checks that the RAM functions'
 * addresses lie in [_sramfunc, _eramfunc), the flash ones' in [_stext, _etext), that the
 * RAM copy equals its load image at _siramfunc, and every result; then phase_done(1), where
 * the test stops and extracts. (Profiling covers _stext.._etext, as on every board today;
 * a call site in RAM is then outside the range. A profile over several ranges would take
 * the RAM code in here: main is where it starts.)
 *
 * ram_unused is in a section of its own, ".ramfunc.unused", that nothing refers to:
 * --gc-sections drops it (the test checks), as it would drop such a function from .text.
 */
#include <pkgconf/system.h>
#ifdef CYGPKG_PROFILE_GPROF
# include <cyg/profile/profile.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "calls.h"   /* phase_done(), firmware_failed() (support.c, no -pg) */
#include "ramfunc.h"

/* No inlining, no interprocedural shortcuts: every call in the source is a call at run
 * time. RAM functions are 16-byte aligned, as -falign-functions=16 would have them (the
 * histogram's bucket size). */
#define KEEP __attribute__((noinline, noipa))
#define RAMFUNC __attribute__((section(".ramfunc"), noinline, noipa, aligned(16)))

/* Linker script symbols (hal/<arch>/<arch>.ld). */
extern char _stext[], _etext[];
extern char _sramfunc[], _eramfunc[], _siramfunc[];

/* Written by the functions below so the compiler keeps their loops and calls. */
volatile uint32_t sink;
/* What main's loop got back, for gdb. */
volatile uint32_t ram_result;

/* The flash function RAM code calls back. */
KEEP uint32_t flash_leaf(uint32_t x)
{
    sink += x;
    return 3u * x + 1u;
}

/* RAM -> RAM. */
RAMFUNC uint32_t ram_leaf(uint32_t x)
{
    sink ^= x;
    return x << 4;
}

/* Called from flash, calls back into flash and within RAM; the work after each call keeps
 * them from being tail calls. */
RAMFUNC uint32_t ram_func(uint32_t x)
{
    uint32_t r = flash_leaf(x) + 7u;
    r ^= ram_leaf(x);
    sink += r;
    return r;
}

/* Flash -> RAM. */
KEEP uint32_t flash_caller(uint32_t x)
{
    return ram_func(x) ^ 0x5Au;
}

/* What flash_caller(x) returns, computed here without a call. */
static inline __attribute__((always_inline)) uint32_t expected(uint32_t x)
{
    return ((3u * x + 1u + 7u) ^ (x << 4)) ^ 0x5Au;
}

/* The same loop in RAM and in flash (aligned so that histogram buckets never straddle a
 * neighbour). */
#define WORK_BODY                                   \
    {                                               \
        for (uint32_t i = 0; i < RAM_WORK_UNIT; i++) \
            sink += i;                              \
    }
__attribute__((section(".ramfunc"), noinline, noipa, aligned(64))) void ram_work(void) WORK_BODY
__attribute__((noinline, noipa, aligned(64))) void flash_work(void) WORK_BODY

/* Nothing refers to it: --gc-sections drops its section. */
__attribute__((section(".ramfunc.unused"), noinline, noipa)) uint32_t ram_unused(uint32_t x)
{
    return x * 5u;
}

/* A function's code address (Thumb function pointers have bit 0 set). */
static uintptr_t code_addr(uintptr_t f)
{
    return f & ~(uintptr_t)1;
}

static int in_ram_code(uintptr_t f)
{
    return code_addr(f) >= (uintptr_t)_sramfunc && code_addr(f) < (uintptr_t)_eramfunc;
}

static int in_flash_code(uintptr_t f)
{
    return code_addr(f) >= (uintptr_t)_stext && code_addr(f) < (uintptr_t)_etext;
}

/* The linker script and the startup did their part: the RAM functions are linked in RAM,
 * the flash ones in flash, and the RAM copy is the load image. */
KEEP void check_layout(void)
{
    size_t size = (size_t)(_eramfunc - _sramfunc);
    printf("ramfunc: .ramfunc %p..%p (%u bytes), loaded from %p; code %p..%p\n",
           (void *)_sramfunc, (void *)_eramfunc, (unsigned)size, (void *)_siramfunc,
           (void *)_stext, (void *)_etext);
    if (size == 0 || (uintptr_t)_sramfunc % 16 != 0 || (uintptr_t)_eramfunc % 16 != 0)
        firmware_failed("_sramfunc/_eramfunc: empty or not 16-byte aligned");
    if (_siramfunc == _sramfunc)
        firmware_failed("_siramfunc: .ramfunc is not loaded apart from where it runs");
    if (!in_ram_code((uintptr_t)ram_func) || !in_ram_code((uintptr_t)ram_leaf) ||
        !in_ram_code((uintptr_t)ram_work))
        firmware_failed("a .ramfunc function outside _sramfunc.._eramfunc");
    if ((uintptr_t)_sramfunc < (uintptr_t)_etext && (uintptr_t)_eramfunc > (uintptr_t)_stext)
        firmware_failed(".ramfunc overlaps _stext.._etext");
    if (!in_flash_code((uintptr_t)flash_leaf) || !in_flash_code((uintptr_t)flash_caller) ||
        !in_flash_code((uintptr_t)flash_work))
        firmware_failed("a flash function outside _stext.._etext");
    if (code_addr((uintptr_t)ram_func) % 16 != 0 || code_addr((uintptr_t)ram_work) % 64 != 0)
        firmware_failed("a .ramfunc function not aligned as asked");
    if (memcmp(_sramfunc, _siramfunc, size) != 0)
        firmware_failed(".ramfunc in RAM differs from its load image");
    printf("ramfunc: layout ok: ram_func at %p, flash_leaf at %p\n", (void *)ram_func,
           (void *)flash_leaf);
}

/* Flash -> RAM -> flash, n times; the results checked. */
KEEP void run_calls(int n)
{
    uint32_t acc = 0, want = 0;
    for (int i = 0; i < n; i++) {
        uint32_t x = (uint32_t)i * 2654435761u;
        uint32_t r = flash_caller(x);
        if (r != expected(x))
            firmware_failed("flash_caller -> ram_func: wrong result");
        acc += r;
        want += expected(x);
    }
    ram_result = acc;
    if (acc != want)
        firmware_failed("ram_func results");
}

int main(void)
{
    check_layout();

    int rc = profile_on(_stext, _etext, 16, 100);
    if (rc != 0)
        firmware_failed("profile_on");
    printf("ramfunc: profiling %p..%p\n", (void *)_stext, (void *)_etext);

    run_calls(N_RAM_CALLS);
    for (int i = 0; i < N_RAM_WORK; i++) {
        ram_work();
        flash_work();
    }
    printf("ramfunc: calls done, result 0x%08x\n", (unsigned)ram_result);

    phase_done(1);
    printf("ramfunc: done\n");
    return 0;
}
