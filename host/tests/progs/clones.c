/* GCC's clones, as gcc -O2 -pg makes them: a function whose cheap test is inlined into
 * its callers and whose rest becomes spin.part.0, a pointer argument passed as the one
 * value read through it (sum_a.isra.0), a constant argument propagated
 * (scaled.constprop.0) and an error path moved out of a loop (checked.cold).  The clones
 * of .part and .isra have mcount calls of their own; GNU gprof charges their time and
 * calls to the symbol before them, as it does .cold's; .constprop.N it keeps.
 * Run with N (a multiple of 8, default 400): spin.part.0 is called 5N/8 times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile unsigned sink;
static unsigned table[256];

/* a cheap test, then a long body: the test is inlined, the rest is spin.part.0 */
unsigned spin(unsigned n)
{
	if (n < 4)
		return n;
	unsigned s = 0;
	for (unsigned i = 0; i < n * 20000; i++)
		s += table[i & 255] ^ i;
	for (unsigned i = 0; i < n; i++)
		sink += s >> i;
	for (unsigned i = 0; i < n; i++)
		sink += s << (i & 7);
	for (unsigned i = 0; i < n; i++)
		sink ^= table[(s + i) & 255];
	return s;
}

struct pair { unsigned a, b, pad[30]; };

/* only p->a is read, at once: IPA-SRA passes it by value (sum_a.isra.0) */
static unsigned sum_a(const struct pair *p, unsigned n)
{
	unsigned a = p->a, s = 0;
	for (unsigned i = 0; i < n * 10000; i++)
		s += a * i + (s >> 3);
	for (unsigned i = 0; i < n * 10; i++)
		s += a * i + (s >> 5) + sink;
	for (unsigned i = 0; i < n * 10; i++)
		s += a * i + (s >> 5) + sink * 3;
	return s;
}
unsigned __attribute__((noinline)) sum_once(struct pair *p, unsigned n) { return sum_a(p, n) + 1; }
unsigned __attribute__((noinline)) sum_twice(struct pair *p, unsigned n) { return sum_a(p, n + 1) + 2; }

/* always called with k = 7: scaled.constprop.0 */
static unsigned __attribute__((noinline)) scaled(unsigned x, unsigned k)
{
	unsigned s = 0;
	for (unsigned i = 0; i < x * 10000; i++)
		s += (i * k) ^ (s << 1);
	return s;
}

/* cold, and opaque to the optimizer: the path that calls it is cold */
extern void log_error(const char *m, ...) __attribute__((cold, noipa));
void log_error(const char *m, ...) { fputs(m, stderr); }

/* a loop with an error path that never runs: the path is checked.cold */
unsigned __attribute__((noinline)) checked(unsigned *buf, unsigned n)
{
	unsigned s = 0;
	for (unsigned i = 0; i < n; i++) {
		if (buf[i] == 0) {
			log_error("zero at", i, n, buf[0], buf[1]);
			memset(buf, 0xff, n * sizeof *buf);
			log_error("cleared", n);
			abort();
		}
		s += buf[i];
	}
	return s;
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 400;
	struct pair p = {.a = (unsigned)argc};
	for (unsigned i = 0; i < 256; i++)
		table[i] = i * 2654435761u | 1;
	for (unsigned r = 0; r < n; r++) {
		sink += spin(r % 8 + 1);
		sink += sum_once(&p, r % 4 + 1) + sum_twice(&p, r % 3);
		sink += scaled(r % 5 + 1, 7);
		sink += checked(table, 256);
	}
	return 0;
}
