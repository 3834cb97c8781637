GDB_SCRIPT := gdb/gprof.gdb
