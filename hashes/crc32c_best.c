/* The `crc32c` alias: the fastest CRC-32C implementation this CPU can run,
 * decided from CPU features (the order below is the rule; README "Hashes"). */
#include "hash.h"
#include "impls.h"

static const struct hash_impl *const crc32c_candidates[] = {
	&hash_crc32c_fused,   /* VPCLMULQDQ + AVX-512 and crc32q together */
	&hash_crc32c_vpclmul, /* VPCLMULQDQ + AVX-512 */
	&hash_crc32c_3way,    /* SSE4.2 + PCLMULQDQ, x86-64 */
	&hash_crc32c_armv8,   /* Armv8 CRC32 instructions */
	&hash_crc32c_sse42,   /* SSE4.2 */
	&hash_crc32c_generic, /* anything */
};

static const struct hash_impl *crc32c_best(void)
{
	for (unsigned i = 0; i < sizeof(crc32c_candidates) / sizeof(crc32c_candidates[0]); i++)
		if (crc32c_candidates[i]->fn && !hash_missing_features(crc32c_candidates[i]))
			return crc32c_candidates[i];
	return &hash_crc32c_generic;
}

const struct hash_impl hash_crc32c = {
	.name = "crc32c",
	.description = "the fastest CRC-32C this CPU runs: fused, vpclmul, 3way, armv8, sse42, generic",
	.alias_of = crc32c_best,
};
