/*
 * lwIP port, compiler and C library part: GCC with newlib, any 32-bit target, bare metal
 * or RTOS. Nothing here is board or architecture specific.
 */
#ifndef CYGONCE_LWIP_ARCH_CC_H
#define CYGONCE_LWIP_ARCH_CC_H

#include <stdio.h>
#include <stdlib.h>

/* newlib's <sys/types.h> (through stdio.h) defines BYTE_ORDER, LITTLE_ENDIAN and BIG_ENDIAN
 * with the values lwIP uses; other C libraries may not. */
#ifndef BYTE_ORDER
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BYTE_ORDER BIG_ENDIAN
#else
#define BYTE_ORDER LITTLE_ENDIAN
#endif
#endif

/* Diagnostics (LWIP_DEBUGF) go to the console. */
#define LWIP_PLATFORM_DIAG(x) do { printf x; } while (0)

/*
 * An lwIP assertion is reported on the console and execution goes on: the firmware being
 * profiled must not die because a pool ran dry (for instance MEMP_SYS_TIMEOUT under a
 * flood of requests, where lwIP asserts and then carries on correctly without the timer).
 */
#define LWIP_PLATFORM_ASSERT(x) \
    do { printf("lwip: assertion \"%s\" failed at %s:%d\n", x, __FILE__, __LINE__); } while (0)

/* IP identification, DHCP transaction ids, ephemeral ports: newlib's rand(). */
#define LWIP_RAND() ((u32_t)rand())

#endif
