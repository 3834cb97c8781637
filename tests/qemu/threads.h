/* The two-thread firmware's numbers (tests/qemu/threads.c), read by test_stacks_threads.py. */
#define OUTER_REPS   40    /* a_outer() and b_outer() calls, each thread */
#define INNER_REPS   10    /* a_inner() per a_outer(), b_inner() per b_outer() */
#define SWITCH_US    37    /* the fast timer: a PendSV (a thread switch) every tick */
#define THREAD_A     0xA1
#define THREAD_B     0xB2
