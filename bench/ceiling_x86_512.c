/* The 512-bit micro-loops of bench/ceiling.c (see ceiling_vec.h). Built with
 * -msse4.2 -mpclmul -mavx512f -mvpclmulqdq, x86-64 only; run only where
 * CPUID and XGETBV report AVX-512F and VPCLMULQDQ. */
#include "ceiling_probes.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define V __m512i
#define CEIL_W 64
#define CEIL_SUFFIX zmm
#define CEIL_XXH3_STRIPE_UNROLL 16
#define VLOAD(p) _mm512_loadu_si512((const void *)(p))
#define VXOR _mm512_xor_si512
#define VHI32(a) _mm512_shuffle_epi32(a, (_MM_PERM_ENUM)0x31)
#define VSRL47(a) _mm512_srli_epi64(a, 47)
#define VSLL32(a) _mm512_slli_epi64(a, 32)
#define VMUL32 _mm512_mul_epu32
#define VSHUF(a) _mm512_shuffle_epi32(a, (_MM_PERM_ENUM)0x4e)
#define VADD _mm512_add_epi64
#define VCLMUL(a, k) _mm512_clmulepi64_epi128(a, k, 0x00)
#define VCLMULHI(a, k) _mm512_clmulepi64_epi128(a, k, 0x11)
#define VSET1(x) _mm512_set1_epi64((long long)(x))
#define VLOW64(a) ((uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(a)))
#include "ceiling_vec.h"
#endif
