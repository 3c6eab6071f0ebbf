/* The `xxh3` and `xxh128` aliases: the widest vector build of xxhash.h this
 * CPU runs (AVX-512, AVX2, NEON, SSE2), else libxxhash's plain entry point. */
#include "hash.h"
#include "impls.h"

static const struct hash_impl *first_available(const struct hash_impl *const *c, unsigned n)
{
	for (unsigned i = 0; i + 1 < n; i++)
		if (c[i]->fn && !hash_missing_features(c[i]))
			return c[i];
	return c[n - 1];
}

static const struct hash_impl *xxh3_best(void)
{
	static const struct hash_impl *const c[] = { &hash_xxh3_avx512, &hash_xxh3_avx2, &hash_xxh3_neon,
						     &hash_xxh3_sse2, &hash_xxh3_lib };
	return first_available(c, sizeof(c) / sizeof(c[0]));
}

static const struct hash_impl *xxh128_best(void)
{
	static const struct hash_impl *const c[] = { &hash_xxh128_avx512, &hash_xxh128_avx2, &hash_xxh128_neon,
						     &hash_xxh128_sse2, &hash_xxh128_lib };
	return first_available(c, sizeof(c) / sizeof(c[0]));
}

const struct hash_impl hash_xxh3 = {
	.name = "xxh3",
	.description = "XXH3_64bits, seed 0: the best build this CPU runs (avx512, avx2, neon, sse2, lib)",
	.alias_of = xxh3_best,
};

const struct hash_impl hash_xxh128 = {
	.name = "xxh128",
	.description = "XXH3_128bits, seed 0: the best build this CPU runs (avx512, avx2, neon, sse2, lib)",
	.alias_of = xxh128_best,
};
