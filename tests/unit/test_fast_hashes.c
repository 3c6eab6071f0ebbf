/* Unit tests of the SIMD implementations: the CRC-32C folding multipliers
 * against a bitwise computation, every crc32c variant against the portable
 * one near each of its thresholds and far beyond the self-test's 4200 bytes,
 * the per-ISA XXH3 builds against libxxhash, and the `best` aliases. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "../../common/err.h"
#include "../../common/prng.h"
#include "../../hashes/crc32c_consts.h"
#include "../../hashes/impls.h"
#include "check.h"
#include "groups.h"

static unsigned char *random_bytes(size_t n, uint64_t seed)
{
	unsigned char *b = malloc(n);
	if (b)
		prng_fill(&seed, b, n);
	return b;
}

/* x^(8L+31) mod P, independently of crc32c_consts.c: the raw (no inversion)
 * table CRC of a 1 bit followed by zeros, L bytes in all, is x^(8L-1) * x^32. */
static uint32_t xpow_by_table(size_t bytes)
{
	unsigned char *m = calloc(bytes, 1);
	m[0] = 1;
	uint32_t r = crc32c_generic_update(0, m, bytes);
	free(m);
	return r;
}

void test_fast_hashes_crc32c_consts(void)
{
	CHECK(crc32c_xpow_mod(0) == 0x80000000u);
	CHECK(crc32c_xpow_mod(31) == 0x00000001u);
	/* x^32 mod P is P without its leading term. */
	CHECK(crc32c_xpow_mod(32) == 0x82f63b78u);
	unsigned bad = 0;
	for (size_t bytes = 1; bytes <= 2000; bytes += 7)
		bad += crc32c_xpow_mod(8 * bytes + 31) != xpow_by_table(bytes);
	CHECK(bad == 0);
	CHECK(crc32c_xpow_mod(8 * 24576 + 31) == xpow_by_table(24576));

	/* The recombination table and the folding pairs are what they claim. */
	bad = 0;
	for (unsigned q = 1; q <= CRC32C_SHIFT_MAX_QWORDS; q++)
		for (unsigned k = 1; k <= 3; k++)
			bad += crc32c_shift_qwords[q][k - 1] != crc32c_xpow_mod(64ull * q * k - 33);
	CHECK(bad == 0);
	CHECK(crc32c_shift_qwords[170][1] == xpow_by_table(2 * 170 * 8 - 8) &&
	      crc32c_shift_qwords[170][1] == crc32c_xpow_mod(2 * 170 * 64 - 33));
	CHECK(crc32c_fold.f2048.lo == crc32c_xpow_mod(2048 + 31) && crc32c_fold.f2048.hi == crc32c_xpow_mod(2048 - 33));
	CHECK(crc32c_fold.f1024.lo == crc32c_xpow_mod(1024 + 31) && crc32c_fold.f1024.hi == crc32c_xpow_mod(1024 - 33));
	CHECK(crc32c_fold.f512.lo == crc32c_xpow_mod(512 + 31) && crc32c_fold.f512.hi == crc32c_xpow_mod(512 - 33));
	CHECK(crc32c_fold.f128.lo == crc32c_xpow_mod(128 + 31) && crc32c_fold.f128.hi == crc32c_xpow_mod(128 - 33));
	CHECK(crc32c_fold.lanes[0].lo == crc32c_xpow_mod(384 + 31) && crc32c_fold.lanes[2].hi == crc32c_xpow_mod(128 - 33));
	CHECK(crc32c_fold.lanes[3].lo == 0 && crc32c_fold.lanes[3].hi == 0);

	/* Shifting is what makes CRCs of pieces combine: crc(A||B) from both. */
	unsigned char *b = random_bytes(3000, 5);
	uint32_t a = crc32c_generic_update(0xffffffffu, b, 1234);
	uint32_t whole = crc32c_generic_update(0xffffffffu, b, 3000);
	CHECK((crc32c_shift_bytes(a, 1766) ^ crc32c_generic_update(0, b + 1234, 1766)) == whole);
	CHECK(crc32c_mulmod(0x80000000u, 0x12345678u) == 0x12345678u);
	free(b);
}

