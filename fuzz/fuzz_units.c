/*
 * fuzz_units — libFuzzer target for units_us_to_ns() and
 * units_parse_duration().
 *
 * units_us_to_ns() converts a JSON number text exactly, digit by digit; here
 * it is compared with a slow oracle that shifts the decimal point in the
 * digit string itself and rounds with the first dropped digit (to nearest,
 * ties away from zero), then compares against int64 as text.  Inputs are
 * used both as they are and reduced to a number-like string (digits, one
 * point, an exponent), so most runs reach the arithmetic.
 * units_parse_duration() must accept whatever units_us_to_ns() accepts with
 * a "us" suffix, and give the same value.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"

#define MAXLEN 4096

/*
 * The oracle: returns a units_status like units_us_to_ns(s, len, 3).
 * Grammar: [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?
 * where at least one digit precedes the exponent (as units.c accepts: "5."
 * and ".5" are numbers).
 */
static int
oracle(const char *s, size_t len, int64_t *out)
{
	static char dig[MAXLEN + 16];
	size_t i = 0, nd = 0;
	int neg = 0, seen_point = 0;
	long long point, e = 0;         /* the value is 0.dig * 10^point */
	long long nint = 0;

	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (; i < len; i++) {
		if (s[i] == '.') {
			if (seen_point)
				return UNITS_SYNTAX;
			seen_point = 1;
		} else if (s[i] >= '0' && s[i] <= '9') {
			dig[nd++] = s[i];
			if (!seen_point)
				nint++;
		} else
			break;
	}
	if (nd == 0)
		return UNITS_SYNTAX;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		int eneg = 0;
		size_t from;

		i++;
		if (i < len && (s[i] == '-' || s[i] == '+'))
			eneg = s[i++] == '-';
		from = i;
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			if (e < 1000000000)
				e = e * 10 + (s[i] - '0');
		if (i == from)
			return UNITS_SYNTAX;
		if (eneg)
			e = -e;
	}
	if (i != len)
		return UNITS_SYNTAX;
	/* Strip leading zeros (moving the point), then trailing zeros. */
	point = nint + e + 3;           /* us -> ns */
	{
		size_t lead = 0;

		while (lead < nd && dig[lead] == '0')
			lead++;
		if (lead == nd) {
			*out = 0;
			return UNITS_OK;
		}
		memmove(dig, dig + lead, nd - lead);
		nd -= lead;
		point -= (long long)lead;
		while (nd > 0 && dig[nd - 1] == '0')
			nd--;
	}
	/* Now value = 0.dig[0..nd) * 10^point with dig[0] != '0'. */
	if (point > 19)
		return UNITS_RANGE;
	{
		/* Integer part: dig[0..point) (zero-padded); first dropped digit. */
		char ibuf[32];
		int round_up;
		unsigned long long mag = 0;
		size_t k;

		if (point <= 0) {
			round_up = point == 0 && dig[0] >= '5';
			mag = round_up;
		} else {
			for (k = 0; k < (size_t)point; k++)
				ibuf[k] = k < nd ? dig[k] : '0';
			ibuf[point] = '\0';
			round_up = (size_t)point < nd && dig[point] >= '5';
			/* point <= 19 digits fit in unsigned long long (< 1e19 < 2^64). */
			mag = strtoull(ibuf, NULL, 10);
			if (round_up) {
				if (mag == UINT64_MAX)
					return UNITS_RANGE;
				mag++;
			}
		}
		if (neg) {
			if (mag > (unsigned long long)INT64_MAX + 1)
				return UNITS_RANGE;
			*out = mag == (unsigned long long)INT64_MAX + 1 ? INT64_MIN :
			    -(int64_t)mag;
		} else {
			if (mag > (unsigned long long)INT64_MAX)
				return UNITS_RANGE;
			*out = (int64_t)mag;
		}
	}
	return UNITS_OK;
}

static void
check(const char *s, size_t len)
{
	int64_t got = 0, want = 0, dur = 0;
	int rg = units_us_to_ns(s, len, &got), rw = oracle(s, len, &want);
	static char buf[MAXLEN + 8];

	if (rg != rw || (rg == UNITS_OK && got != want)) {
		fprintf(stderr, "units_us_to_ns(\"%.*s\"): got %d/%lld, oracle %d/%lld\n",
		    (int)len, s, rg, (long long)got, rw, (long long)want);
		abort();
	}
	/* The same text with a "us" unit, as a command-line duration. */
	if (memchr(s, '\0', len) != NULL)
		return;
	memcpy(buf, s, len);
	memcpy(buf + len, "us", 3);
	rg = units_parse_duration(buf, &dur);
	if (rg != rw || (rg == UNITS_OK && dur != want)) {
		fprintf(stderr, "units_parse_duration(\"%s\"): got %d/%lld, oracle %d/%lld\n",
		    buf, rg, (long long)dur, rw, (long long)want);
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char num[MAXLEN];
	static char raw[MAXLEN];
	static const char alphabet[] = "0123456789012345678901234567890123456789.eE-+";
	size_t n = 0;
	char fmt[32];
	int64_t ns;

	if (size > MAXLEN - 8)
		size = MAXLEN - 8;
	memcpy(raw, data, size);
	check(raw, size);
	/* Number-like: map every byte to a digit, '.', 'e', sign. */
	for (size_t i = 0; i < size; i++)
		num[n++] = alphabet[data[i] % (sizeof alphabet - 1)];
	check(num, n);
	/* Durations with other units must not crash; "0" needs none. */
	for (size_t u = 0; u < 4 && n + 3 < MAXLEN; u++) {
		static const char *const units[] = { "ns", "us", "ms", "s" };

		snprintf(fmt, sizeof fmt, "%s", units[u]);
		memcpy(num + n, fmt, strlen(fmt) + 1);
		(void)units_parse_duration(num, &ns);
	}
	return 0;
}
