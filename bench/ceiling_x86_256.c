/* The 256-bit micro-loops of bench/ceiling.c (see ceiling_vec.h). Built with
 * -msse4.2 -mpclmul -mavx2 -mvpclmulqdq, x86-64 only; run only where CPUID
 * and XGETBV report AVX2 and VPCLMULQDQ (the multiply, XXH3 and load loops
 * need AVX2 alone). */
#include "ceiling_probes.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define V __m256i
#define CEIL_W 32
#define CEIL_SUFFIX ymm
#define CEIL_XXH3_STRIPE_UNROLL 2
#define VLOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define VXOR _mm256_xor_si256
#define VHI32(a) _mm256_shuffle_epi32(a, 0x31)
#define VSRL47(a) _mm256_srli_epi64(a, 47)
#define VSLL32(a) _mm256_slli_epi64(a, 32)
#define VMUL32 _mm256_mul_epu32
#define VSHUF(a) _mm256_shuffle_epi32(a, 0x4e)
#define VADD _mm256_add_epi64
#define VCLMUL(a, k) _mm256_clmulepi64_epi128(a, k, 0x00)
#define VCLMULHI(a, k) _mm256_clmulepi64_epi128(a, k, 0x11)
#define VSET1(x) _mm256_set1_epi64x((long long)(x))
#define VLOW64(a) ((uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(a)))
#include "ceiling_vec.h"
#endif
