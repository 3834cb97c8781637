/*
 * Every option of the package with its default. The configuration (pkgconf/profile_gprof.h,
 * written by the CDL configurator) overrides; code tests the PROFILE_* values with #if.
 */
#ifndef CYGONCE_PROFILE_OPTS_H
#define CYGONCE_PROFILE_OPTS_H

#include <pkgconf/profile_gprof.h>

/* Call-graph (mcount) support. */
#ifdef CYGPKG_PROFILE_CALLGRAPH
#define PROFILE_CALLGRAPH 1
#else
#define PROFILE_CALLGRAPH 0
#endif

/* Arc record space as a percentage of the profiled code size. */
#ifndef CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE
#define CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE 5
#endif

/* Bytes of a histogram bucket's counter (its bin): 1, or 2 for long runs whose samples
 * spread over many buckets (a bucket needs an overflow entry past 65534 samples only, at
 * twice the bins' memory). */
#ifndef CYGNUM_PROFILE_HIST_BIN_BYTES
#define CYGNUM_PROFILE_HIST_BIN_BYTES 1
#endif
#if CYGNUM_PROFILE_HIST_BIN_BYTES != 1 && CYGNUM_PROFILE_HIST_BIN_BYTES != 2
#error "CYGNUM_PROFILE_HIST_BIN_BYTES must be 1 or 2: a bin is an 8-bit or a 16-bit counter"
#endif

/* Histogram buckets that may count past what their bin holds (254, or 65534 with 2-byte
 * bins; up to 2^32-1), per set: an overflow entry of 8 bytes each (target/src/hist.c).
 * 0: bins stick at their maximum. */
#ifndef CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS
#define CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS 32
#endif

/* The most address ranges profile_on_ranges() takes (profile_state keeps each range's
 * start, span, first bin and bins). */
#ifndef CYGNUM_PROFILE_MAX_RANGES
#define CYGNUM_PROFILE_MAX_RANGES 4
#endif

/* Slots of the task table (target/src/tasks.c), "main" included: each timer sample is
 * counted for the running task (profile_task_switch). */
#ifndef CYGNUM_PROFILE_TASKS
#define CYGNUM_PROFILE_TASKS 16
#endif

/* Bytes of an ended task's name the task table keeps (profile_task_end: the RTOS frees the
 * string with the task), terminator included; 0: none kept. */
#ifndef CYGNUM_PROFILE_TASK_NAME_BYTES
#define CYGNUM_PROFILE_TASK_NAME_BYTES 16
#endif

/* The profile timer's period dithered (<cyg/profile/dither.h>). */
#ifdef CYGSEM_PROFILE_TIMER_DITHER
#define PROFILE_DITHER 1
#else
#define PROFILE_DITHER 0
#endif

/* Stack-profiling mode (target/src/stacks.c): -pg code is also built with
 * -finstrument-functions, whose hooks keep shadow call stacks and a calling-context tree
 * (gmon.stacks). */
#ifdef CYGPKG_PROFILE_STACKS
#define PROFILE_STACKS 1
#else
#define PROFILE_STACKS 0
#endif
/* Tree nodes: one per distinct call path. */
#ifndef CYGNUM_PROFILE_STACKS_NODES
#define CYGNUM_PROFILE_STACKS_NODES 256
#endif
/* Frames a shadow stack keeps. */
#ifndef CYGNUM_PROFILE_STACKS_DEPTH
#define CYGNUM_PROFILE_STACKS_DEPTH 48
#endif
/* Threads with a shadow stack of their own (profile_stack_switch). */
#ifndef CYGNUM_PROFILE_STACKS_THREADS
#define CYGNUM_PROFILE_STACKS_THREADS 1
#endif

/* TFTP daemon serving gmon.out. */
#ifdef CYGPKG_PROFILE_TFTP
#define PROFILE_TFTP 1
#else
#define PROFILE_TFTP 0
#endif

#ifndef CYGNUM_PROFILE_TFTP_PORT
#define CYGNUM_PROFILE_TFTP_PORT 69
#endif

/* How long (ms) a transfer whose client sent no valid ACK holds the daemon against
 * another client's read request. */
#ifndef CYGNUM_PROFILE_TFTP_HOLD_MS
#define CYGNUM_PROFILE_TFTP_HOLD_MS 1000
#endif

/* The hosts the daemon serves: address (a C string) and prefix length; 0.0.0.0/0 is
 * everyone. (The CDL's prefix default is 32 once an address is set.) */
#ifndef CYGDAT_PROFILE_TFTP_ALLOW
#define CYGDAT_PROFILE_TFTP_ALLOW "0.0.0.0"
#endif
#ifndef CYGNUM_PROFILE_TFTP_ALLOW_PREFIX
#define CYGNUM_PROFILE_TFTP_ALLOW_PREFIX 0
#endif

