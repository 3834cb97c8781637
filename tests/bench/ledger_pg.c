/* The Dhrystone-like workload compiled with -pg (tests/bench/ledger.h); in the stack mode's
 * configuration with -finstrument-functions too. */
#define LEDGER(name) ledger_pg_##name
#include "ledger.h"