/* Every threshold of the variants: 1-way/3-way at 512, the vector paths at
 * 64/256, the 3-way table's cap, crc32c-fused-avx2's step count changing
 * (128 + 224k bytes), crc32c-fused's threshold (4096), step count
 * (256 + 376k) and 8 KiB chunks (from 12288: a chunk and a page), and
 * crc32c-fused-intel's threshold (4096), step count (256 + 304k) and 16 KiB
 * chunks (from 20480), and crc32c-fused6's step count (256 + 496k: 272 +
 * 496k bytes start a step), tail (0..47 bytes after its six streams) and
 * 32 KiB chunks (from 36864; 32760-32775: a chunk's last step and end at
 * their largest, the shift table's). */
static const size_t crc_lengths[] = {
	0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 79, 80, 127, 128, 129,
	191, 192, 193, 255, 256, 257, 319, 320, 447, 448, 511, 512, 513, 535, 536, 1000, 1023,
	1024, 1025, 1040, 1151, 1247, 1248, 1249, 1152, 1153, 1663, 1664, 1665, 2047, 2048, 3000, 4095, 4096, 4097, 4159, 4160, 4161, 4247, 4248, 4249, 8191, 8192, 8193,
	4351, 4352, 4353, 9215, 9216, 9217, 10239, 10240, 10241, 12288, 16383, 16384, 16385, 17409,
	20479, 20480, 20481, 36863, 36864, 65543, (1u << 20) + 3,
	4391, 4392, 4393, 8151, 8152, 8153, 12287, 12289, 16567, 16568,
	4287, 4288, 4289, 4735, 4736, 4737, 7871, 7872, 7873, 4143, 4144, 4145,
	4239, 4240, 4241, 7215, 7216, 7217, 7711, 7712, 7713, 8183, 8184, 8185,
	16376, 16377, 16391, 32760, 32761, 32767, 32768, 32769, 32775, 36863 + 4096, 65536, 69632,
};

void test_fast_hashes_crc32c(void)
{
	const struct hash_impl *impls[] = { &hash_crc32c_sse42,	     &hash_crc32c_3way,	  &hash_crc32c_3way_fit,
					    &hash_crc32c_vpclmul,    &hash_crc32c_vpclmul_avx2, &hash_crc32c_fused,
					    &hash_crc32c_fused_intel, &hash_crc32c_fused6,
					    &hash_crc32c_fused_avx2, &hash_crc32c_armv8,  &hash_crc32c };
	static const unsigned offsets[] = { 0, 1, 3, 7, 8, 13, 31, 63 };
	size_t max = (1u << 20) + 3 + 64;
	unsigned char *b = random_bytes(max, 77);
	unsigned tested = 0;

	for (size_t i = 0; i < sizeof(impls) / sizeof(impls[0]); i++) {
		const struct hash_impl *h = hash_resolve(impls[i]);
		if (!hash_available(h))
			continue;
		tested++;
		CHECK(h->fn("123456789", 9) == 0xe3069283u);
		for (size_t l = 0; l < sizeof(crc_lengths) / sizeof(crc_lengths[0]); l++) {
			unsigned bad = 0;
			for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++)
				bad += h->fn(b + offsets[o], crc_lengths[l]) != hash_crc32c_generic.fn(b + offsets[o], crc_lengths[l]);
			if (bad)
				fprintf(stderr, "%s differs at length %zu\n", h->name, crc_lengths[l]);
			CHECK(bad == 0);
		}
		/* Every length of a fused chunk's first two steps, whole quadwords
		 * and not: how many steps take a quadword more, the quadwords
		 * after the streams, the bytes after the last quadword. */
		unsigned bad_step = 0;
		for (size_t len = 4096; len < 4096 + 2 * 496; len += 5)
			bad_step += h->fn(b + 3, len) != hash_crc32c_generic.fn(b + 3, len);
		CHECK(bad_step == 0);
		/* All-ones data stresses every carry-less product term. */
		memset(b, 0xff, 4096);
		CHECK(h->fn(b, 4096) == hash_crc32c_generic.fn(b, 4096));
		b = (free(b), random_bytes(max, 77));
	}
	CHECK(tested >= 1); /* at least the alias resolves to something */

	/* crc32c-armv8 recombines without PMULL on CPUs that lack it. */
	struct kb_err err;
	if (hash_available(&hash_crc32c_armv8) && cpu_features_disable("pmull", &err) == 0) {
		unsigned bad = 0;
		for (size_t l = 0; l < sizeof(crc_lengths) / sizeof(crc_lengths[0]); l++)
			bad += hash_crc32c_armv8.fn(b + 5, crc_lengths[l]) != hash_crc32c_generic.fn(b + 5, crc_lengths[l]);
		CHECK(bad == 0);
		cpu_features_enable_all();
	}
	free(b);
}

