/* CRC-32C, our design for CPUs with VPCLMULQDQ on 256-bit registers and no
 * AVX-512: crc32c-fused's layout on ymm registers. The front part (128
 * bytes of every 224, about four sevenths) is folded with VPCLMULQDQ, 128
 * bytes a step; the rest goes in three crc32q streams advanced in the same
 * loop, 4 crc32q a stream a step, each right after one fold, so that where
 * the crc32 unit and the carry-less multipliers issue in parallel the two
 * overlap (families 25 model 17 and model 1: 8 vpclmulqdq alone 16 cycles,
 * with the 12 crc32q 17; docs/hashes.md). Where they do not, it cannot beat
 * crc32c-3way-fit: the `crc32c` alias chooses it by a table line backed by
 * a measurement, or by measuring. Below CRC32C_FUSED_AVX2_MIN_BYTES it is
 * crc32c-vpclmul-avx2's code, and below that entry's own threshold
 * crc32c-3way-fit's. Built with -msse4.2 -mpclmul -mavx2
 * -mvpclmulqdq (and, with GCC, -fno-schedule-insns2: the Makefile's
 * IN_ORDER), x86-64 only. */
#include "hash.h"
#include "impls.h"

/* Below it folding alone. Measured on family 25 model 17 (docs/hashes.md):
 * from 1024 bytes fused wins (1 KiB: 24.1 against 21.1 GB/s with 2048 as
 * the threshold), at 512 it loses (17.6 against 19.5). */
#define CRC32C_FUSED_AVX2_MIN_BYTES 1024

#if defined(__x86_64__)
#include "crc32c_avx2.h"

#define CRC32C_FUSED_AVX2_CHUNK_BYTES 8192 /* keeps each stream within the recombination table */
/* Bytes per step of the shared loop: one 128-byte fold of the four
 * accumulators (8 vpclmulqdq) and 4 crc32q on each of the three streams.
 * Of the balances tried there (9, 12, 15 and 18 crc32q to 8 vpclmulqdq)
 * 12 moved the most bytes a cycle: 13.1 against 12.5, 12.8 and 12.2. */
#define CRC32C_FUSED_AVX2_STEP_BYTES (128 + 3 * 4 * 8)

static inline uint32_t crc32c_fused_avx2_chunk(uint32_t crc, const unsigned char *buf, size_t len)
{
	size_t steps = (len - 128) / CRC32C_FUSED_AVX2_STEP_BYTES, vec = 128 + 128 * steps;
	size_t q = (len - vec) / 24; /* at least 4 per step; the rest after the loop */
	const unsigned char *s = buf + vec, *tail = s + 24 * q; /* the three streams start at s, s+8q, s+16q */
	size_t tail_len = len - vec - 24 * q;
	/* The streams' positions and CRCs as CRC32C_LANES3_STEP names them. */
	const unsigned char *p = s, *b = s + 8 * q, *c = s + 16 * q;
	uint64_t c0 = 0, c1 = 0, c2 = 0;

	__m256i a0 = crc32c_y_first(crc, buf), a1 = crc32c_y_load(buf + 32), a2 = crc32c_y_load(buf + 64),
		a3 = crc32c_y_load(buf + 96);
	__m256i k = crc32c_y_pair(&crc32c_fold.f1024);
	const unsigned char *v = buf + 128;

	/* Each fold followed by one crc32q per stream: issued in this order the
	 * crc32 unit and the multipliers overlap; GCC's post-RA scheduler would
	 * group the crc32q (9.6 against 8.5 cycles per 112 bytes). */
	for (size_t n = 0; n < steps; n++, v += 128, p += 32, b += 32, c += 32) {
		a0 = crc32c_y_fold(a0, k, crc32c_y_load(v));
		CRC32C_LANES3_STEP(0);
		a1 = crc32c_y_fold(a1, k, crc32c_y_load(v + 32));
		CRC32C_LANES3_STEP(1);
		a2 = crc32c_y_fold(a2, k, crc32c_y_load(v + 64));
		CRC32C_LANES3_STEP(2);
		a3 = crc32c_y_fold(a3, k, crc32c_y_load(v + 96));
		CRC32C_LANES3_STEP(3);
	}
	for (; p < s + 8 * q; p += 8, b += 8, c += 8)
		CRC32C_LANES3_STEP(0);
	__m256i acc[4] = { a0, a1, a2, a3 };
	uint32_t cv = crc32c_x86_reduce128(crc32c_y_finish(crc32c_y_merge4(acc), v, (size_t)(s - v)));
	return crc32c_x86_streams_join(cv, q, 3, (const uint64_t[]){ c0, c1, c2 }, tail, tail_len);
}

