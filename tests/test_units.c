#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "base/units.h"

static int64_t
us(const char *s)
{
	int64_t ns = -777;

	cr_assert_eq(units_us_to_ns(s, strlen(s), &ns), UNITS_OK, "parsing %s", s);
	return ns;
}

Test(units, timestamps_beyond_double_precision)
{
	cr_assert_eq(us("1692998837419.987"), INT64_C(1692998837419987));
	cr_assert_eq(us("1712195495505582.988"), INT64_C(1712195495505582988));
	cr_assert_eq(us("1712195495505772.8"), INT64_C(1712195495505772800));
	cr_assert_eq(us("1606910596297023"), INT64_C(1606910596297023000));
}

Test(units, small_and_signed)
{
	cr_assert_eq(us("0"), 0);
	cr_assert_eq(us("0.000"), 0);
	cr_assert_eq(us("4.928"), 4928);
	cr_assert_eq(us("0.001"), 1);
	cr_assert_eq(us("-2.5"), -2500);
	cr_assert_eq(us("100"), 100000);
	cr_assert_eq(us("007.5"), 7500);
}

Test(units, sub_nanosecond_digits_round_to_nearest)
{
	cr_assert_eq(us("4.9284"), 4928);
	cr_assert_eq(us("4.9285"), 4929);
	cr_assert_eq(us("4.92849999"), 4928);
	cr_assert_eq(us("0.0004"), 0);
	cr_assert_eq(us("0.0005"), 1);
	cr_assert_eq(us("0.00000001"), 0);
	cr_assert_eq(us("-0.0006"), -1);
	/* 23 significant digits: only the first 19 and the rounding digit count */
	cr_assert_eq(us("1712195495505582.98849999"), INT64_C(1712195495505582988));
}

Test(units, exponents)
{
	cr_assert_eq(us("1e3"), 1000000);
	cr_assert_eq(us("1.5E+2"), 150000);
	cr_assert_eq(us("2.5e-3"), 3);          /* 2.5 ns rounds away from zero */
	cr_assert_eq(us("1.712195495505582988e15"), INT64_C(1712195495505582988));
}

Test(units, rejects_junk_and_overflow)
{
	int64_t ns;
	const char *bad[] = { "", "-", ".", "1.2.3", "12a", "NaN", "Infinity",
	    "1e", "--1", " 1" };

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		cr_assert_eq(units_us_to_ns(bad[i], strlen(bad[i]), &ns), UNITS_SYNTAX,
		    "'%s' should be rejected", bad[i]);
	cr_assert_eq(units_us_to_ns("9223372036854775.808", 20, &ns), UNITS_RANGE);
	cr_assert_eq(units_us_to_ns("9223372036854775.807", 20, &ns), UNITS_OK);
	cr_assert_eq(ns, INT64_MAX);
	cr_assert_eq(units_us_to_ns("-9223372036854775.808", 21, &ns), UNITS_OK);
	cr_assert_eq(ns, INT64_MIN);
	cr_assert_eq(units_us_to_ns("1e400", 5, &ns), UNITS_RANGE);
	cr_assert_eq(units_us_to_ns("99999999999999999999999", 23, &ns), UNITS_RANGE);
}

Test(units, durations_need_a_unit)
{
	int64_t ns;

	cr_assert_eq(units_parse_duration("10ms", &ns), UNITS_OK);
	cr_assert_eq(ns, 10000000);
	cr_assert_eq(units_parse_duration("1.5s", &ns), UNITS_OK);
	cr_assert_eq(ns, 1500000000);
	cr_assert_eq(units_parse_duration("250us", &ns), UNITS_OK);
	cr_assert_eq(ns, 250000);
	cr_assert_eq(units_parse_duration("7ns", &ns), UNITS_OK);
	cr_assert_eq(ns, 7);
	cr_assert_eq(units_parse_duration("-2ms", &ns), UNITS_OK);
	cr_assert_eq(ns, -2000000);
	cr_assert_eq(units_parse_duration("0", &ns), UNITS_OK);
	cr_assert_eq(ns, 0);
	cr_assert_eq(units_parse_duration("10", &ns), UNITS_SYNTAX);
	cr_assert_eq(units_parse_duration("ms", &ns), UNITS_SYNTAX);
	cr_assert_eq(units_parse_duration("5 ms", &ns), UNITS_SYNTAX);
	cr_assert_eq(units_parse_duration("5m", &ns), UNITS_SYNTAX);
}

Test(units, format_is_short_and_adaptive)
{
	char b[32];

	cr_assert_str_eq(units_format(b, sizeof b, 0), "0");
	cr_assert_str_eq(units_format(b, sizeof b, 750), "750 ns");
	cr_assert_str_eq(units_format(b, sizeof b, 12500), "12.5 us");
	cr_assert_str_eq(units_format(b, sizeof b, 3250000), "3.25 ms");
	cr_assert_str_eq(units_format(b, sizeof b, 1204000000), "1.204 s");
	cr_assert_str_eq(units_format(b, sizeof b, 1000), "1 us");
	cr_assert_str_eq(units_format(b, sizeof b, -1500), "-1.5 us");
	cr_assert_str_eq(units_format(b, sizeof b, INT64_C(3600000000000)), "3600 s");
}
