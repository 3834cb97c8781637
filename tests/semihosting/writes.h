/* The known work of the profile_write firmware (tests/semihosting/writes.c); the test
 * (test_semihosting.py) asserts these numbers. */
#ifndef TESTS_SEMIHOSTING_WRITES_H
#define TESTS_SEMIHOSTING_WRITES_H
#include <stdint.h>

#define N_A       1000   /* leaf_a() from work_a() before the first write */
#define N_B       2000   /* leaf_b() from work_b() between the first and the second */
#define N_C        300   /* leaf_a() from work_a() before the failing writes */
#define SAMPLE_US    50  /* the profile timer: samples land inside the writes too */
#define FAST_US      23  /* the fast timer: its -pg handler's calls land inside them too */

/* Not compiled with -pg (writes_support.c). */
extern volatile uint32_t samples_taken;   /* every profile timer sample (wraps __profile_hit) */
void firmware_failed(const char *what);
void check_files(void);    /* stdio and fds on host files, or firmware_failed() */
#endif
