/* VPCLMULQDQ CRC-32C folding steps on 256-bit registers, shared by
 * crc32c_vpclmul_avx2.c and crc32c_fused_avx2.c; static inline, so they
 * compile with the including file's flags (-msse4.2 -mpclmul -mavx2
 * -mvpclmulqdq). Each register holds two 128-bit blocks folded lane by lane
 * (see crc32c_consts.c); AVX2 has no ternary logic, so a fold is two xors. */
#ifndef KB_CRC32C_AVX2_H
#define KB_CRC32C_AVX2_H

#include <immintrin.h>

#include "crc32c_consts.h"
#include "crc32c_x86.h"

/* CRC-32C register update by 256-bit folding (crc32c_vpclmul_avx2.c). */
uint32_t crc32c_vpclmul_avx2_update(uint32_t crc, const unsigned char *p, size_t len);

static inline __m256i crc32c_y_pair(const struct crc32c_fold_pair *k)
{
	return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)k));
}

/* x moved forward by the distance of k, plus data. */
static inline __m256i crc32c_y_fold(__m256i x, __m256i k, __m256i data)
{
	__m256i lo = _mm256_clmulepi64_epi128(x, k, 0x00), hi = _mm256_clmulepi64_epi128(x, k, 0x11);
	return _mm256_xor_si256(_mm256_xor_si256(lo, hi), data);
}

static inline __m256i crc32c_y_load(const unsigned char *p)
{
	return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

/* The first 32 bytes with the running CRC added to their first four. */
static inline __m256i crc32c_y_first(uint32_t crc, const unsigned char *p)
{
	return _mm256_xor_si256(crc32c_y_load(p), _mm256_set_epi32(0, 0, 0, 0, 0, 0, 0, (int)crc));
}

/* Folds four accumulators (128 consecutive bytes' worth) into one. */
static inline __m256i crc32c_y_merge4(const __m256i x[4])
{
	__m256i k = crc32c_y_pair(&crc32c_fold.f512);
	__m256i a = crc32c_y_fold(x[0], k, x[2]), b = crc32c_y_fold(x[1], k, x[3]);
	return crc32c_y_fold(a, crc32c_y_pair(&crc32c_fold.f256), b);
}

/* Folds x over each following 32-byte block of p[0..len), len a multiple of
 * 32, then its low lane onto its high one: one 128-bit block. */
static inline __m128i crc32c_y_finish(__m256i x, const unsigned char *p, size_t len)
{
	__m256i k = crc32c_y_pair(&crc32c_fold.f256);

	for (; len >= 32; len -= 32, p += 32)
		x = crc32c_y_fold(x, k, crc32c_y_load(p));
	__m128i lo = _mm256_castsi256_si128(x), hi = _mm256_extracti128_si256(x, 1);
	__m128i k128 = _mm_loadu_si128((const __m128i *)(const void *)&crc32c_fold.f128);
	return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(lo, k128, 0x00), _mm_clmulepi64_si128(lo, k128, 0x11)),
			     hi);
}

#endif
