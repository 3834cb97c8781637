#ifndef FAKE_HAL_H
#define FAKE_HAL_H
#include <stddef.h>
struct fake_hal {
    int enable_calls, disable_calls, requested_us;
    int timer_result;  /* 0: grant the request; else what hal_enable_profile_timer returns */
    int fail_malloc;
    size_t malloc_limit;       /* nonzero: larger requests fail, as on a small target */
    size_t last_malloc_size;   /* the size of the last request */
};
extern struct fake_hal fake_hal;
extern int hal_host_irq_depth;
extern void (*fake_memset_hook)(void);
#endif
