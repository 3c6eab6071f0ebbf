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

/* The lane steps of a fused loop step that run after fold i of 4, for k a
 * step: [i*k/4, (i+1)*k/4), so that they spread evenly over the folds
 * (k = 2: after the second and fourth; k = 5: one after each, two after
 * the last). */
#define CRC32C_Z_LANES_AFTER(i, k)                                              \
	for (unsigned j_ = (i) * (k) / 4; j_ < ((i) + 1) * (k) / 4; j_++) \
	CRC32C_LANES3_STEP(j_)

/* One chunk of a fused CRC-32C: each loop step folds 256 bytes with four
 * zmm accumulators (8 vpclmulqdq) and advances three crc32q streams by k
 * quadwords each; the streams' remaining quadwords run after the loop,
 * beside the vector part's merge and reduction, then the four CRCs are
 * joined. k is a constant in each caller, so the steps unroll: k sets the
 * balance between the multipliers and the crc32 unit (hashes/crc32c_fused.c,
 * hashes/crc32c_fused_intel.c). len >= 256 + 256 + 24 * k, and at most the
 * length whose streams fit the shift table (CRC32C_SHIFT_MAX_QWORDS). */
static inline __attribute__((always_inline)) uint32_t crc32c_z_fused_chunk(uint32_t crc, const unsigned char *buf,
									   size_t len, unsigned k)
{
	size_t steps = (len - 256) / (256 + 24 * k), vec = 256 + 256 * steps;
	size_t q = (len - vec) / 24; /* at least k per step; the rest after the loop */
	const unsigned char *s = buf + vec, *tail = s + 24 * q; /* the three streams start at s, s+8q, s+16q */
	size_t tail_len = len - vec - 24 * q;
	/* The streams' positions and CRCs as CRC32C_LANES3_STEP names them. */
	const unsigned char *p = s, *b = s + 8 * q, *c = s + 16 * q;
	uint64_t c0 = 0, c1 = 0, c2 = 0;

	__m512i a0 = crc32c_z_first(crc, buf), a1 = crc32c_z_load(buf + 64), a2 = crc32c_z_load(buf + 128),
		a3 = crc32c_z_load(buf + 192);
	__m512i kf = crc32c_z_pair(&crc32c_fold.f2048);
	const unsigned char *v = buf + 256;

	for (size_t n = 0; n < steps; n++, v += 256, p += 8 * k, b += 8 * k, c += 8 * k) {
		a0 = crc32c_z_fold(a0, kf, crc32c_z_load(v));
		CRC32C_Z_LANES_AFTER(0, k);
		a1 = crc32c_z_fold(a1, kf, crc32c_z_load(v + 64));
		CRC32C_Z_LANES_AFTER(1, k);
		a2 = crc32c_z_fold(a2, kf, crc32c_z_load(v + 128));
		CRC32C_Z_LANES_AFTER(2, k);
		a3 = crc32c_z_fold(a3, kf, crc32c_z_load(v + 192));
		CRC32C_Z_LANES_AFTER(3, k);
	}
	for (; p < s + 8 * q; p += 8, b += 8, c += 8)
		CRC32C_LANES3_STEP(0);
	__m512i acc[4] = { a0, a1, a2, a3 };
	uint32_t cv = crc32c_x86_reduce128(crc32c_z_finish(crc32c_z_merge4(acc), v, (size_t)(s - v)));
	return crc32c_x86_streams3_join(cv, q, c0, c1, c2, tail, tail_len);
}

#endif
