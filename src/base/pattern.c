/* pattern — regular expressions without back-references, bounded; see pattern.h. */
#include "config.h"

#include "base/pattern.h"

#include <stdio.h>
#include <string.h>

/* Whether pat has a back-reference (\1 .. \9 outside a bracket expression). */
static int
has_backref(const char *pat)
{
	for (const char *p = pat; *p != '\0'; p++) {
		if (*p == '\\') {
			if (p[1] >= '1' && p[1] <= '9')
				return 1;
			if (p[1] != '\0')
				p++;
		} else if (*p == '[') {
			/* to the closing ]: a ] first in the list is a member */
			p++;
			if (*p == '^')
				p++;
			if (*p == ']')
				p++;
			while (*p != '\0' && *p != ']')
				p++;
			if (*p == '\0')
				return 0;
		}
	}
	return 0;
}

int
pattern_compile(regex_t *re, const char *pat, int flags, char *why,
    size_t whysize)
{
	int rc;

	if (has_backref(pat)) {
		snprintf(why, whysize, "back-references (\\1 .. \\9) are not "
		    "supported: they can take exponential time");
		return -1;
	}
	if ((rc = regcomp(re, pat, REG_EXTENDED | flags)) != 0) {
		regerror(rc, re, why, whysize);
		return -1;
	}
	return 0;
}

int
pattern_match(const regex_t *re, const char *s, size_t n, regmatch_t *pm)
{
	regmatch_t one[1];
	regmatch_t *m = n > 0 ? pm : one;
	size_t len = strnlen(s, PATTERN_SUBJECT_MAX);

	m[0].rm_so = 0;
	m[0].rm_eo = (regoff_t)len;
	return regexec(re, s, n > 0 ? n : 1, m, REG_STARTEND) == 0;
}
