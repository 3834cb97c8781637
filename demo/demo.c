/*
 * The demo firmware: a small "sensor gateway" with a known call structure, compiled with
 * -pg. Per frame it decodes a packet, checks its CRC (crc8 per byte), filters the samples
 * and, every 8th frame, sorts a window for a median. gprof should show crc8 as the hot spot
 * (called FRAMES * PACKET_BYTES times from crc_packet) and median's sort as the next one.
 */
#include <pkgconf/system.h>
#ifdef CYGPKG_PROFILE_GPROF
# include <cyg/profile/profile.h>
#endif
#include <stdint.h>
#include <stdio.h>

#define FRAMES      2000
#define PACKET_BYTES  64
#define WINDOW        32

/* Written by the work below so the compiler keeps it; read by nobody. */
volatile uint32_t demo_sink;

__attribute__((noinline)) uint8_t crc8(uint8_t crc, uint8_t byte)
{
    crc ^= byte;
    for (int i = 0; i < 8; i++)
        crc = (uint8_t)(crc & 0x80 ? (crc << 1) ^ 0x07 : crc << 1);
    return crc;
}

__attribute__((noinline)) uint8_t crc_packet(const uint8_t *p, int n)
{
    uint8_t crc = 0;
    for (int i = 0; i < n; i++)
        crc = crc8(crc, p[i]);
    return crc;
}

__attribute__((noinline)) void make_packet(uint8_t *p, int n, uint32_t seed)
{
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (uint8_t)(seed >> 16);
    }
}

__attribute__((noinline)) int32_t filter(int32_t prev, int32_t x)
{
    return prev + ((x - prev) >> 3);
}

__attribute__((noinline)) void insertion_sort(int32_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        int32_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

__attribute__((noinline)) int32_t median(const int32_t *window, int n)
{
    int32_t tmp[WINDOW];
    for (int i = 0; i < n; i++)
        tmp[i] = window[i];
    insertion_sort(tmp, n);
    return tmp[n / 2];
}

__attribute__((noinline)) void demo_done(void)
{
    __asm__ volatile("" ::: "memory");  /* the demo's debugger stops here */
}

int main(void)
{
#ifdef CYGPKG_PROFILE_GPROF
    {
        extern char _stext[], _etext[];
        int rc = profile_on(_stext, _etext, 16, 499);
        printf("demo: profile_on(%p, %p, 16, 499) = %d\n", (void *)_stext, (void *)_etext, rc);
    }
#endif
    static uint8_t packet[PACKET_BYTES];
    static int32_t window[WINDOW];
    int32_t level = 0, med = 0;
    uint32_t bad = 0;
    for (int f = 0; f < FRAMES; f++) {
        make_packet(packet, PACKET_BYTES, (uint32_t)f);
        if (crc_packet(packet, PACKET_BYTES) == 0)
            bad++;
        level = filter(level, packet[0] - 128);
        window[f % WINDOW] = level;
        if (f % 8 == 7)
            med = median(window, WINDOW);
    }
    demo_sink = (uint32_t)med + bad;
    printf("demo: %d frames processed, median level %ld\n", FRAMES, (long)med);
    demo_done();
    return 0;
}
