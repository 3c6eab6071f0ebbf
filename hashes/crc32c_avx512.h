/* VPCLMULQDQ/AVX-512 CRC-32C folding steps shared by crc32c_vpclmul.c and
 * crc32c_fused.c; static inline, so they compile with the including file's
 * flags (-msse4.2 -mpclmul -mavx512f -mvpclmulqdq). Each 512-bit register
 * holds four 128-bit blocks, folded lane by lane (see crc32c_consts.c). */
#ifndef KB_CRC32C_AVX512_H
#define KB_CRC32C_AVX512_H

#include <immintrin.h>

#include "crc32c_consts.h"
#include "crc32c_x86.h"
#include "impls.h"

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

/* One quadword of each of a fused chunk's streams (S of them, 3 or 6, at
 * p, p + st, p + 2 st and p2, p2 + st, p2 + 2 st: base plus scaled index,
 * no pointer of their own to advance), written out so that the unrolled
 * loop has no inner loop bookkeeping. */
#define CRC32C_Z_STREAMS_STEP(j, S)                                               \
	do {                                                                      \
		c0 = _mm_crc32_u64(c0, crc32c_load64(p + 8 * (j)));              \
		c1 = _mm_crc32_u64(c1, crc32c_load64(p + st + 8 * (j)));         \
		c2 = _mm_crc32_u64(c2, crc32c_load64(p + 2 * st + 8 * (j)));     \
		if ((S) == 6) {                                                   \
			c3 = _mm_crc32_u64(c3, crc32c_load64(p2 + 8 * (j)));          \
			c4 = _mm_crc32_u64(c4, crc32c_load64(p2 + st + 8 * (j)));     \
			c5 = _mm_crc32_u64(c5, crc32c_load64(p2 + 2 * st + 8 * (j))); \
		}                                                                 \
	} while (0)

/* The stream steps of a fused loop step that run after fold i of 4, for k
 * a step: [i*k/4, (i+1)*k/4), so that they spread evenly over the folds
 * (k = 2: after the second and fourth; k = 5: one after each, two after
 * the last). */
#define CRC32C_Z_STEPS_AFTER(i, k, S)                                     \
	_Pragma("GCC unroll 8")                                           \
	for (unsigned j_ = (i) * (k) / 4; j_ < ((i) + 1) * (k) / 4; j_++) \
	CRC32C_Z_STREAMS_STEP(j_, S)

/* One fused loop step: four folds of 256 bytes, each followed by its share
 * of kk quadwords of each of the S streams. */
#define CRC32C_Z_FUSED_STEP(kk, S)                                  \
	do {                                                        \
		a0 = crc32c_z_fold(a0, kf, crc32c_z_load(v));       \
		CRC32C_Z_STEPS_AFTER(0, kk, S);                     \
		a1 = crc32c_z_fold(a1, kf, crc32c_z_load(v + 64));  \
		CRC32C_Z_STEPS_AFTER(1, kk, S);                     \
		a2 = crc32c_z_fold(a2, kf, crc32c_z_load(v + 128)); \
		CRC32C_Z_STEPS_AFTER(2, kk, S);                     \
		a3 = crc32c_z_fold(a3, kf, crc32c_z_load(v + 192)); \
		CRC32C_Z_STEPS_AFTER(3, kk, S);                     \
	} while (0)

/* The eight multipliers sh[n..n+7] as a register's 64-bit lanes, the
 * first in the highest: one widening load and one permute, where eight
 * scalar loads and inserts took four more TSC cycles a 4 KiB call. */
static inline __m512i crc32c_z_shift8(const uint32_t *sh)
{
	__m512i k = _mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)(const void *)sh));
	return _mm512_permutexvar_epi64(_mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7), k);
}

/* The end of a fused chunk of len bytes (a multiple of 8) at buf: x, the
 * vector part's four accumulators merged, covers the 64 bytes before buf +
 * vec; then S streams of q quadwords with CRCs c[0..S) (from zero), the
 * last of them carried on to 16 bytes before the end. Everything rides
 * into the two crc32q of those last 16 bytes (crc32q(c, d ^ m) =
 * crc32q(c, d) ^ crc32q(0, m)): x's lanes folded straight onto them, each
 * other stream's CRC multiplied by its distance to the end. So there is no
 * reduction to 32 bits and no recombination after the vector part, whose
 * lanes arrive last (docs/hashes.md). The streams' products go in the
 * 128-bit lanes of one register, stream i in lane i mod 4 (c[4] in lane
 * 0's high half), so that two multiplies make them all, and land in the
 * low quadword of the last 16 bytes (hence one x^64 less: sh[n - 1]); the
 * lane fold's sum takes them in. m = (len - vec) / 8 <=
 * CRC32C_SHIFT_N_MAX - 7. */
