/* An application outside the project, built only from the install tree. The eCos manual's
 * snippet, unchanged. */
#include <pkgconf/system.h>
#ifdef CYGPKG_PROFILE_GPROF
# include <cyg/profile/profile.h>
#endif
#include <stdio.h>

volatile unsigned sink;

__attribute__((noinline)) void busy(int n)
{
    for (int i = 0; i < n; i++)
        sink += (unsigned)i;
}

__attribute__((noinline)) void app_done(void) { __asm__ volatile("" ::: "memory"); }

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
#ifdef CYGPKG_PROFILE_GPROF
    {
        extern char _stext[], _etext[];
        profile_on(_stext, _etext, 16, 3500);
    }
#endif
    for (int i = 0; i < 25; i++)
        busy(20000);
    printf("app: done\n");
    app_done();
    return 0;
}
