/* The known call structure of the RAM-code firmware (tests/qemu/ramfunc.c); the test
 * (tests/qemu/test_ramfunc.py) reads these numbers. */
#ifndef TESTS_QEMU_RAMFUNC_H
#define TESTS_QEMU_RAMFUNC_H

#define N_RAM_CALLS 500   /* run_calls -> flash_caller -> ram_func -> {flash_leaf, ram_leaf} */
#define N_RAM_WORK   20   /* ram_work() and flash_work() from main, each */
#define RAM_WORK_UNIT 10000 /* loop iterations in each: the same code, one copy in RAM */

#endif
