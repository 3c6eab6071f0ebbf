/* The 128-bit micro-loops of bench/ceiling.c (see ceiling_vec.h), crc32q
 * throughput, latency, and a page's chain called back to back. Built with -msse4.2
 * -mpclmul, x86-64 only; run only where CPUID reports SSE4.2 and PCLMULQDQ. */
#include "ceiling_probes.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#include <wmmintrin.h>

#define V __m128i
#define CEIL_W 16
#define CEIL_SUFFIX xmm
#define CEIL_XXH3_STRIPE_UNROLL 2
#define VLOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define VXOR _mm_xor_si128
#define VHI32(a) _mm_shuffle_epi32(a, 0x31)
#define VSRL47(a) _mm_srli_epi64(a, 47)
#define VSLL32(a) _mm_slli_epi64(a, 32)
#define VMUL32 _mm_mul_epu32
#define VSHUF(a) _mm_shuffle_epi32(a, 0x4e)
#define VADD _mm_add_epi64
#define VCLMUL(a, k) _mm_clmulepi64_si128(a, k, 0x00)
#define VCLMULHI(a, k) _mm_clmulepi64_si128(a, k, 0x11)
#define VSET1(x) _mm_set1_epi64x((long long)(x))
#define VLOW64(a) ((uint64_t)_mm_cvtsi128_si64(a))
#include "ceiling_vec.h"

void ceiling_crc32_tput(uint64_t iters, uint64_t *sink)
{
	uint64_t c0 = *sink, c1 = 2, c2 = 3, c3 = 4, c4 = 5, c5 = 6, c6 = 7, c7 = 8, c8 = 9, c9 = 10, c10 = 11, c11 = 12;

	for (uint64_t i = 0; i < iters; i++) {
		c0 = _mm_crc32_u64(c0, i); c1 = _mm_crc32_u64(c1, i); c2 = _mm_crc32_u64(c2, i);
		c3 = _mm_crc32_u64(c3, i); c4 = _mm_crc32_u64(c4, i); c5 = _mm_crc32_u64(c5, i);
		c6 = _mm_crc32_u64(c6, i); c7 = _mm_crc32_u64(c7, i); c8 = _mm_crc32_u64(c8, i);
		c9 = _mm_crc32_u64(c9, i); c10 = _mm_crc32_u64(c10, i); c11 = _mm_crc32_u64(c11, i);
	}
	*sink += c0 ^ c1 ^ c2 ^ c3 ^ c4 ^ c5 ^ c6 ^ c7 ^ c8 ^ c9 ^ c10 ^ c11;
}

void ceiling_crc32_lat(uint64_t iters, uint64_t *sink)
{
	uint64_t c = *sink;

	/* Each crc32q takes the last one's result as both inputs. */
	for (uint64_t i = 0; i < iters; i++) {
		c = _mm_crc32_u64(c, c); c = _mm_crc32_u64(c, c); c = _mm_crc32_u64(c, c);
		c = _mm_crc32_u64(c, c); c = _mm_crc32_u64(c, c); c = _mm_crc32_u64(c, c);
		c = _mm_crc32_u64(c, c); c = _mm_crc32_u64(c, c);
	}
	*sink += c;
}

void ceiling_crc32_page_chain(uint64_t iters, uint64_t *sink)
{
	uint64_t acc = *sink;

	/* One dependent chain over a 4 KiB page a call, unrolled by four as
	 * crc32c_x86_1way_x4: the fewest instructions a crc32q, so the most
	 * overlap, and a bound for the kernel's loop too. Each chain starts
	 * from its own seed, not from the last chain's end, so that the next
	 * call's first crc32q may start while this one's last are still
	 * waiting, as far as the out-of-order window reaches. */
	for (uint64_t i = 0; i < iters; i++) {
		uint64_t c = i;
		for (size_t q = 0; q < CEILING_PAGE_QWORDS; q += 4) {
			const unsigned char *p = ceiling_l1_buf + 8 * q;
			c = _mm_crc32_u64(c, ceil_load64(p));
			c = _mm_crc32_u64(c, ceil_load64(p + 8));
			c = _mm_crc32_u64(c, ceil_load64(p + 16));
			c = _mm_crc32_u64(c, ceil_load64(p + 24));
		}
		acc ^= c;
	}
	*sink = acc;
}

#endif
