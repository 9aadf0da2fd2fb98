/* pattern — the user's regular expressions, bounded; see pattern.h. */
#include "config.h"

#include "base/pattern.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * The end of the bracket expression that starts at p ('['): past its ']'
 * ([]...] and [^]...] take the first ']' as a member; [:class:], [.x.]
 * and [=x=] inside are skipped whole), or at the end of the string.
 */
static const char *
skip_bracket(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p != '\0' && *p != ']') {
		if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			char end = p[1];

			p += 2;
			while (*p != '\0' && !(p[0] == end && p[1] == ']'))
				p++;
			if (*p != '\0')
				p += 2;
			continue;
		}
		p++;
	}
	return *p == ']' ? p + 1 : p;
}

/*
 * Whether pattern holds a back-reference: a backslash and a digit 1 to 9
 * outside a bracket expression (where a backslash is itself).
 */
static int
has_backref(const char *p)
{
	while (*p != '\0') {
		if (*p == '\\') {
			if (p[1] >= '1' && p[1] <= '9')
				return 1;
			p += p[1] != '\0' ? 2 : 1;
		} else if (*p == '[') {
			p = skip_bracket(p);
		} else {
			p++;
		}
	}
	return 0;
}

/*
 * The size of the automaton glibc builds, measured on the pattern: each
 * atom counts 1, times the factors of the repetitions around it (*, + and
 * ? count 4; {m,n} counts n, {m,} m + 1, {m} m), so nested and stacked
 * repetitions multiply: glibc's regcomp() expands them, exponentially in
 * memory for a+++++...+ or ((a+)+)+..., and (((a{1,30}){1,30}){1,30}){1,30}
 * took 1.4 GB.  A repetition of something that matches the empty string
 * costs regcomp() time too, about four times per stacked + (a*+++++++++
 * took 0.7 s, a+*+++++++++++ 5 s) and faster than linearly in {m,n}
 * ((a|b*)+{1,600} took 58 s): hence 4 per *, + or ?.  Saturates at
 * SIZE_MAX; a group nested deeper than MAX_NEST counts SIZE_MAX.
 */
#define MAX_NEST 64

static size_t
sat_mul(size_t a, size_t b)
{
	size_t r;

	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}

static size_t
sat_add(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

/* The factor of the repetition at *pp (moved past it), or 0 if none. */
static size_t
repetition(const char **pp)
{
	const char *p = *pp;
	size_t m = 0, n = 0;
	int comma = 0, digits_n = 0;

	if (*p == '*' || *p == '+' || *p == '?') {
		*pp = p + 1;
		return 4;
	}
	if (*p != '{')
		return 0;
	for (p++; *p >= '0' && *p <= '9'; p++)
		m = sat_add(sat_mul(m, 10), (size_t)(*p - '0'));
	if (*p == ',') {
		comma = 1;
		for (p++; *p >= '0' && *p <= '9'; p++, digits_n = 1)
			n = sat_add(sat_mul(n, 10), (size_t)(*p - '0'));
	}
	if (*p != '}')
		return 0;       /* not a bound: a literal '{' (regcomp decides) */
	*pp = p + 1;
	if (!comma)
		return m > 0 ? m : 1;
	if (!digits_n)
		return sat_add(m, 1);
	return n > 0 ? n : 1;
}

/* The size of the alternatives at *pp up to ')' or the end (left there). */
static size_t
alternatives(const char **pp, int depth)
{
	const char *p = *pp;
	size_t total = 0;

	if (depth > MAX_NEST)
		return SIZE_MAX;
	while (*p != '\0' && *p != ')') {
		size_t atom = 1, f;

		if (*p == '(') {
			p++;
			atom = alternatives(&p, depth + 1);
			if (*p == ')')
				p++;
		} else if (*p == '[') {
			p = skip_bracket(p);    /* one atom */
		} else if (*p == '\\') {
			p += p[1] != '\0' ? 2 : 1;
		} else {
			p++;            /* a character, '|', '.', '^' or '$' */
		}
		while ((f = repetition(&p)) > 0)
			atom = sat_mul(atom, f);
		total = sat_add(total, atom);
	}
	*pp = p;
	return total;
}

/* The size of the whole pattern (unbalanced ')' are regcomp()'s to refuse). */
static size_t
pattern_size(const char *p)
{
	size_t total = 0;

	for (;;) {
		total = sat_add(total, alternatives(&p, 0));
		if (*p == '\0')
			return total;
		p++;            /* a ')' with no '(' */
	}
}

int
pattern_compile(regex_t *re, const char *pattern, int flags, char *err,
    size_t errsize)
{
	int rc;

	if (strlen(pattern) > PATTERN_MAX_LEN) {
		snprintf(err, errsize, "longer than %d bytes", PATTERN_MAX_LEN);
		return -1;
	}
	if (pattern_size(pattern) > PATTERN_MAX_SIZE) {
		snprintf(err, errsize, "too complex: its repetitions multiply to "
		    "more than %d (nested or stacked *, +, ?, {m,n}), which the "
		    "matcher expands in memory and time", PATTERN_MAX_SIZE);
		return -1;
	}
	if (has_backref(pattern)) {
		snprintf(err, errsize, "back-references (\\1 to \\9) are not "
		    "supported: matching them can take exponential time");
		return -1;
	}
	if ((rc = regcomp(re, pattern, REG_EXTENDED | flags)) != 0) {
		regerror(rc, re, err, errsize);
		return -1;
	}
	return 0;
}

int
pattern_exec(const regex_t *re, const char *s, size_t nmatch, regmatch_t *m)
{
	regmatch_t one[1];
	regmatch_t *pm = nmatch > 0 ? m : one;

	pm[0].rm_so = 0;
	pm[0].rm_eo = (regoff_t)strnlen(s, PATTERN_SUBJECT_MAX);
	return regexec(re, s, nmatch, pm, REG_STARTEND);
}
