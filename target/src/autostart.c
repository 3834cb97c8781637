/*
 * PROFILE_AUTOSTART (the install tree's lib/profile.mk: -Wl,-u,profile_autostart): profiling
 * without a change to the application's source and without a debugger, as gprof does on a
 * host. A constructor starts profiling over all code (_stext.._etext, and the code the
 * startup copies to RAM, _sramfunc.._eramfunc, if there is any) before main -- so
 * that mcount counts main's own call, from the startup code -- and an atexit handler
 * writes gmon.out through semihosting when the program exits (exit() or a return from
 * main). Bucket, interval and file name: CYGNUM_PROFILE_AUTOSTART_BUCKET,
 * CYGNUM_PROFILE_AUTOSTART_INTERVAL_US, CYGDAT_PROFILE_AUTOSTART_FILE.
 *
 * Linked only when that symbol is asked for: libprofile.a holds it, but no firmware gets it
 * otherwise. It needs the linker script's _stext/_etext and a startup that runs
 * constructors (every board's does).
 */
#include <stdio.h>
#include <stdlib.h>
#include "profile_priv.h"

_Static_assert(CYGNUM_PROFILE_AUTOSTART_BUCKET >= 1 && CYGNUM_PROFILE_AUTOSTART_BUCKET <= 65536,
               "CYGNUM_PROFILE_AUTOSTART_BUCKET must be 1..65536");
_Static_assert(CYGNUM_PROFILE_AUTOSTART_INTERVAL_US >= 1 && CYGNUM_PROFILE_AUTOSTART_INTERVAL_US <= 1000000,
               "CYGNUM_PROFILE_AUTOSTART_INTERVAL_US must be 1..1000000");
/* (A compile error here: the file name must be a C string, e.g. "gmon.out".) */
_Static_assert(sizeof("" CYGDAT_PROFILE_AUTOSTART_FILE) > 1,
               "CYGDAT_PROFILE_AUTOSTART_FILE must be a C string, e.g. \"gmon.out\"");

/* Linker script symbols: all code. The code in RAM (.ramfunc) is weak: a linker script of
 * one's own may have none (0: no such range). */
extern char _stext[], _etext[];
extern char _sramfunc[] __attribute__((weak));
extern char _eramfunc[] __attribute__((weak));

/* "profile: <what> (-<errno>)" on stderr, the console (through stdio: a file descriptor 2
 * is the console in newlib's glue, not in every C library's), without printf's weight. */
static void say(const char *what, int rc)
{
    char line[80];
    size_t n = 0;
    for (const char *p = "profile: "; *p; p++)
        line[n++] = *p;
    for (const char *p = what; *p && n < sizeof line - 17; p++)
        line[n++] = *p;
    if (rc) {
        char digits[10];
        size_t d = 0;
        unsigned v = rc < 0 ? (unsigned)-rc : (unsigned)rc;
        do
            digits[d++] = (char)('0' + v % 10);
        while ((v /= 10) && d < sizeof digits);
        line[n++] = ' ';
        line[n++] = '(';
        if (rc < 0)
            line[n++] = '-';
        while (d)
            line[n++] = digits[--d];
        line[n++] = ')';
    }
    line[n++] = '\n';
    line[n] = '\0';
    (void)fputs(line, stderr);
}

static void profile_autostart_write(void)
{
    int rc = profile_write(CYGDAT_PROFILE_AUTOSTART_FILE);
    say(rc == 0 ? "wrote " CYGDAT_PROFILE_AUTOSTART_FILE
                : "could not write " CYGDAT_PROFILE_AUTOSTART_FILE, rc);
}

/*
 * The first constructor of the application's (priority 101, the first an application may
 * use): its other constructors are profiled too. The atexit handler, registered before
 * any of the application's, runs after them: they are in the file. (newlib registered its
 * destructor runner earlier still, so destructors run after the file is written.)
 */
__attribute__((constructor(101))) void profile_autostart(void)
{
    struct profile_range code[2] = { { _stext, _etext }, { _sramfunc, _eramfunc } };
    int n = 1;
#if CYGNUM_PROFILE_MAX_RANGES >= 2
    if ((uintptr_t)_eramfunc > (uintptr_t)_sramfunc)
        n = 2;                  /* code that runs from RAM: its own range */
#endif
    int rc = profile_on_ranges(code, n, CYGNUM_PROFILE_AUTOSTART_BUCKET,
                               CYGNUM_PROFILE_AUTOSTART_INTERVAL_US);
    if (rc) {
        say("autostart: profile_on failed", rc);
        return;
    }
    if (atexit(profile_autostart_write) != 0)
        say("autostart: atexit failed: gmon.out will not be written at exit", 0);
}
