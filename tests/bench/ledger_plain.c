/* The Dhrystone-like workload compiled without -pg (tests/bench/ledger.h): the reference. */
#define LEDGER(name) ledger_plain_##name
#include "ledger.h"