/* The daemon's retransmission (not CDL options: the protocol's constants). A block the
 * client has not acknowledged after PROFILE_TFTP_TIMEOUT_MS is sent again, then every
 * PROFILE_TFTP_TICK_MS, PROFILE_TFTP_RETRIES times; then the transfer is given up (about
 * 16 s: a client that vanished holds the single transfer slot that long, against another
 * client's request only CYGNUM_PROFILE_TFTP_HOLD_MS). Under QEMU -icount with sleep=off the
 * guest's clock runs about 15x the host's: shorter values would fire on a busy host. */
#ifndef PROFILE_TFTP_TIMEOUT_MS
#define PROFILE_TFTP_TIMEOUT_MS 10000
#endif
#ifndef PROFILE_TFTP_TICK_MS
#define PROFILE_TFTP_TICK_MS 1000
#endif
#ifndef PROFILE_TFTP_RETRIES
#define PROFILE_TFTP_RETRIES 5
#endif

/* A spare set of arrays for snapshots (double buffering), which an extraction path that
 * takes a while needs so that profiling goes on during the transfer. */
#ifndef PROFILE_SNAPSHOT
#define PROFILE_SNAPSHOT PROFILE_TFTP
#endif

_Static_assert(CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE >= 1 && CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE <= 100,
               "CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE must be 1..100");
_Static_assert(CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS >= 0 && CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS <= 256,
               "CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS must be 0..256");
_Static_assert(CYGNUM_PROFILE_MAX_RANGES >= 1 && CYGNUM_PROFILE_MAX_RANGES <= 16,
               "CYGNUM_PROFILE_MAX_RANGES must be 1..16");
_Static_assert(CYGNUM_PROFILE_TASKS >= 1 && CYGNUM_PROFILE_TASKS <= 1024,
               "CYGNUM_PROFILE_TASKS must be 1..1024 (the tasks timed apart, \"main\" included)");
_Static_assert(CYGNUM_PROFILE_TASK_NAME_BYTES >= 0 && CYGNUM_PROFILE_TASK_NAME_BYTES <= 256,
               "CYGNUM_PROFILE_TASK_NAME_BYTES must be 0..256");
_Static_assert(CYGNUM_PROFILE_STACKS_NODES >= 2 && CYGNUM_PROFILE_STACKS_NODES <= 65536,
               "CYGNUM_PROFILE_STACKS_NODES must be 2..65536");
_Static_assert(CYGNUM_PROFILE_STACKS_DEPTH >= 4 && CYGNUM_PROFILE_STACKS_DEPTH <= 4096,
               "CYGNUM_PROFILE_STACKS_DEPTH must be 4..4096");
_Static_assert(CYGNUM_PROFILE_STACKS_THREADS >= 1 && CYGNUM_PROFILE_STACKS_THREADS <= 256,
               "CYGNUM_PROFILE_STACKS_THREADS must be 1..256");
_Static_assert(CYGNUM_PROFILE_TFTP_PORT >= 1 && CYGNUM_PROFILE_TFTP_PORT <= 65535,
               "CYGNUM_PROFILE_TFTP_PORT must be 1..65535");
_Static_assert(CYGNUM_PROFILE_TFTP_HOLD_MS >= 1 && CYGNUM_PROFILE_TFTP_HOLD_MS <= 60000,
               "CYGNUM_PROFILE_TFTP_HOLD_MS must be 1..60000");
_Static_assert(PROFILE_TFTP_TICK_MS >= 1 && PROFILE_TFTP_TIMEOUT_MS >= PROFILE_TFTP_TICK_MS &&
               PROFILE_TFTP_RETRIES >= 0 && PROFILE_TFTP_RETRIES <= 255,
               "PROFILE_TFTP_TICK_MS must be at least 1 and at most PROFILE_TFTP_TIMEOUT_MS; PROFILE_TFTP_RETRIES 0..255");
_Static_assert(CYGNUM_PROFILE_TFTP_ALLOW_PREFIX >= 0 && CYGNUM_PROFILE_TFTP_ALLOW_PREFIX <= 32,
               "CYGNUM_PROFILE_TFTP_ALLOW_PREFIX must be 0..32");
/* (A compile error here: the address must be a C string, 'CYGDAT_PROFILE_TFTP_ALLOW="10.0.2.2"'.
 * Its digits are checked when the daemon starts, which refuses to serve if they are wrong.) */
_Static_assert(sizeof("" CYGDAT_PROFILE_TFTP_ALLOW) >= sizeof "0.0.0.0" &&
               sizeof("" CYGDAT_PROFILE_TFTP_ALLOW) <= sizeof "255.255.255.255",
               "CYGDAT_PROFILE_TFTP_ALLOW must be a C string holding an IPv4 address, e.g. \"10.0.2.2\"");

#endif
