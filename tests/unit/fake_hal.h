#ifndef FAKE_HAL_H
#define FAKE_HAL_H
struct fake_hal {
    int enable_calls, disable_calls, requested_us;
    int timer_result;  /* 0: grant the request; else what hal_enable_profile_timer returns */
    int fail_malloc;
};
extern struct fake_hal fake_hal;
extern int hal_host_irq_depth;
extern void (*fake_memset_hook)(void);
#endif
