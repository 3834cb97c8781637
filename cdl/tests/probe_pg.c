/* The probe's call-graph workload, compiled with -pg: known arcs main -> probe_work ->
 * probe_mid -> probe_leaf. */
extern volatile unsigned probe_sink;

__attribute__((noinline)) void probe_leaf(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        probe_sink += i;
}

__attribute__((noinline)) void probe_mid(void)
{
    probe_leaf(1000);
    probe_leaf(3000);
}

void probe_work(void)
{
    for (int i = 0; i < 100; i++)
        probe_mid();
}
