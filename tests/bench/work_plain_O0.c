/* The bench workload compiled without -pg, at -O0 (tests/bench/work.h): the reference. */
#pragma GCC optimize("O0")
#define WORK(name) work_plain_O0_##name
#include "work.h"
