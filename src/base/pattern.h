/*
 * pattern — the user's regular expressions (--layer-pattern,
 * --comm-pattern, the viewer's /), bounded in time.
 *
 * POSIX extended expressions, without back-references: glibc accepts \1 ..
 * \9 in an ERE as an extension, and matching them can take exponential time
 * (a pattern with one ran for over a minute on names of 1,000 characters).
 * Names are matched on at most their first PATTERN_SUBJECT_MAX bytes, so
 * that a pattern that is slow on long subjects stays bounded by that.
 */
#ifndef GANTTY_PATTERN_H
#define GANTTY_PATTERN_H

#include <regex.h>
#include <stddef.h>

#define PATTERN_SUBJECT_MAX 2048

/*
 * Compiles pat into re (REG_EXTENDED | flags).  Returns 0, or -1 with why
 * (a back-reference, or regcomp's message) and nothing to free.
 */
int pattern_compile(regex_t *re, const char *pat, int flags, char *why,
    size_t whysize);
/*
 * regexec() of s, on its first PATTERN_SUBJECT_MAX bytes at most; pm[0..n)
 * as regexec() fills them (n may be 0).  Returns 1 on a match, else 0.
 */
int pattern_match(const regex_t *re, const char *s, size_t n, regmatch_t *pm);

#endif
