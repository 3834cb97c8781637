/* The HAL as the unit tests see it: a timer that records what it was asked, and a malloc
 * that fails on demand. */
#include <stddef.h>
#include <stdlib.h>
#include <cyg/profile/hal.h>
#include "fake_hal.h"

/* Owned by the tests: set before profile_on, read after. */
struct fake_hal fake_hal;
/* Owned by <cyg/hal/profile_arch.h> for the host: interrupt-mask nesting depth. */
int hal_host_irq_depth;
/* Owned by the tests (declared in <cyg/hal/profile_arch.h> for the host): set while a test
 * calls the API as an interrupt handler would. */
int hal_host_in_interrupt;
/* Owned by the tests (declared in <cyg/hal/profile_arch.h> for the host): set around the
 * code under test, reset by the tests' setup. */
void (*hal_host_irq_enabled_hook)(void);

int hal_enable_profile_timer(int interval_us)
{
    fake_hal.enable_calls++;
    fake_hal.requested_us = interval_us;
    if (fake_hal.timer_result)
        return fake_hal.timer_result;
    return interval_us;
}

void hal_disable_profile_timer(void)
{
    fake_hal.disable_calls++;
}

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size)
{
    fake_hal.last_malloc_size = size;
    if (fake_hal.fail_malloc || (fake_hal.malloc_limit && size > fake_hal.malloc_limit))
        return NULL;
    return __real_malloc(size);
}

/* Owned by the tests: called once by the next memset of the package (then cleared), to act
 * as a debugger that halts the target in the middle of a reset. */
void (*fake_memset_hook)(void);
void *__real_memset(void *p, int c, size_t n);
void *__wrap_memset(void *p, int c, size_t n)
{
    void (*hook)(void) = fake_memset_hook;
    fake_memset_hook = NULL;
    void *r = __real_memset(p, c, n);
    if (hook)
        hook();
    return r;
}