static inline __attribute__((always_inline)) uint32_t crc32c_z_fused_end(__m512i x, const unsigned char *buf,
									 size_t len, size_t vec, size_t q, unsigned S,
									 const uint64_t *c)
{
	const uint32_t *sh = crc32c_shift_n;
	size_t m = (len - vec) / 8, tq = m - S * q; /* quadwords after the streams */
/* Stream i's CRC and multiplier, or 0 where there is no such stream. */
#define CRC32C_Z_END_C(i) ((i) + 1 < S ? (long long)c[i] : 0LL)
#define CRC32C_Z_END_K(i) ((i) + 1 < S ? (long long)sh[(S - 1 - (i)) * q + tq - 1] : 0LL)
	__m512i cz = _mm512_set_epi64(0, CRC32C_Z_END_C(3), 0, CRC32C_Z_END_C(2), 0, CRC32C_Z_END_C(1),
				      CRC32C_Z_END_C(4), CRC32C_Z_END_C(0));
	__m512i kz = _mm512_set_epi64(0, CRC32C_Z_END_K(3), 0, CRC32C_Z_END_K(2), 0, CRC32C_Z_END_K(1),
				      CRC32C_Z_END_K(4), CRC32C_Z_END_K(0));
#undef CRC32C_Z_END_C
#undef CRC32C_Z_END_K
	__m512i mm = _mm512_clmulepi64_epi128(cz, kz, 0x00);
	if (S == 6)
		mm = _mm512_xor_si512(mm, _mm512_clmulepi64_epi128(cz, kz, 0x11));
	const unsigned char *e = buf + len - 16;
	uint64_t cl = c[S - 1];
	for (const unsigned char *t = buf + vec + 8 * S * q; t < e; t += 8)
		cl = _mm_crc32_u64(cl, crc32c_load64(t));
	/* Lane j lies 8 (m + 6 - 2j) bytes before the last 16: the pair that
	 * folds a 128-bit block forward by F = 64 n bits is {x^(F+31),
	 * x^(F-33)} = {sh[n + 1], sh[n]}. */
	__m512i kl = crc32c_z_shift8(sh + m);
	__m512i t = _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, kl, 0x00),
					      _mm512_clmulepi64_epi128(x, kl, 0x11), mm, 0x96);
	__m256i h = _mm256_xor_si256(_mm512_castsi512_si256(t), _mm512_extracti64x4_epi64(t, 1));
	__m128i w = _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
	w = _mm_xor_si128(w, _mm_loadu_si128((const __m128i *)(const void *)e));
	cl = _mm_crc32_u64(cl, (uint64_t)_mm_cvtsi128_si64(w));
	return (uint32_t)_mm_crc32_u64(cl, (uint64_t)_mm_extract_epi64(w, 1));
}

/* One chunk of a fused CRC-32C: each loop step folds 256 bytes with four
 * zmm accumulators (8 vpclmulqdq) and advances S crc32q streams (3, or 6
 * for cores with two crc32 units) by k quadwords each; the streams'
 * remaining quadwords run after the loop, beside the vector part's merge
 * and reduction, then the CRCs are joined (crc32c_x86_streams_join). k
 * and S are constants in each caller, so the steps unroll and the unused
 * streams vanish: they set the balance between the multipliers and the
 * crc32 units (hashes/crc32c_fused.c, _fused_intel.c, _fused6.c).
 * len >= 256 + 256 +
 * 8 * S * k, and at most the length whose S streams fit the shift table
 * (S * q <= CRC32C_SHIFT_N_MAX). */
static inline __attribute__((always_inline)) uint32_t crc32c_z_fused_chunk(uint32_t crc, const unsigned char *buf,
									   size_t len, unsigned k, unsigned S)
{
	size_t steps = (len - 256) / (256 + 8 * S * k), vec = 256 + 256 * steps;
	size_t q = (len - vec) / (8 * S), st = 8 * q; /* at least k per step; the rest after the loop */
	const unsigned char *s = buf + vec, *tail = s + S * st;
	size_t tail_len = len - vec - S * st;
	const unsigned char *p = s, *p2 = s + 3 * st;
	uint64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0;

	__m512i a0 = crc32c_z_first(crc, buf), a1 = crc32c_z_load(buf + 64), a2 = crc32c_z_load(buf + 128),
		a3 = crc32c_z_load(buf + 192);
	__m512i kf = crc32c_z_pair(&crc32c_fold.f2048);
	const unsigned char *v = buf + 256;

	for (size_t n = 0; n < steps; n++, v += 256, p += 8 * k, p2 += 8 * k)
		CRC32C_Z_FUSED_STEP(k, S);
	for (; p < s + st; p += 8, p2 += 8)
		CRC32C_Z_STREAMS_STEP(0, S);
	__m512i acc[4] = { a0, a1, a2, a3 };
	uint32_t cv = crc32c_x86_reduce128(crc32c_z_finish(crc32c_z_merge4(acc), v, (size_t)(s - v)));
	return crc32c_x86_streams_join(cv, q, S, (const uint64_t[]){ c0, c1, c2, c3, c4, c5 }, tail, tail_len);
}

