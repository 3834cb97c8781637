/* Mutual recursion (a cycle), self recursion, static helpers, an unused function. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;
static void spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }
static int helper(int x) { spin(20000); return x + 1; }
int odd(int n);
int even(int n) { spin(10000); return n == 0 ? 1 : odd(n - 1); }
int odd(int n) { spin(15000); return n == 0 ? 0 : even(n - 1); }
int fact(int n) { spin(5000); return n <= 1 ? 1 : n * fact(n - 1); }
void unused(void) { spin(1); }
int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3000, s = 0;
	for (int i = 0; i < rounds; i++) {
		s += helper(i);
		s += even(i % 7);
		s += fact(5);
	}
	printf("%d\n", s);
	return 0;
}
