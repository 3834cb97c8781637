/* The known call structure of the end-to-end firmware; the tests assert these numbers. */
#ifndef TESTS_QEMU_CALLS_H
#define TESTS_QEMU_CALLS_H

#define N_SITE_A   300   /* leaf() from site_a() */
#define N_SITE_B   200   /* leaf() from site_b() */
#define N_RECURSE   10   /* recurse(DEPTH) from main */
#define DEPTH        8   /* so recurse() calls itself N_RECURSE * (DEPTH - 1) times */
#define N_SOFT_IRQ  50   /* software-pended interrupts; each handler calls isr_work() */
#define N_WORK      40   /* work1() and work3() from main, each */
#define WORK_UNIT 20000  /* loop iterations in work1(); work3() does 3x */
#define N_HAMMER  20000  /* hammer() and shared() calls from main while a fast timer
                            interrupt calls tick_work() and shared() at a higher priority
                            than everything else; shared() calls shared_leaf() */
#define FAST_TIMER_US 10 /* the fast timer's interval */
#define N_FP_ARGS  2000  /* fp_args() calls from main while the fast timer's handler, every
                            FP_TIMER_US, calls fp_args() too: FP argument registers live
                            across mcount, and a handler that uses them preempting it */
#define FP_TIMER_US   20 /* the fast timer's interval in that phase (the handler does more) */

/* Not compiled with -pg (support.c): breakpoint targets for the tests. */
void phase_done(int phase);
void firmware_failed(const char *what);
/* time(), clock() and gettimeofday() follow the board clock, or firmware_failed(). */
void check_libc_time(void);

#endif
