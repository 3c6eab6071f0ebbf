/* The xxHash family from the system's libxxhash, seed 0 as KSM uses it. */
#include <xxhash.h>

#include "hash.h"
#include "impls.h"

static uint64_t lib_xxh32(const void *buf, size_t len)
{
	return XXH32(buf, len, 0);
}

static uint64_t lib_xxh64(const void *buf, size_t len)
{
	return XXH64(buf, len, 0);
}

static uint64_t lib_xxh3(const void *buf, size_t len)
{
	return XXH3_64bits(buf, len);
}

static uint64_t lib_xxh128(const void *buf, size_t len)
{
	return XXH3_128bits(buf, len).low64;
}

static void lib_xxh128_digest(const void *buf, size_t len, uint8_t out[HASH_DIGEST_MAX])
{
	XXH128_canonical_t c;
	XXH128_canonicalFromHash(&c, XXH3_128bits(buf, len));
	for (int i = 0; i < 16; i++)
		out[i] = c.digest[i];
}

const struct hash_impl hash_xxh32 = {
	.name = "xxh32",
	.description = "XXH32, seed 0: the kernel's xxhash() on 32-bit",
	.family = "xxh32",
	.kernel = { "xxh32()", "4.14", NULL, "lib/xxhash.c since 4.14; KSM's checksum through xxhash() on 32-bit since 5.0" },
	.bits = 32,
	.provenance = "libxxhash",
	.len_multiple = 1,
	.fn = lib_xxh32,
};

const struct hash_impl hash_xxh64 = {
	.name = "xxh64",
	.description = "XXH64, seed 0: the kernel's xxhash() on 64-bit",
	.family = "xxh64",
	.kernel = { "xxh64()", "4.14", NULL, "lib/xxhash.c since 4.14; KSM's checksum through xxhash() on 64-bit since 5.0" },
	.bits = 64,
	.provenance = "libxxhash",
	.len_multiple = 1,
	.fn = lib_xxh64,
};

const struct hash_impl hash_xxh3_lib = {
	.name = "xxh3-lib",
	.description = "XXH3_64bits, seed 0, libxxhash's plain entry point (its SSE2 baseline on x86-64)",
	.family = "xxh3",
	.kernel = { NULL, NULL, NULL, "libxxhash; the kernel has no XXH3" },
	.scheme = HASH_SCHEME_XXH3_VECTOR,
	.vector_bytes = 16,
	.bits = 64,
	.provenance = "libxxhash",
	.len_multiple = 1,
	.fn = lib_xxh3,
};

const struct hash_impl hash_xxh128_lib = {
	.name = "xxh128-lib",
	.description = "XXH3_128bits, seed 0, libxxhash's plain entry point (128-bit digest; low 64 bits as the value)",
	.family = "xxh128",
	.kernel = { NULL, NULL, NULL, "libxxhash; the kernel has no XXH3" },
	.scheme = HASH_SCHEME_XXH3_VECTOR,
	.vector_bytes = 16,
	.bits = 128,
	.provenance = "libxxhash",
	.len_multiple = 1,
	.fn = lib_xxh128,
	.digest_wide = lib_xxh128_digest,
};
