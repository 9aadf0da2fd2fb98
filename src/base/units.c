#include "config.h"

#include "base/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Parses a decimal number into its digits and a power of ten, then scales
 * by 10^scale_exp exactly.  The digits are accumulated in an unsigned 64-bit
 * integer; digits beyond what matters are only used for rounding.
 */
static int
decimal_to_int(const char *s, size_t len, int scale_exp, int64_t *out)
{
	size_t i = 0;
	int neg = 0, exp10 = 0, ndig = 0, any = 0;
	uint64_t mant = 0;
	int dropped_first = -1;         /* first digit dropped for precision */

	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (int frac = 0; i < len; i++) {
		char c = s[i];

		if (c == '.') {
			if (frac)
				return UNITS_SYNTAX;
			frac = 1;
			continue;
		}
		if (c < '0' || c > '9')
			break;
		any = 1;
		if (mant == 0 && c == '0') {
			if (frac)
				exp10--;
			continue;
		}
		if (ndig < 19) {
			mant = mant * 10 + (uint64_t)(c - '0');
			ndig++;
			if (frac)
				exp10--;
		} else {
			if (dropped_first < 0)
				dropped_first = c - '0';
			if (!frac)
				exp10++;
		}
	}
	if (!any)
		return UNITS_SYNTAX;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		int eneg = 0, e = 0, edig = 0;

		i++;
		if (i < len && (s[i] == '-' || s[i] == '+'))
			eneg = s[i++] == '-';
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, edig++)
			if (e < 100000)
				e = e * 10 + (s[i] - '0');
		if (edig == 0)
			return UNITS_SYNTAX;
		exp10 += eneg ? -e : e;
	}
	if (i != len)
		return UNITS_SYNTAX;
	exp10 += scale_exp;

	if (mant == 0) {
		*out = 0;
		return UNITS_OK;
	}
	/*
	 * Scale down: drop digits; the leftmost dropped digit alone decides the
	 * rounding (to nearest, ties away from zero).
	 */
	while (exp10 < 0) {
		if (mant == 0) {
			dropped_first = 0;
			break;
		}
		dropped_first = (int)(mant % 10);
		mant /= 10;
		exp10++;
	}
	if (exp10 < 0)
		exp10 = 0;
	if (dropped_first >= 5)
		mant++;
	while (exp10 > 0) {
		if (mant > UINT64_MAX / 10)
			return UNITS_RANGE;
		mant *= 10;
		exp10--;
	}
	if (neg) {
		if (mant > (uint64_t)INT64_MAX + 1)
			return UNITS_RANGE;
		*out = mant == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mant;
	} else {
		if (mant > (uint64_t)INT64_MAX)
			return UNITS_RANGE;
		*out = (int64_t)mant;
	}
	return UNITS_OK;
}

int
units_us_to_ns(const char *s, size_t len, int64_t *ns)
{
	return decimal_to_int(s, len, 3, ns);
}

int
units_parse_duration(const char *s, int64_t *ns)
{
	static const struct {
		const char *suffix;
		int exp;
	} units[] = {
		{ "ns", 0 }, { "us", 3 }, { "ms", 6 }, { "s", 9 },
	};
	size_t len = strlen(s);

	for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
		size_t sl = strlen(units[u].suffix);

		if (len > sl && strcmp(s + len - sl, units[u].suffix) == 0 &&
		    (units[u].exp != 9 || (s[len - 2] >= '0' && s[len - 2] <= '9') ||
		    s[len - 2] == '.'))
			return decimal_to_int(s, len - sl, units[u].exp, ns);
	}
	if (decimal_to_int(s, len, 0, ns) == UNITS_OK && *ns == 0)
		return UNITS_OK;
	return UNITS_SYNTAX;
}

char *
units_format(char *buf, size_t size, int64_t ns)
{
	static const struct {
		int64_t scale;
		const char *name;
	} units[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" },
	};
	const char *sign = ns < 0 ? "-" : "";
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	if (a == 0) {
		snprintf(buf, size, "0");
		return buf;
	}
	for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
		if (a >= (uint64_t)units[u].scale) {
			double v = (double)a / (double)units[u].scale;
			int decimals = v >= 1000 ? 0 : v >= 100 ? 1 : v >= 10 ? 2 : 3;
			char num[64];
			size_t n;

			snprintf(num, sizeof num, "%.*f", decimals, v);
			/* trim trailing zeros of the fraction */
			n = strlen(num);
			if (strchr(num, '.') != NULL) {
				while (n > 0 && num[n - 1] == '0')
					num[--n] = '\0';
				if (n > 0 && num[n - 1] == '.')
					num[--n] = '\0';
			}
			snprintf(buf, size, "%s%s %s", sign, num, units[u].name);
			return buf;
		}
	}
	snprintf(buf, size, "%s%llu ns", sign, (unsigned long long)a);
	return buf;
}

char *
units_format_signed(char *buf, size_t size, int64_t ns)
{
	char b[24];

	if (ns == 0) {
		snprintf(buf, size, "0");
		return buf;
	}
	units_format(b, sizeof b, ns < 0 ? (ns == INT64_MIN ? INT64_MAX : -ns) : ns);
	snprintf(buf, size, "%c%s", ns < 0 ? '-' : '+', b);
	return buf;
}
