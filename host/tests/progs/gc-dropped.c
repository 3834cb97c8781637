/* Linked with gc-kept.c and --gc-sections: the linker drops both functions (their line
 * rows stay in the line table, at the address 0 their relocations resolve to), and keeps
 * the counter, so that the unit's DWARF stays too. */
int dropped_calls;
int dropped_twice(int x) { dropped_calls++; return 2 * x + 1; }
int dropped_square(int x) { dropped_calls++; return x * x - 3; }
