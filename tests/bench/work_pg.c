/* The bench workload compiled with -pg (tests/bench/work.h). */
#define WORK(name) work_pg_##name
#include "work.h"
