#include "config.h"

#include "base/match.h"

#include <string.h>

static int
is_word(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') || c == '_';
}

static char
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

int
match_word(const char *s, const char *pat, int sides)
{
	size_t n = strlen(s), m = strlen(pat);

	if (m == 0 || m > n)
		return 0;
	for (size_t i = 0; i + m <= n; i++) {
		size_t j = 0;

		while (j < m && lower(s[i + j]) == lower(pat[j]))
			j++;
		if (j < m)
			continue;
		if ((sides & MATCH_LEFT) && i > 0 && is_word(s[i - 1]))
			continue;
		if ((sides & MATCH_RIGHT) && i + m < n && is_word(s[i + m]))
			continue;
		return 1;
	}
	return 0;
}
