/* The stack-profiling firmware's numbers (tests/qemu/stacks.c), read by test_stacks.py. */
#define N_WORK       400   /* work() calls from light() and from heavy() each */
#define HEAVY_N      100   /* heavy()'s work(n): light's is work(1) */
#define REC_DEPTH      4   /* rec(4) .. rec(0): five nested frames */
#define REC_REPS      30
#define JMP_DEPTH      3   /* deep_jump(3) .. deep_jump(0): four frames left by each longjmp */
#define JMP_REPS      10
#define TAIL_REPS     50
#define ISR_US       500   /* the fast timer: a -pg handler, the root of a tree of its own */
