/*
 * testrng — the tests' pseudo-random numbers: xorshift64, deterministic by
 * seed (never rand() or the time), so a failing case replays exactly.
 */
#ifndef GANTTY_TESTS_TESTRNG_H
#define GANTTY_TESTS_TESTRNG_H

#include <stdint.h>

/* Advances *s (non-zero) and returns the next 64 random bits. */
static inline uint64_t
rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* A number in [0, n), n > 0. */
static inline int64_t
rng_below(uint64_t *s, int64_t n)
{
	return (int64_t)(rng_next(s) % (uint64_t)n);
}

#endif
