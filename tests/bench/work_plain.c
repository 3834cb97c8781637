/* The bench workload compiled without -pg (tests/bench/work.h): the reference. */
#define WORK(name) work_plain_##name
#include "work.h"
