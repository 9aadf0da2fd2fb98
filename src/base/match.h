/*
 * match — case-insensitive searches for a word in a name: device names
 * ("A10" is not in "A100") and kernel names ("dpsk::ep::" is not in
 * "cdpsk::ep::").  A word character is an ASCII letter, digit or '_'.
 */
#ifndef GANTTY_MATCH_H
#define GANTTY_MATCH_H

enum {
	MATCH_LEFT  = 1 << 0,   /* no word character right before the match */
	MATCH_RIGHT = 1 << 1,   /* no word character right after it */
};

/*
 * Returns whether pat occurs in s, ignoring ASCII case, at a place whose
 * sides (MATCH_LEFT, MATCH_RIGHT or both; 0: anywhere) are not glued to a
 * word character.  An empty pat never matches.  O(|s| |pat|).
 */
int match_word(const char *s, const char *pat, int sides);

#endif
