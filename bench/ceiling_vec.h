/* Body of the vector micro-loops of one register width: bench/ceiling_x86_
 * 128.c, _256.c and _512.c define the operations below for their width and
 * include this, each compiled with its own target flags. Defines before
 * including: V (the vector type), CEIL_W (bytes), CEIL_SUFFIX (xmm, ymm,
 * zmm), CEIL_XXH3_STRIPE_UNROLL (stripes unrolled in the XXH3 block) and
 * VLOAD, VXOR, VHI32 (each 64-bit lane's high half moved down, by a
 * shuffle), VSRL47, VSLL32, VMUL32, VSHUF, VADD, VCLMUL
 * (low halves), VCLMULHI (high halves), VSET1, VLOW64. */
#include <nmmintrin.h>
#include <stdint.h>
#include <string.h>

#include "ceiling_probes.h"

#define CEIL_PRAGMA(x) _Pragma(#x)
#define CEIL_UNROLL(n) CEIL_PRAGMA(GCC unroll n)

#define CEIL_CAT2(a, b) a##b
#define CEIL_CAT(a, b) CEIL_CAT2(a, b)
#define CEIL_FN(name) CEIL_CAT(name, CEIL_SUFFIX)

/* 8 independent carry-less multiply chains. */
void CEIL_FN(ceiling_clmul_)(uint64_t iters, uint64_t *sink)
{
	V k = VSET1(0x9e3779b97f4a7c15ull ^ *sink);
	V x0 = VSET1(1), x1 = VSET1(2), x2 = VSET1(3), x3 = VSET1(4);
	V x4 = VSET1(5), x5 = VSET1(6), x6 = VSET1(7), x7 = VSET1(8);

	for (uint64_t i = 0; i < iters; i++) {
		x0 = VCLMUL(x0, k); x1 = VCLMUL(x1, k); x2 = VCLMUL(x2, k); x3 = VCLMUL(x3, k);
		x4 = VCLMUL(x4, k); x5 = VCLMUL(x5, k); x6 = VCLMUL(x6, k); x7 = VCLMUL(x7, k);
	}
	x0 = VXOR(VXOR(VXOR(x0, x1), VXOR(x2, x3)), VXOR(VXOR(x4, x5), VXOR(x6, x7)));
	*sink += VLOW64(x0);
}

/* 6 crc32q chains and 4 carry-less multiply chains in one loop: if the two
 * units issue in parallel this takes the longer part, else their sum. */
void CEIL_FN(ceiling_mixed_)(uint64_t iters, uint64_t *sink)
{
	V k = VSET1(0x9e3779b97f4a7c15ull ^ *sink);
	V x0 = VSET1(1), x1 = VSET1(2), x2 = VSET1(3), x3 = VSET1(4);
	uint64_t c0 = 1, c1 = 2, c2 = 3, c3 = 4, c4 = 5, c5 = 6;

	for (uint64_t i = 0; i < iters; i++) {
		x0 = VCLMUL(x0, k);
		c0 = _mm_crc32_u64(c0, i);
		c1 = _mm_crc32_u64(c1, i);
		x1 = VCLMUL(x1, k);
		c2 = _mm_crc32_u64(c2, i);
		x2 = VCLMUL(x2, k);
		c3 = _mm_crc32_u64(c3, i);
		c4 = _mm_crc32_u64(c4, i);
		x3 = VCLMUL(x3, k);
		c5 = _mm_crc32_u64(c5, i);
	}
	*sink += VLOW64(VXOR(VXOR(x0, x1), VXOR(x2, x3))) + (c0 ^ c1 ^ c2 ^ c3 ^ c4 ^ c5);
}

