/* A recursive-descent evaluator: expr -> term -> factor -> '(' expr ')' is a cycle whose
 * entry (expr) does almost nothing itself while the cycle as a whole takes nearly all the
 * time; it is entered from main and from batch. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;
static const char *p;
int expr(void);
static __attribute__((noinline)) int digit(char c)
{
	for (int i = 0; i < 2000; i++)
		sink += (unsigned long)c * i;
	return c - '0';
}
__attribute__((noinline)) int factor(void)
{
	if (*p == '(') {
		p++;
		int v = expr();
		p++;
		return v;
	}
	return digit(*p++);
}
__attribute__((noinline)) int term(void)
{
	int v = factor();
	while (*p == '*') {
		p++;
		v *= factor();
	}
	return v;
}
__attribute__((noinline)) int expr(void)
{
	int v = term();
	while (*p == '+') {
		p++;
		v += term();
	}
	return v;
}
static __attribute__((noinline)) int eval(const char *s)
{
	p = s;
	return expr();
}
__attribute__((noinline)) int batch(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += eval("(1+2*(3+4))*(5+(6*7+8))+9");
	return s;
}
int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 2000, s = batch(rounds * 3 / 2);
	for (int i = 0; i < rounds; i++) {
		p = "((1+2)*3+4*(5+6))";
		s += expr();
	}
	printf("%d\n", s);
	return 0;
}
