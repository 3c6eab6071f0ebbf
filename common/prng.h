/* Small, reproducible pseudo-random generator (splitmix64) for test data,
 * random pages and visiting orders. Not for anything secret. */
#ifndef KB_PRNG_H
#define KB_PRNG_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t prng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Fills buf with the stream from *state; the same seed gives the same bytes. */
static inline void prng_fill(uint64_t *state, void *buf, size_t len)
{
	unsigned char *p = buf;

	for (; len >= 8; len -= 8, p += 8) {
		uint64_t v = prng_next(state);
		memcpy(p, &v, 8);
	}
	if (len) {
		uint64_t v = prng_next(state);
		memcpy(p, &v, len);
	}
}

/* Uniform in [0, n) for n > 0 (Lemire's multiply; bias below 2^-32 for n < 2^32). */
static inline uint64_t prng_below(uint64_t *state, uint64_t n)
{
#if defined(__SIZEOF_INT128__)
	return (uint64_t)(((unsigned __int128)prng_next(state) * n) >> 64);
#else
	return prng_next(state) % n;
#endif
}

#endif
