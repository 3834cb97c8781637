/* Built with -O2: GCC makes .constprop/.isra/.part clones and inlines; gprof's rules
 * for local names with dots decide which of them count as functions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int g;
static __attribute__((noinline)) int scale(int x, int k) { for (int i = 0; i < 200; i++) g += x * k; return g; }
static __attribute__((noinline)) void fill(char *buf, size_t n, int c)
{
	if (!buf) return;
	for (size_t i = 0; i < n; i++) buf[i] = (char)(c + i);
	if (n > 1000) { fprintf(stderr, "big\n"); abort(); }
}
__attribute__((noinline)) int checksum(const char *p, size_t n) { int s = 0; for (size_t i = 0; i < n; i++) s += p[i]; return s; }
int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 400000, s = 0;
	char buf[256];
	for (int r = 0; r < rounds; r++) {
		s += scale(r, 3);
		fill(buf, sizeof buf, r);
		s += checksum(buf, sizeof buf);
	}
	printf("%d\n", s);
	return 0;
}
