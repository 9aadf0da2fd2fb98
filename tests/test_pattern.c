/* The user's regular expressions (base/pattern.h): no back-references, bounded subjects. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "base/pattern.h"

static int
compiles(const char *pat)
{
	regex_t re;
	char why[256];

	if (pattern_compile(&re, pat, REG_NOSUB, why, sizeof why) < 0)
		return 0;
	regfree(&re);
	return 1;
}

Test(pattern, back_references_refused)
{
	char why[256];
	regex_t re;

	cr_assert_eq(compiles("(a)\\1"), 0);
	cr_assert_eq(compiles("x(a|b)*\\9"), 0);
	cr_assert_eq(pattern_compile(&re, "(a)\\1", 0, why, sizeof why), -1);
	cr_assert(strstr(why, "back-references") != NULL, "%s", why);
	/* not back-references: an escaped backslash, digits in brackets */
	cr_assert_eq(compiles("a\\\\1"), 1);
	cr_assert_eq(compiles("[\\1]x"), 1);
	cr_assert_eq(compiles("[]\\1]x"), 1);
	cr_assert_eq(compiles("[^]\\2]"), 1);
	cr_assert_eq(compiles("Gather.*RING"), 1);
	/* regcomp's own errors come through */
	cr_assert_eq(pattern_compile(&re, "a(", 0, why, sizeof why), -1);
	cr_assert(why[0] != '\0');
}

/* Repetitions multiply through groups, never through a bracket expression. */
Test(pattern, repetitions_bounded)
{
	cr_assert_eq(compiles("(a{1,40}){1,50}"), 1);              /* 2000 */
	cr_assert_eq(compiles("(a{1,40}){1,51}"), 0);              /* 2040 */
	cr_assert_eq(compiles("a++++++"), 0);                      /* 4^6 */
	cr_assert_eq(compiles("a+++++"), 1);                       /* 4^5 */
	/*
	 * fuzz_layers: repetitions of what matches the empty string cost
	 * regcomp() time (a+*+++++++++++ 5 s, (a|b*)+{1,600} 58 s)
	 */
	cr_assert_eq(compiles("a+*+++++++++++"), 0);
	cr_assert_eq(compiles("(a|b*)+{1,600}"), 0);
	cr_assert_eq(compiles("(a|b*)+{1,80}"), 1);                /* 1920 */
	cr_assert_eq(compiles("(a|b*)+{1,84}"), 0);                /* 2016 */
	/* '(' and ')' inside brackets are members, not groups */
	cr_assert_eq(compiles("([(]{1,40}){1,50}"), 1);
	cr_assert_eq(compiles("([)]{1,40}){1,51}"), 0);
	cr_assert_eq(compiles("([]()]{1,40}){1,51}"), 0);
	/* a class is one member: its ']' does not end the bracket */
	cr_assert_eq(compiles("([[:alpha:])(]{1,40}){1,51}"), 0);
	cr_assert_eq(compiles("[[:alpha:]\\1]x"), 1);
	/* a KiB of literals is far below the bound */
	cr_assert_eq(compiles("layers\\.0|layers\\.1|layers\\.2|attn.*|mlp+"), 1);
}

Test(pattern, subjects_bounded)
{
	size_t n = PATTERN_SUBJECT_MAX + 100;
	char *s = malloc(n + 2);
	regex_t re;
	regmatch_t m[2];
	char why[256];

	memset(s, 'a', n);
	s[n] = 'b';
	s[n + 1] = '\0';
	cr_assert_eq(pattern_compile(&re, "b$", REG_NOSUB, why, sizeof why), 0);
	cr_assert_neq(pattern_exec(&re, s, 0, NULL), 0, "past the bound: not looked at");
	regfree(&re);
	cr_assert_eq(pattern_compile(&re, "^a+", 0, why, sizeof why), 0);
	cr_assert_eq(pattern_exec(&re, s, 1, m), 0);
	cr_assert_eq(m[0].rm_so, 0);
	cr_assert_eq(m[0].rm_eo, PATTERN_SUBJECT_MAX);
	regfree(&re);
	cr_assert_eq(pattern_compile(&re, "(l+)_b", 0, why, sizeof why), 0);
	cr_assert_eq(pattern_exec(&re, "x_ll_b", 2, m), 0);
	cr_assert_eq(m[1].rm_so, 2);
	cr_assert_eq(m[1].rm_eo, 4);
	regfree(&re);
	free(s);
}
