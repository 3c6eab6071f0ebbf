/* Small x86-64 CRC-32C helpers shared by the crc32q-based implementations;
 * static inline so each including translation unit compiles them with its
 * own target flags (at least -msse4.2 -mpclmul). */
#ifndef KB_CRC32C_X86_H
#define KB_CRC32C_X86_H

#include <stdint.h>
#include <string.h>
#include <nmmintrin.h>
#include <wmmintrin.h>

static inline uint64_t crc32c_load64(const unsigned char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
	return w;
}

/* One crc32q stream, then the last 0..7 bytes (shaped like crc32c_sse42.c,
 * so that short inputs cost the same in every variant). */
static inline uint32_t crc32c_x86_1way(uint32_t crc, const unsigned char *p, size_t len)
{
	uint64_t c = crc;

	for (; len >= 8; len -= 8, p += 8)
		c = _mm_crc32_u64(c, crc32c_load64(p));
	crc = (uint32_t)c;
	for (; len >= 4; len -= 4, p += 4) {
		uint32_t w;
		memcpy(&w, p, 4);
		crc = _mm_crc32_u32(crc, w);
	}
	while (len--)
		crc = _mm_crc32_u8(crc, *p++);
	return crc;
}

/* a*ka + b*kb + c*kc, reduced mod P by one crc32q (see crc32c_consts.c):
 * with each k = x^(8n-33) this moves a, b and c forward by their n bytes. */
static inline uint32_t crc32c_x86_recombine3(uint32_t a, uint32_t ka, uint32_t b, uint32_t kb, uint32_t c, uint32_t kc)
{
	__m128i ab = _mm_set_epi64x(b, a), kab = _mm_set_epi64x(kb, ka);
	__m128i m = _mm_xor_si128(_mm_clmulepi64_si128(ab, kab, 0x00), _mm_clmulepi64_si128(ab, kab, 0x11));
	m = _mm_xor_si128(m, _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)c), _mm_cvtsi32_si128((int)kc), 0x00));
	return (uint32_t)_mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(m));
}

/* The CRC register contribution of a 128-bit folded block: its low lane
 * stands for the higher powers, so it goes into crc32q first. */
static inline uint32_t crc32c_x86_reduce128(__m128i v)
{
	uint64_t lo = (uint64_t)_mm_cvtsi128_si64(v), hi = (uint64_t)_mm_extract_epi64(v, 1);
	return (uint32_t)_mm_crc32_u64(_mm_crc32_u64(0, lo), hi);
}

#endif
