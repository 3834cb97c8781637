/* Compiled without -pg: where the truth oracle's gdb stops the workload (tests/qemu/truth.c). */
__attribute__((noinline)) void truth_mark(void)
{
    __asm__ volatile("" : : : "memory");
}

__attribute__((noinline)) void truth_done(int phase)
{
    __asm__ volatile("" : : "r"(phase) : "memory");
}

__attribute__((noinline)) void truth_trace(void)
{
    __asm__ volatile("" : : : "memory");
}
