/*
 * The call graph's arc table, as an mcount stub that finds existing arcs itself sees it
 * (C and assembly). A stub may do the common case of every call -- the arc is already in
 * the table, at its home slot or the one after it -- in a few instructions of its own, and
 * call __profile_mcount for everything else (see <cyg/profile/hal.h>):
 *
 *   with every interrupt that may run -pg code masked (hal_profile_irq_save),
 *     arcs  = the pointer at profile_state + PROFILE_STATE_ARCS
 *     homes = the u32 at profile_state + PROFILE_STATE_HOMES
 *     mul   = the u32 at profile_state + PROFILE_STATE_HASH_MUL (PROFILE_ARC_HASH_MUL)
 *     a     = arcs + PROFILE_ARC_BYTES * ((((from * mul) mod 2^32) * homes) >> 32)
 *     if the u32 at a + PROFILE_ARC_FROM equals from (mod 2^32) and the u32 at
 *        a + PROFILE_ARC_SELF equals self (mod 2^32), or else the same holds for the
 *        record after it (a + PROFILE_ARC_BYTES, always there: the table has homes + 1):
 *          that record's u32 at PROFILE_ARC_COUNT goes up by one unless it is 0xFFFFFFFF
 *   else (interrupts restored first): __profile_mcount(from, self)
 *
 * from and self are the return addresses as the hook gets them (the Thumb bit may be
 * set). While the gate is closed (profiling off, or a reset gdb asked for is pending) arcs
 * points to two free records and homes is 0, so the lookup finds nothing and every call
 * goes to __profile_mcount. A stub that does not look arcs up itself just calls
 * __profile_mcount; the result is the same.
 *
 * The package checks these offsets against struct profile_state and struct profile_arc
 * at compile time (target/src/profile_priv.h).
 */
#ifndef CYGONCE_PROFILE_ARC_TABLE_H
#define CYGONCE_PROFILE_ARC_TABLE_H

/* One arc record: three u32 (12 bytes on every target). */
#define PROFILE_ARC_FROM      0     /* the call site's return address; 0: an empty slot */
#define PROFILE_ARC_SELF      4     /* the return address into the callee */
#define PROFILE_ARC_COUNT     8     /* traversals, sticking at 0xFFFFFFFF */
#define PROFILE_ARC_BYTES     12

/* The first fields of profile_state (its first fields, in this order, for one load). */
#define PROFILE_STATE_ARCS     0                           /* struct profile_arc * */
#define PROFILE_STATE_HOMES    __SIZEOF_POINTER__          /* u32 */
#define PROFILE_STATE_HASH_MUL (__SIZEOF_POINTER__ + 4)    /* u32: PROFILE_ARC_HASH_MUL */

/* Fibonacci hashing: 2^32 divided by the golden ratio, odd. */
#define PROFILE_ARC_HASH_MUL  0x9E3779B1

#endif