void test_fast_hashes_xxh3_builds(void)
{
	const struct hash_impl *h64[] = { &hash_xxh3_sse2, &hash_xxh3_avx2, &hash_xxh3_avx512, &hash_xxh3_neon,
					  &hash_xxh3_dispatch, &hash_xxh3_lib };
	const struct hash_impl *h128[] = { &hash_xxh128_sse2, &hash_xxh128_avx2, &hash_xxh128_avx512,
					   &hash_xxh128_neon, &hash_xxh128_lib };
	/* 4096: the AVX-512 builds run a routine instantiated for it. */
	static const size_t lengths[] = { 0, 1, 3, 4, 8, 9, 16, 17, 128, 129, 240, 241, 255, 256, 1023, 1024,
					  1025, 4096, 4097, 100003 };
	unsigned char *b = random_bytes(100003 + 8, 9);

	for (size_t i = 0; i < sizeof(h64) / sizeof(h64[0]); i++) {
		if (!hash_available(h64[i]))
			continue;
		unsigned bad = 0;
		for (size_t l = 0; l < sizeof(lengths) / sizeof(lengths[0]); l++)
			for (unsigned off = 0; off < 8; off += 3)
				bad += h64[i]->fn(b + off, lengths[l]) != XXH3_64bits(b + off, lengths[l]);
		CHECK(bad == 0);
	}
	for (size_t i = 0; i < sizeof(h128) / sizeof(h128[0]); i++) {
		if (!hash_available(h128[i]))
			continue;
		unsigned bad = 0;
		for (size_t l = 0; l < sizeof(lengths) / sizeof(lengths[0]); l++) {
			XXH128_canonical_t want;
			uint8_t got[HASH_DIGEST_MAX];
			XXH128_canonicalFromHash(&want, XXH3_128bits(b + 1, lengths[l]));
			h128[i]->digest_wide(b + 1, lengths[l], got);
			bad += memcmp(got, want.digest, 16) != 0;
			bad += h128[i]->fn(b + 1, lengths[l]) != XXH3_128bits(b + 1, lengths[l]).low64;
		}
		CHECK(bad == 0);
	}
	/* Every entry exists on every architecture, built or not. */
	CHECK(hash_find("xxh3-avx512") && hash_find("xxh3-neon") && hash_find("xxh128-sse2"));
	CHECK(hash_find("crc32c-armv8") && hash_find("crc32c-fused") && hash_find("xxh3-dispatch"));
	free(b);
}

void test_fast_hashes_best_aliases(void)
{
	struct kb_err err;
	const struct hash_impl *c = hash_resolve(&hash_crc32c);
	const struct hash_impl *x = hash_resolve(&hash_xxh3);

	/* The aliases always land on something this CPU runs, of their family. */
	CHECK(hash_available(c) && strcmp(c->family, "crc32c") == 0);
	CHECK(hash_available(x) && strcmp(x->family, "xxh3") == 0);
	CHECK(hash_available(hash_resolve(&hash_xxh128)) && strcmp(hash_resolve(&hash_xxh128)->family, "xxh128") == 0);
	CHECK(hash_select("crc32c", &err) != NULL && hash_select("xxh3", &err) != NULL);
#if defined(__x86_64__)
	/* As features go away (an older CPU), the choice stays runnable. */
	static const char *const masks[] = { "avx512f", "avx2,pclmulqdq", "sse4.2,sse2" };
	for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		CHECK(cpu_features_disable(masks[i], &err) == 0);
		CHECK(hash_available(hash_resolve(&hash_crc32c)) && hash_available(hash_resolve(&hash_xxh3)));
		CHECK(hash_available(hash_resolve(&hash_xxh128)));
	}
	/* Without SSE4.2 or SSE2 the portable entries are all that is left. */
	CHECK(hash_resolve(&hash_crc32c) == &hash_crc32c_generic);
	CHECK(hash_resolve(&hash_xxh3) == &hash_xxh3_lib);
	cpu_features_enable_all();
#endif
	CHECK(hash_resolve(&hash_crc32c) == c);
}
