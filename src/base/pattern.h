/*
 * pattern — the user's regular expressions (--layer-pattern,
 * --comm-pattern): POSIX extended, with their cost bounded.
 *
 * glibc's matcher takes exponential time on a back-reference (\1, a glibc
 * extension to ERE: over 60 s on a 1000-character name) and grows faster
 * than linearly on patterns such as (a|aa)*c; names can be a MiB long
 * (TRACE_STR_MAX); and its regcomp() expands nested and stacked
 * repetitions, exponentially in memory (a+++...+ of 20 took 700 MB, four
 * nested {1,30} 1.4 GB; fuzz_layers found it).  So pattern_compile()
 * refuses back-references, patterns longer than PATTERN_MAX_LEN and those
 * whose repetitions multiply to more than PATTERN_MAX_SIZE, each with a
 * clear message, and pattern_exec() matches only the first
 * PATTERN_SUBJECT_MAX bytes of a name (REG_STARTEND, no copy).  The callers
 * match each distinct (interned) name once and keep the answer.
 */
#ifndef GANTTY_PATTERN_H
#define GANTTY_PATTERN_H

#include <regex.h>
#include <stddef.h>

/* The bytes of a name a pattern is matched against: its first 4 KiB. */
#define PATTERN_SUBJECT_MAX 4096
/* The longest pattern, in bytes. */
#define PATTERN_MAX_LEN 1024
/*
 * The largest pattern size: atoms times the factors of the repetitions
 * around them (* + ? count 4, {m,n} n).  At this size the slowest patterns
 * measured compile in about 0.2 s ((a*+){1,125}, (a|b*)+{1,80},
 * (a*){1,250}(b*){1,250}); a 1 KiB pattern of literals and a few
 * repetitions is far below it.
 */
#define PATTERN_MAX_SIZE 2000

/*
 * Compiles pattern into re (REG_EXTENDED | flags).  Returns 0, or -1 with
 * why in err (regerror()'s words, or why it is refused: a back-reference,
 * too long, too complex); nothing to free then.
 */
int pattern_compile(regex_t *re, const char *pattern, int flags, char *err,
    size_t errsize);
/*
 * regexec() of re on the first PATTERN_SUBJECT_MAX bytes of s: returns 0 on
 * a match (m[0..nmatch) filled, offsets from s), else REG_NOMATCH.
 */
int pattern_exec(const regex_t *re, const char *s, size_t nmatch, regmatch_t *m);

#endif
