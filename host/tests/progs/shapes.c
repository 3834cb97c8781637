/* Function pointers, two separate cycles, a three-function cycle, statics with the
 * same name as in shapes2.c, and a hot leaf. */
#include <stdio.h>
#include <stdlib.h>

static volatile double acc;
static void work(int n) { for (int i = 0; i < n; i++) acc += i * 0.5; }
void leaf(int n) { work(n); }
int b_step(int n);
int c_step(int n);
int a_step(int n) { leaf(300); return n > 0 ? b_step(n - 1) : 0; }
int b_step(int n) { leaf(200); return n > 0 ? c_step(n - 1) : 1; }
int c_step(int n) { leaf(100); return n > 0 ? a_step(n - 1) : 2; }
int ping(int n);
int pong(int n) { work(50); return n ? ping(n - 1) : 0; }
int ping(int n) { work(80); return n ? pong(n - 1) : 1; }
int other(int n);
typedef int (*op_fn)(int);
static int sq(int x) { leaf(40); return x * x; }
static int inc(int x) { leaf(20); return x + 1; }
int apply(op_fn f, int x) { return f(x); }
int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20000, s = 0;
	int v[64];
	for (int r = 0; r < rounds; r++) {
		s += a_step(r % 9);
		s += ping(r % 5);
		s += apply(r & 1 ? sq : inc, r);
		s += other(r);
		for (int i = 0; i < 64; i++)
			v[i] = (i * 7919 + r) % 101;
		qsort(v, 64, sizeof v[0], cmp_int);
	}
	printf("%d %d\n", s, v[3]);
	return 0;
}
