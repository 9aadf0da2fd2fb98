/* pattern — the user's regular expressions, bounded; see pattern.h. */
#include "config.h"

#include "base/pattern.h"

#include <stdio.h>
#include <string.h>

/*
 * Whether pattern holds a back-reference: a backslash and a digit 1 to 9
 * outside a bracket expression ([...], where a backslash is itself).
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
			/* []...] and [^]...]: the first ] is a member */
			p++;
			if (*p == '^')
				p++;
			if (*p == ']')
				p++;
			while (*p != '\0' && *p != ']') {
				if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
					char end = p[1];
					const char *q = p + 2;

					while (*q != '\0' && !(q[0] == end && q[1] == ']'))
						q++;
					p = *q != '\0' ? q + 2 : q;
					continue;
				}
				p++;
			}
			if (*p == ']')
				p++;
		} else {
			p++;
		}
	}
	return 0;
}

int
pattern_compile(regex_t *re, const char *pattern, int flags, char *err,
    size_t errsize)
{
	int rc;

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