static inline uint64_t ceil_load64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* A fused crc32c's loop, from L1: 4 registers folded (load, the low and
 * high carry-less multiplies, both xored into the data), with one crc32q
 * and its load on each of 3 streams after every fold (the heavy balance,
 * 4W + 96 bytes an iteration: what moved the most bytes a cycle on family
 * 25 model 17, where a ymm multiply takes two cycles), after every second
 * fold (the light one, 4W + 48 bytes: crc32c-fused-intel's, for
 * one-a-cycle zmm multipliers), on each of 6 streams after every fold
 * (the wide one, 4W + 192 bytes: for two crc32 units), or 1, 2, 1 and 2
 * on each of 6 streams after the four folds (the deep one, 4W + 288 bytes:
 * crc32c-fused6's since 2026-12-03; a stream's 48 bytes overlap the next
 * iteration's by 16, all from L1 either way), or one on each of 9 streams
 * after every fold (the nine one, 4W + 288 bytes: four dependent crc32q a
 * stream an iteration where the deep one has six, for cores with more
 * than two crc32 units); docs/ceilings.md. The mixed
 * loop above has the multiplies and crc32q alone; this is the full mix, in
 * the order that lets the two units overlap (built without GCC's post-RA
 * scheduling, which groups the crc32q together). */
#define CEIL_FOLD(a, o) a = VXOR(VXOR(VCLMUL(a, k), VCLMULHI(a, k)), VLOAD(p + (o)))
#define CEIL_CRC3(x, y, z, s, o)                                     \
	do {                                                         \
		x = _mm_crc32_u64(x, ceil_load64((s) + (o)));        \
		y = _mm_crc32_u64(y, ceil_load64((s) + 1024 + (o))); \
		z = _mm_crc32_u64(z, ceil_load64((s) + 2048 + (o))); \
	} while (0)
/* The crc32q after fold i (0..3): one quadword of each stream at 8 i, but
 * the light loop after the odd folds only, and the deep one quadwords
 * [6 i / 4, 6 (i + 1) / 4). */
#define CEIL_STREAMS(i)                                                                   \
	do {                                                                              \
		if (kind == CEIL_FUSED_DEEP) {                                            \
			CEIL_UNROLL(2)                                                    \
			for (unsigned j = 6 * (i) / 4; j < 6 * ((i) + 1) / 4; j++) {     \
				CEIL_CRC3(c0, c1, c2, s, 8 * j);                          \
				CEIL_CRC3(c3, c4, c5, s + 512, 8 * j);                    \
			}                                                                 \
		} else {                                                                  \
			if ((i) % 2 == 1 || kind != CEIL_FUSED_LIGHT)                     \
				CEIL_CRC3(c0, c1, c2, s, 8 * (i));                        \
			if (kind == CEIL_FUSED_WIDE || kind == CEIL_FUSED_NINE)           \
				CEIL_CRC3(c3, c4, c5, s + 512, 8 * (i));                  \
			if (kind == CEIL_FUSED_NINE)                                      \
				CEIL_CRC3(c6, c7, c8, s + 256, 8 * (i));                  \
		}                                                                         \
	} while (0)
enum { CEIL_FUSED_HEAVY, CEIL_FUSED_LIGHT, CEIL_FUSED_WIDE, CEIL_FUSED_DEEP, CEIL_FUSED_NINE };
static inline __attribute__((always_inline)) void ceil_fused(uint64_t iters, uint64_t *sink, int kind)
{
	V k = VSET1(0x9e3779b97f4a7c15ull ^ *sink), a0 = VSET1(1), a1 = VSET1(2), a2 = VSET1(3), a3 = VSET1(4);
	uint64_t c0 = *sink, c1 = 2, c2 = 3, c3 = 4, c4 = 5, c5 = 6, c6 = 7, c7 = 8, c8 = 9;
	size_t off = 0;

	for (uint64_t i = 0; i < iters; i++) {
		/* Vectors from the first 8 KiB, the streams' 32 bytes (16
		 * light) from the next 3.5 KiB. */
		const unsigned char *p = ceiling_l1_buf + off, *s = ceiling_l1_buf + 8192 + off / (CEIL_W / 8);
		CEIL_FOLD(a0, 0);
		CEIL_STREAMS(0);
		CEIL_FOLD(a1, CEIL_W);
		CEIL_STREAMS(1);
		CEIL_FOLD(a2, 2 * CEIL_W);
		CEIL_STREAMS(2);
		CEIL_FOLD(a3, 3 * CEIL_W);
		CEIL_STREAMS(3);
		off = (off + 4 * CEIL_W) & 8191;
	}
	*sink += VLOW64(VXOR(VXOR(a0, a1), VXOR(a2, a3))) + (c0 ^ c1 ^ c2 ^ c3 ^ c4 ^ c5 ^ c6 ^ c7 ^ c8);
}

void CEIL_FN(ceiling_fused_)(uint64_t iters, uint64_t *sink) { ceil_fused(iters, sink, CEIL_FUSED_HEAVY); }
void CEIL_FN(ceiling_fused_light_)(uint64_t iters, uint64_t *sink) { ceil_fused(iters, sink, CEIL_FUSED_LIGHT); }
void CEIL_FN(ceiling_fused_wide_)(uint64_t iters, uint64_t *sink) { ceil_fused(iters, sink, CEIL_FUSED_WIDE); }
void CEIL_FN(ceiling_fused_deep_)(uint64_t iters, uint64_t *sink) { ceil_fused(iters, sink, CEIL_FUSED_DEEP); }
void CEIL_FN(ceiling_fused_nine_)(uint64_t iters, uint64_t *sink) { ceil_fused(iters, sink, CEIL_FUSED_NINE); }
#undef CEIL_FOLD
#undef CEIL_CRC3
#undef CEIL_STREAMS

/* 8 independent 32x32->64 multiply chains. */
void CEIL_FN(ceiling_mul32_)(uint64_t iters, uint64_t *sink)
{
	V k = VSET1(0x9e3779b1u ^ (uint32_t)*sink);
	V x0 = VSET1(1), x1 = VSET1(2), x2 = VSET1(3), x3 = VSET1(4);
	V x4 = VSET1(5), x5 = VSET1(6), x6 = VSET1(7), x7 = VSET1(8);

	for (uint64_t i = 0; i < iters; i++) {
		x0 = VMUL32(x0, k); x1 = VMUL32(x1, k); x2 = VMUL32(x2, k); x3 = VMUL32(x3, k);
		x4 = VMUL32(x4, k); x5 = VMUL32(x5, k); x6 = VMUL32(x6, k); x7 = VMUL32(x7, k);
	}
	x0 = VXOR(VXOR(VXOR(x0, x1), VXOR(x2, x3)), VXOR(VXOR(x4, x5), VXOR(x6, x7)));
	*sink += VLOW64(x0);
}

/* XXH3's accumulate for stripe n of a block, lane l: data and secret loads,
 * xor, the high halves shuffled down (VHI32, a shuffle as in xxhash.h: with a
 * shift there the xmm block read 1.99 cycles on Zen 5 against 1.82, and
 * xxh3-sse2 ran at 107% of its bound), multiply, shuffle, and the product and
 * the swapped data summed before they meet the accumulator, as compilers
 * reassociate XXH3's two adds: written acc + swap + product, one accumulator
 * (zmm) carries two adds' latency a stripe, which bounded the step probe on
 * Zen 5 (2.13 cycles a zmm) below what XXH3 itself ran. */
static inline V CEIL_FN(ceil_xxh3_term_)(const unsigned char *in, const unsigned char *secret,
					 int n, int l)
{
	V d = VLOAD(in + n * 64 + l * CEIL_W), dk = VXOR(d, VLOAD(secret + n * 8 + l * CEIL_W));

	return VADD(VSHUF(d), VMUL32(dk, VHI32(dk)));
}

/* One 64-byte XXH3 stripe per iteration: input from a 1 KiB block in L1,
 * secret offsets advancing 8 bytes a stripe. */
void CEIL_FN(ceiling_xxh3_)(uint64_t iters, uint64_t *sink)
{
	enum { LANES = 64 / CEIL_W };
	const unsigned char *in = ceiling_l1_buf, *secret = ceiling_l1_buf + 1024;
	V acc[LANES];
	size_t off = 0;

	for (int l = 0; l < LANES; l++)
		acc[l] = VSET1(*sink + (uint64_t)l);
	for (uint64_t i = 0; i < iters; i++) {
		const unsigned char *s = secret + (i & 15) * 8;
		/* Unrolled, so that the accumulators stay in registers. */
#pragma GCC unroll 4
		for (int l = 0; l < LANES; l++)
			acc[l] = VADD(acc[l], CEIL_FN(ceil_xxh3_term_)(in + off, s, 0, l));
		off = (off + 64) & 1023;
	}
	for (int l = 1; l < LANES; l++)
		acc[0] = VXOR(acc[0], acc[l]);
	*sink += VLOW64(acc[0]);
}

/* One XXH3 block per iteration, as XXH3's long loop does it: 16 stripes of
 * the accumulate step above, then the scramble of the accumulators (shift,
 * xor, xor with the secret's last 64 bytes, two multiplies by a 32-bit
 * prime, shift and add); blocks from an 8 KiB region in L1.
 *
 * A block's terms are summed apart and meet the accumulator once, as GCC -O3
 * builds xxhash.h (modular adds: any order gives the same hash), so that the
 * accumulator's chain from one block to the next is one add and the
 * scramble. Added to the accumulator one by one, the chain is 16 adds and
 * the scramble: with one accumulator (zmm) that is longer than the block's
 * throughput, and the block read 2.35 cycles a zmm on Zen 5 while
 * xxh3-avx512 ran a 4 KiB call, its finalisation included, at about 2.2.
 * The empty asm keeps GCC from moving the accumulator back into the sum. */
void CEIL_FN(ceiling_xxh3_block_)(uint64_t iters, uint64_t *sink)
{
	enum { LANES = 64 / CEIL_W };
	const unsigned char *secret = ceiling_l1_buf + 8192;
	V acc[LANES], prime = VSET1(0x9e3779b1u);
	size_t off = 0;

	for (int l = 0; l < LANES; l++)
		acc[l] = VSET1(*sink + (uint64_t)l);
	for (uint64_t i = 0; i < iters; i++) {
		const unsigned char *in = ceiling_l1_buf + off;
		V sum[LANES];
#ifdef __clang__
		/* Clang keeps all 17 of a zmm block's secret vectors in
		 * registers, one load a register where XXH3 takes two. */
		__asm__("" : "+r"(secret));
#endif

#pragma GCC unroll 4
		for (int l = 0; l < LANES; l++)
			sum[l] = CEIL_FN(ceil_xxh3_term_)(in, secret, 0, l);
		/* The lanes unrolled, so that the sums stay in registers; the
		 * stripes by CEIL_XXH3_STRIPE_UNROLL: fully unrolled with 2 or 4
		 * lanes, GCC computes every stripe's products first and spills
		 * them; with 1 (zmm) nothing spills, and unrolled by 2 to 8 the
		 * block read 2.90 cycles a zmm on Zen 5 against 2.37 fully
		 * unrolled. */
		CEIL_UNROLL(CEIL_XXH3_STRIPE_UNROLL)
		for (int n = 1; n < 16; n++)
#pragma GCC unroll 4
			for (int l = 0; l < LANES; l++)
				sum[l] = VADD(sum[l], CEIL_FN(ceil_xxh3_term_)(in, secret, n, l));
#pragma GCC unroll 4
		for (int l = 0; l < LANES; l++) {
			__asm__("" : "+x"(sum[l]));
			acc[l] = VADD(acc[l], sum[l]);
			V a = VXOR(VXOR(acc[l], VSRL47(acc[l])), VLOAD(secret + 128 + l * CEIL_W));
			acc[l] = VADD(VMUL32(a, prime), VSLL32(VMUL32(VHI32(a), prime)));
		}
		off = (off + 1024) & 8191;
	}
	for (int l = 1; l < LANES; l++)
		acc[0] = VXOR(acc[0], acc[l]);
	*sink += VLOW64(acc[0]);
}

/* 8 loads per iteration from a 16 KiB buffer, into 8 accumulators. */
void CEIL_FN(ceiling_load_)(uint64_t iters, uint64_t *sink)
{
	V a0 = VSET1(*sink), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
	size_t off = 0;

	for (uint64_t i = 0; i < iters; i++) {
		const unsigned char *p = ceiling_l1_buf + off;
		a0 = VXOR(a0, VLOAD(p)); a1 = VXOR(a1, VLOAD(p + CEIL_W));
		a2 = VXOR(a2, VLOAD(p + 2 * CEIL_W)); a3 = VXOR(a3, VLOAD(p + 3 * CEIL_W));
		a4 = VXOR(a4, VLOAD(p + 4 * CEIL_W)); a5 = VXOR(a5, VLOAD(p + 5 * CEIL_W));
		a6 = VXOR(a6, VLOAD(p + 6 * CEIL_W)); a7 = VXOR(a7, VLOAD(p + 7 * CEIL_W));
		off = (off + 8 * CEIL_W) & (CEILING_L1_BYTES - 1);
	}
	a0 = VXOR(VXOR(VXOR(a0, a1), VXOR(a2, a3)), VXOR(VXOR(a4, a5), VXOR(a6, a7)));
	*sink += VLOW64(a0);
}
