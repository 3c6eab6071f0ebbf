/* Body of the per-instruction-set XXH3 entries: xxhash.h inlined whole
 * (XXH_INLINE_ALL) with the vector code path chosen by XXH_VECTOR, so that
 * each xxh3_<isa>.c translation unit, compiled with its own target flags,
 * carries its own copy. Before including this, a file defines XXH3_ISA
 * (entry suffix token), XXH3_ISA_STR, XXH3_ISA_NEEDS (cpu_feature bits),
 * XXH3_ISA_WHAT (description tail) and, where this architecture builds it,
 * XXH3_ISA_BUILT and XXH_VECTOR. Elsewhere the entries exist with no code,
 * so that they list as unavailable. */
#include "hash.h"
#include "impls.h"

#define XXH3_ISA_CAT2(a, b) a##b
#define XXH3_ISA_CAT(a, b) XXH3_ISA_CAT2(a, b)

#ifdef XXH3_ISA_BUILT
#define XXH_INLINE_ALL
#include <xxhash.h>

#ifdef __AVX__
#include <immintrin.h>
#endif

/* GCC 12 does not insert vzeroupper on xxhash.h's AVX-512 long-input path
 * (seen in the disassembly), and dirty upper state slows down legacy-SSE
 * code that runs next: clean it here. */
static inline void isa_clean(void)
{
#ifdef __AVX__
	_mm256_zeroupper();
#endif
}

/* Where a file defines XXH3_ISA_PAGE_BYTES, a call of that length runs
 * xxhash.h's long-input routine instantiated for it, as a caller with a
 * constant PAGE_SIZE would get: the header's public entries take the length
 * at run time, so the page's last partial block (15 of its 64 stripes at
 * 4 KiB) runs one stripe per trip of a loop, where with the length known
 * it is unrolled and summed as the full blocks are. The same hash; the
 * routine is the header's own (its internal name, which 0.8.2 changed the
 * accumulate argument of). Only where it measured faster: docs/hashes.md. */
#if defined(XXH3_ISA_PAGE_BYTES) && XXH_VERSION_NUMBER >= 801 && XXH_VERSION_NUMBER < 900
#if XXH_VERSION_NUMBER >= 802
#define ISA_ACCUMULATE XXH3_accumulate
#else
#define ISA_ACCUMULATE XXH3_accumulate_512
#endif
_Static_assert(XXH3_ISA_PAGE_BYTES > XXH3_MIDSIZE_MAX, "the long-input routine is XXH3's above 240 bytes only");
static inline uint64_t isa_64(const void *buf, size_t len)
{
	if (len == XXH3_ISA_PAGE_BYTES)
		return XXH3_hashLong_64b_internal(buf, XXH3_ISA_PAGE_BYTES, XXH3_kSecret, sizeof(XXH3_kSecret),
						  ISA_ACCUMULATE, XXH3_scrambleAcc);
	return XXH3_64bits(buf, len);
}

static inline XXH128_hash_t isa_128(const void *buf, size_t len)
{
	if (len == XXH3_ISA_PAGE_BYTES)
		return XXH3_hashLong_128b_internal(buf, XXH3_ISA_PAGE_BYTES, XXH3_kSecret, sizeof(XXH3_kSecret),
						   ISA_ACCUMULATE, XXH3_scrambleAcc);
	return XXH3_128bits(buf, len);
}
#else
static inline uint64_t isa_64(const void *buf, size_t len)
{
	return XXH3_64bits(buf, len);
}

static inline XXH128_hash_t isa_128(const void *buf, size_t len)
{
	return XXH3_128bits(buf, len);
}
#endif

static uint64_t isa_xxh3(const void *buf, size_t len)
{
	uint64_t h = isa_64(buf, len);
	isa_clean();
	return h;
}

static uint64_t isa_xxh128(const void *buf, size_t len)
{
	uint64_t h = isa_128(buf, len).low64;
	isa_clean();
	return h;
}

static void isa_xxh128_digest(const void *buf, size_t len, uint8_t out[HASH_DIGEST_MAX])
{
	XXH128_canonical_t c;
	XXH128_canonicalFromHash(&c, isa_128(buf, len));
	isa_clean();
	for (int i = 0; i < 16; i++)
		out[i] = c.digest[i];
}
#define XXH3_ISA_FN64 isa_xxh3
#define XXH3_ISA_FN128 isa_xxh128
#define XXH3_ISA_DIGEST isa_xxh128_digest
#else
#define XXH3_ISA_FN64 NULL
#define XXH3_ISA_FN128 NULL
#define XXH3_ISA_DIGEST NULL
#endif

const struct hash_impl XXH3_ISA_CAT(hash_xxh3_, XXH3_ISA) = {
	.name = "xxh3-" XXH3_ISA_STR,
	.description = "XXH3_64bits, seed 0, xxhash.h inlined, " XXH3_ISA_WHAT,
	.family = "xxh3",
	.kernel = { NULL, NULL, NULL, "xxhash.h built in; the kernel has no XXH3" },
	.scheme = HASH_SCHEME_XXH3_VECTOR,
	.vector_bytes = XXH3_ISA_VECTOR_BYTES,
	.bits = 64,
	.provenance = "xxhash.h",
	.cpu_needs = XXH3_ISA_NEEDS,
	.len_multiple = 1,
	.fn = XXH3_ISA_FN64,
};

const struct hash_impl XXH3_ISA_CAT(hash_xxh128_, XXH3_ISA) = {
	.name = "xxh128-" XXH3_ISA_STR,
	.description = "XXH3_128bits, seed 0, xxhash.h inlined, " XXH3_ISA_WHAT,
	.family = "xxh128",
	.kernel = { NULL, NULL, NULL, "xxhash.h built in; the kernel has no XXH3" },
	.scheme = HASH_SCHEME_XXH3_VECTOR,
	.vector_bytes = XXH3_ISA_VECTOR_BYTES,
	.bits = 128,
	.provenance = "xxhash.h",
	.cpu_needs = XXH3_ISA_NEEDS,
	.len_multiple = 1,
	.fn = XXH3_ISA_FN128,
	.digest_wide = XXH3_ISA_DIGEST,
};