/* Out of line, so that the short path below saves no registers; on a
 * 64-byte boundary, as the AVX-512 fused entries' (crc32c_avx512.h). */
__attribute__((noinline, flatten, aligned(64))) static uint64_t crc32c_fused_avx2_long(const unsigned char *p, size_t len)
{
	uint32_t crc = crc32c_x86_fused(0xffffffffu, p, len, CRC32C_FUSED_AVX2_CHUNK_BYTES, CRC32C_FUSED_AVX2_MIN_BYTES,
					crc32c_fused_avx2_chunk, crc32c_vpclmul_avx2_update);

	_mm256_zeroupper(); /* legacy-SSE code may run next */
	return crc ^ 0xffffffffu;
}

/* A page: the chunk at a constant length (crc32c_x86.h). */
__attribute__((noinline, flatten, aligned(64))) static uint64_t crc32c_fused_avx2_page(const unsigned char *p)
{
	uint32_t crc = crc32c_fused_avx2_chunk(0xffffffffu, p, CRC32C_X86_PAGE_BYTES);

	_mm256_zeroupper();
	return crc ^ 0xffffffffu;
}

static uint64_t crc32c_fused_avx2(const void *buf, size_t len)
{
	/* Short inputs: crc32c-3way-fit's code (see crc32c_3way_fit.c). */
	if (__builtin_expect(len < CRC32C_VPCLMUL_AVX2_MIN_BYTES, 1))
		return crc32c_fit_oneshot(buf, len);
	/* Below the fused threshold straight to crc32c-vpclmul-avx2's code, not
	 * through the long path, whose frame the fused chunk sets up. */
	if (crc32c_x86_is_page(len, CRC32C_FUSED_AVX2_MIN_BYTES, CRC32C_FUSED_AVX2_CHUNK_BYTES))
		return crc32c_fused_avx2_page(buf);
	if (len < CRC32C_FUSED_AVX2_MIN_BYTES)
		return crc32c_vpclmul_avx2_update(0xffffffffu, buf, len) ^ 0xffffffffu;
	return crc32c_fused_avx2_long(buf, len);
}
#define CRC32C_FUSED_AVX2_FN crc32c_fused_avx2
#else
#define CRC32C_FUSED_AVX2_FN NULL
#endif

const struct hash_impl hash_crc32c_fused_avx2 = {
	.name = "crc32c-fused-avx2",
	.description = "CRC-32C, 256-bit VPCLMULQDQ folding and 3 crc32q streams in parallel on parts of the buffer (ours)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "ksmbench",
	.kernel = { NULL, NULL, NULL, HASH_KERNEL_NOTE_FUSED },
	.scheme = HASH_SCHEME_CRC_CLMUL,
	.vector_bytes = 32,
	.fused_min_bytes = CRC32C_FUSED_AVX2_MIN_BYTES,
	.one_stream_below = CRC32C_VPCLMUL_AVX2_MIN_BYTES,
	.cpu_needs = CPU_SSE42 | CPU_PCLMUL | CPU_AVX2 | CPU_VPCLMUL,
	.len_multiple = 1,
	.fn = CRC32C_FUSED_AVX2_FN,
};