/* crc32c_z_fused_chunk with the streams' quadwords all inside the loop:
 * the first steps advance each stream by k + 1 quadwords, as many steps as
 * the streams' length needs, and the end is crc32c_z_fused_end, so that
 * nothing but the vector part's merge is left after the loop. With k = 4
 * the two together took 0.95 of the time of a 4 KiB call of
 * crc32c-fused6, the end alone 1.00; crc32c-fused6 now runs k = 5, so that
 * at 4 KiB every step takes 6 (18 cycles of dependent crc32q against the
 * multiplies' 16, but a step less: 0.94-0.96 of the time). The 3-stream
 * entries keep crc32c_z_fused_chunk: given this end, or one function for
 * both, crc32c-fused lost 1-3% (docs/hashes.md). len >= 256 + 256 + 8 * S
 * * k + 16 + 7, and at most the length whose end fits the shift table
 * (crc32c_z_fused_end). */
static inline __attribute__((always_inline)) uint32_t crc32c_z_fused_chunk_wide(uint32_t crc,
										const unsigned char *buf, size_t len,
										unsigned k, unsigned S)
{
	size_t len8 = len - len % 8; /* whole quadwords, the last 16 bytes kept for the end */
	size_t steps = (len8 - 256 - 16) / (256 + 8 * S * k), vec = 256 + 256 * steps;
	size_t q = (len8 - vec - 16) / (8 * S), st = 8 * q; /* at least k per step */
	size_t wide = q - k * steps < steps ? q - k * steps : steps; /* steps of k + 1 */
	const unsigned char *s = buf + vec, *p = s, *p2 = s + 3 * st;
	uint64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0;

	__m512i a0 = crc32c_z_first(crc, buf), a1 = crc32c_z_load(buf + 64), a2 = crc32c_z_load(buf + 128),
		a3 = crc32c_z_load(buf + 192);
	__m512i kf = crc32c_z_pair(&crc32c_fold.f2048);
	const unsigned char *v = buf + 256;

	for (size_t n = 0; n < wide; n++, v += 256, p += 8 * (k + 1), p2 += 8 * (k + 1))
		CRC32C_Z_FUSED_STEP(k + 1, S);
	for (size_t n = wide; n < steps; n++, v += 256, p += 8 * k, p2 += 8 * k)
		CRC32C_Z_FUSED_STEP(k, S);
	for (; p < s + st; p += 8, p2 += 8)
		CRC32C_Z_STREAMS_STEP(0, S);
	__m512i acc[4] = { a0, a1, a2, a3 };
	uint32_t crc8 = crc32c_z_fused_end(crc32c_z_merge4(acc), buf, len8, vec, q, S,
					   (const uint64_t[]){ c0, c1, c2, c3, c4, c5 });
	return len8 < len ? crc32c_x86_1way(crc8, buf + len8, len - len8) : crc8;
}

/* A fused entry's functions, fn and its helpers: inputs shorter than
 * CRC32C_VPCLMUL_MIN_BYTES by crc32c-3way-fit's code (the entry tests for
 * them first, so that that path saves no registers), a page by fn_page
 * (CRC32C_X86_PAGE_BYTES: the chunk at a constant length), those shorter than
 * min_bytes by crc32c-vpclmul's (called from the entry: through the long
 * path, whose frame the fused chunk sets up, 256 bytes took 16% longer
 * than crc32c-vpclmul's own entry), longer ones through crc32c_x86_fused()
 * in chunks of body(k, S) (crc32c_z_fused_chunk or _chunk_wide) of at
 * most chunk_bytes, a rest below min_bytes again by crc32c-vpclmul's code.
 * The long path starts on a 64-byte boundary: where the entry's code
 * moved it 32 bytes on, a 4 KiB call of crc32c-fused6 ran 5% slower. */
#define CRC32C_Z_FUSED_ENTRY(fn, body, k, S, chunk_bytes, min_bytes)                                        \
	static inline uint32_t fn##_chunk(uint32_t crc, const unsigned char *buf, size_t len)               \
	{                                                                                                   \
		return body(crc, buf, len, k, S);                                                           \
	}                                                                                                   \
	__attribute__((noinline, aligned(64))) static uint64_t fn##_page(const void *buf)                    \
	{                                                                                                   \
		return body(0xffffffffu, buf, CRC32C_X86_PAGE_BYTES, k, S) ^ 0xffffffffu;                   \
	}                                                                                                   \
	__attribute__((noinline, flatten, aligned(64))) static uint64_t fn##_long(const void *buf, size_t len) \
	{                                                                                                   \
		return crc32c_x86_fused(0xffffffffu, buf, len, chunk_bytes, min_bytes, fn##_chunk,          \
					crc32c_vpclmul_update) ^                                            \
		       0xffffffffu;                                                                         \
	}                                                                                                   \
	static uint64_t fn(const void *buf, size_t len)                                                     \
	{                                                                                                   \
		if (__builtin_expect(len < CRC32C_VPCLMUL_MIN_BYTES, 1))                                    \
			return crc32c_fit_oneshot(buf, len);                                                \
		if (crc32c_x86_is_page(len, min_bytes, chunk_bytes))                                        \
			return fn##_page(buf);                                                              \
		if (len < (min_bytes))                                                                      \
			return crc32c_vpclmul_update(0xffffffffu, buf, len) ^ 0xffffffffu;                  \
		return fn##_long(buf, len);                                                                 \
	}

#endif
