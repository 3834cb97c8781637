/* The report's numbers formatted without printf's floating-point path (a tenth to a
 * fifth of a run on a real program went to it), to the same bytes: a value is rounded to
 * PREC decimals from its exact binary value, a tie to the even last digit, as glibc's
 * printf does in the default rounding mode; the sign of a negative value (-0 too) is
 * kept.  What this cannot do exactly (more than 3 decimals, a value that scaled reaches
 * 2^52, inf, nan) goes to snprintf. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "numfmt.h"

static char *pad(char *p, const char *s, size_t n, int width)
{
	int left = width < 0;
	size_t w = (size_t)(left ? -(long)width : width);
	if (!left)
		for (; w > n; w--)
			*p++ = ' ';
	memcpy(p, s, n);
	p += n;
	if (left)
		for (; w > n; w--)
			*p++ = ' ';
	return p;
}

/* V * 10^PREC rounded to an integer: X = V * M is Q + E exactly (M is a small integer, so
 * fma gives the product's rounding error exactly), and X's fraction is compared with 1/2
 * exactly: Q's fraction is a multiple of Q's ulp, and so is 1/2 (Q < 2^52), so E, at
 * most half an ulp, decides only when the fraction is exactly 1/2 (and where the fraction
 * is 0 and E negative, X rounds to Q all the same). */
static uint64_t scaled_round(double v, double m)
{
	double q = v * m, e = fma(v, m, -q), n = floor(q), frac = q - n;
	uint64_t r = (uint64_t)n;
	if (frac > 0.5 || (frac == 0.5 && (e > 0 || (e == 0 && (r & 1)))))
		r++;
	return r;
}

char *fmt_f(char *p, double v, int width, int prec)
{
	static const double scale[] = {1, 10, 100, 1000};
	char tmp[NUMFMT_MAX];
	double a = fabs(v);
	if (prec < 0 || prec > 3 || !(a * scale[prec < 0 || prec > 3 ? 0 : prec] < 0x1p52) ||
	    width > 64 || width < -64) {
		int n = snprintf(tmp, sizeof tmp, "%*.*f", width, prec, v);
		size_t len = n < 0 ? 0 : (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1;
		memcpy(p, tmp, len);
		return p + len;
	}
	uint64_t r = scaled_round(a, scale[prec]);
	char *e = tmp + sizeof tmp, *s = e;
	for (int i = 0; i < prec; i++, r /= 10)
		*--s = (char)('0' + r % 10);
	if (prec)
		*--s = '.';
	do
		*--s = (char)('0' + r % 10);
	while (r /= 10);
	if (signbit(v))
		*--s = '-';
	return pad(p, s, (size_t)(e - s), width);
}

char *fmt_lu(char *p, unsigned long v, int width)
{
	char tmp[32], *e = tmp + sizeof tmp, *s = e;
	do
		*--s = (char)('0' + v % 10);
	while (v /= 10);
	return pad(p, s, (size_t)(e - s), width);
}

char *fmt_s(char *p, const char *s, int width, int prec)
{
	size_t n = strnlen(s, prec < 0 ? SIZE_MAX : (size_t)prec);
	return pad(p, s, n, width);
}

char *fmt_blank(char *p, int n)
{
	for (; n > 0; n--)
		*p++ = ' ';
	return p;
}

char *fmt_d(char *p, long v)
{
	if (v < 0) {
		*p++ = '-';
		return fmt_lu(p, 0UL - (unsigned long)v, 0);
	}
	return fmt_lu(p, (unsigned long)v, 0);
}
