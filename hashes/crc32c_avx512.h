/* VPCLMULQDQ/AVX-512 CRC-32C folding steps shared by crc32c_vpclmul.c and
 * crc32c_fused.c; static inline, so they compile with the including file's
 * flags (-msse4.2 -mpclmul -mavx512f -mvpclmulqdq). Each 512-bit register
 * holds four 128-bit blocks, folded lane by lane (see crc32c_consts.c). */
#ifndef KB_CRC32C_AVX512_H
#define KB_CRC32C_AVX512_H

#include <immintrin.h>

#include "crc32c_consts.h"
#include "crc32c_x86.h"

/* Below this one crc32q stream is as fast or faster (measured at 64 bytes:
 * the reductions cost more than eight dependent crc32q). */
#define CRC32C_VPCLMUL_MIN_BYTES 128

/* CRC-32C register update by vpclmul folding (crc32c_vpclmul.c). */
uint32_t crc32c_vpclmul_update(uint32_t crc, const unsigned char *p, size_t len);

static inline __m512i crc32c_z_pair(const struct crc32c_fold_pair *k)
{
	return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)k));
}

/* x moved forward by the distance of k, plus data: one ternary xor. */
static inline __m512i crc32c_z_fold(__m512i x, __m512i k, __m512i data)
{
	return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00), _mm512_clmulepi64_epi128(x, k, 0x11),
					 data, 0x96);
}

static inline __m512i crc32c_z_load(const unsigned char *p)
{
	return _mm512_loadu_si512((const void *)p);
}

/* Folds the four accumulators x[0..3] (256 consecutive bytes' worth) into one. */
static inline __m512i crc32c_z_merge4(const __m512i x[4])
{
	__m512i k = crc32c_z_pair(&crc32c_fold.f1024);
	__m512i a = crc32c_z_fold(x[0], k, x[2]), b = crc32c_z_fold(x[1], k, x[3]);
	return crc32c_z_fold(a, crc32c_z_pair(&crc32c_fold.f512), b);
}

/* Folds x forward over each following 64-byte block of p[0..len), len a
 * multiple of 64, then reduces its four lanes to one 128-bit block. */
static inline __m128i crc32c_z_finish(__m512i x, const unsigned char *p, size_t len)
{
	__m512i k = crc32c_z_pair(&crc32c_fold.f512);

	for (; len >= 64; len -= 64, p += 64)
		x = crc32c_z_fold(x, k, crc32c_z_load(p));
	/* Lane i moves forward by (3-i) blocks; lane 3's multipliers are zero,
	 * so it is added back as it is. */
	__m512i kl = _mm512_loadu_si512((const void *)crc32c_fold.lanes);
	__m512i t = _mm512_xor_si512(_mm512_clmulepi64_epi128(x, kl, 0x00), _mm512_clmulepi64_epi128(x, kl, 0x11));
	__m128i v = _mm_xor_si128(_mm512_extracti32x4_epi32(t, 0), _mm512_extracti32x4_epi32(t, 1));
	v = _mm_xor_si128(v, _mm512_extracti32x4_epi32(t, 2));
	return _mm_xor_si128(v, _mm512_extracti32x4_epi32(x, 3));
}

/* The first 64 bytes with the running CRC added to their first four: from
 * here on the CRC is just the message's polynomial times x^32 mod P. */
static inline __m512i crc32c_z_first(uint32_t crc, const unsigned char *p)
{
	return _mm512_xor_si512(crc32c_z_load(p), _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)crc)));
}

#endif
