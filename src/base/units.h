/*
 * units — exact conversions between time texts and int64_t nanoseconds.
 *
 * Trace timestamps are microseconds written as JSON numbers, often with three
 * decimals and 16 to 19 significant digits; a double cannot hold them, so
 * they are converted from their text, digit by digit.  Command-line
 * durations carry a unit (ns, us, ms, s).  Formatting picks a unit so that
 * the number stays short.
 */
#ifndef GANTTY_UNITS_H
#define GANTTY_UNITS_H

#include <stddef.h>
#include <stdint.h>

enum units_status {
	UNITS_OK = 0,
	UNITS_SYNTAX = -1,      /* not a number */
	UNITS_RANGE = -2,       /* does not fit int64_t nanoseconds */
};

/*
 * Converts the JSON number text s[0..len) in microseconds to nanoseconds.
 * Accepts an optional sign, digits, a fraction and an exponent; digits below
 * one nanosecond are rounded to nearest, ties away from zero.
 * "1692998837419.987" -> 1692998837419987.  Returns a units_status.
 */
int units_us_to_ns(const char *s, size_t len, int64_t *ns);
/*
 * Parses a command-line duration such as "10ms", "1.5s", "250us", "7ns",
 * "-2ms" or "0" into nanoseconds (exact, rounded below 1 ns).  A unit is
 * required except for zero.  Returns a units_status.
 */
int units_parse_duration(const char *s, int64_t *ns);
/*
 * Writes ns to buf as a short human duration ("0", "750 ns", "12.5 us",
 * "3.25 ms", "1.204 s") with at most 4 significant digits.  Returns buf.
 */
char *units_format(char *buf, size_t size, int64_t ns);
/* The same with a sign for a change: "+1.5 ms", "-20 us", "0".  Returns buf. */
char *units_format_signed(char *buf, size_t size, int64_t ns);

#endif
