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
#include <errno.h>
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

/* A console line being put together (without printf's weight: the application may not
 * link it otherwise). Longer text is cut. */
struct line {
    char text[320];
    size_t n;
};

static void put(struct line *l, const char *s)
{
    while (*s && l->n < sizeof l->text - 2)
        l->text[l->n++] = *s++;
}

/* (unsigned: a size may be SIZE_MAX, a profile too large for the address space) */
static void put_num(struct line *l, unsigned long long u)
{
    char digits[24];
    size_t d = 0;
    do
        digits[d++] = (char)('0' + u % 10);
    while ((u /= 10) && d < sizeof digits);
    while (d) {
        char c[2] = { digits[--d], 0 };
        put(l, c);
    }
}

/* The line on stderr, the console (through stdio: a file descriptor 2 is the console in
 * newlib's glue, not in every C library's). */
static void say_line(struct line *l)
{
    l->text[l->n++] = '\n';
    l->text[l->n] = '\0';
    (void)fputs(l->text, stderr);
}

/* "profile: <what> (<rc>)" */
static void say(const char *what, int rc)
{
    struct line l = { .n = 0 };
    put(&l, "profile: ");
    put(&l, what);
    if (rc) {
        put(&l, rc < 0 ? " (-" : " (");
        put_num(&l, rc < 0 ? 0u - (unsigned)rc : (unsigned)rc);
        put(&l, ")");
    }
    say_line(&l);
}

/* The largest block malloc gives now, below limit (which it did not give): a search that
 * runs only on the way to a -ENOMEM message, so that the message can say how far the
 * heap is from the need (the C libraries have no cheap portable "free bytes"). */
static size_t heap_largest_block(size_t limit)
{
    size_t lo = 0, hi = limit;      /* lo was given (0: trivially), hi was not */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        void *p = malloc(mid);
        if (p)
            lo = mid;
        else
            hi = mid;
        free(p);
    }
    return lo;
}

/*
 * After a -ENOMEM: the figures (what the package asked the heap for and did not get, the
 * largest block the heap has), then what to change, on a line of its own:
 * "profile: <what> (-12): <why>: it needs N bytes, the largest free block is M bytes"
 * "profile: <hint>"
 */
static void say_no_room(const char *what, const char *why, const char *hint)
{
    size_t needed = profile_enomem_bytes;
    struct line l = { .n = 0 };
    put(&l, "profile: ");
    put(&l, what);
    put(&l, " (-");
    put_num(&l, ENOMEM);
    put(&l, "): ");
    put(&l, why);
    if (needed) {
        put(&l, ": it needs ");
        put_num(&l, needed);
        put(&l, " bytes, the largest free block is ");
        put_num(&l, heap_largest_block(needed));
        put(&l, " bytes");
    }
    say_line(&l);
    l.n = 0;
    put(&l, "profile: ");
    put(&l, hint);
    say_line(&l);
}

/* What to change when the profile does not fit: the bucket (the histogram is most of it),
 * or a profile of less code. */
#define BUCKET_HINT(to_fit)                                                               \
    to_fit ": set CYGNUM_PROFILE_AUTOSTART_BUCKET above " STR(CYGNUM_PROFILE_AUTOSTART_BUCKET) \
    " (each doubling halves the histogram), or give the heap more RAM, or call profile_on() " \
    "on a smaller range instead of linking PROFILE_AUTOSTART"
#define STR(x) STR_(x)
#define STR_(x) #x

static void profile_autostart_write(void)
{
    int rc = profile_write(CYGDAT_PROFILE_AUTOSTART_FILE);
    if (rc == -ENOMEM)
        say_no_room("could not write " CYGDAT_PROFILE_AUTOSTART_FILE,
                    "no room on the heap for the write's copy of the profile",
                    BUCKET_HINT("to make room, allocate long-lived buffers before profiling "
                                "starts, or shrink the profile"));
    else
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
    if (rc == -ENOMEM) {
        say_no_room("autostart: profile_on failed", "no room on the heap for the profile of "
                    "all code (_stext.._etext)", BUCKET_HINT("to fit"));
        return;
    }
    if (rc) {
        say("autostart: profile_on failed", rc);
        return;
    }
    if (atexit(profile_autostart_write) != 0)
        say("autostart: atexit failed: gmon.out will not be written at exit", 0);
}
