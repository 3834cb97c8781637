/* The bench workload compiled with -pg, at -O0 (tests/bench/work.h): the optimisation level
 * of the measurements the issue quotes for Dhrystone-style code. */
#pragma GCC optimize("O0")
#define WORK(name) work_pg_O0_##name
#include "work.h"
