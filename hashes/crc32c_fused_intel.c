/* CRC-32C, crc32c-fused's idea balanced for cores whose vpclmulqdq zmm
 * issues one a cycle (Intel since Ice Lake server: port 5 for the carry-less
 * multiplies, port 1 for crc32): there the fold moves 32 bytes a cycle and
 * crc32q 8, so the three crc32q streams take a small share. Each step of the
 * shared loop folds 256 bytes (8 vpclmulqdq zmm) and runs 2 crc32q on each
 * stream, 304 bytes in all; the streams' last quadwords run after the loop,
 * beside the vector part's merge and reduction. Of the balances measured on
 * family 6 model 207 (docs/hashes.md) 1, 2, 3 and 4 crc32q a stream a step,
 * and a split by a fixed share with a run-time inner loop, this one moved
 * the most bytes a cycle: 1.02x crc32c-vpclmul at 4 KiB, 1.1x at 16 KiB,
 * on a free core (a loss when the core's SMT sibling is busy: the crc32q
 * share shares its port). crc32c-fused's share (two thirds folded) was set
 * for Zen 4's half-rate zmm multipliers and runs at 0.72 of crc32c-vpclmul
 * here. Below CRC32C_FUSED_INTEL_MIN_BYTES it is crc32c-vpclmul's code.
 * Built with -msse4.2 -mpclmul -mavx512f -mvpclmulqdq (IN_ORDER under GCC,
 * as the other fused loop), x86-64 only. */
#include "hash.h"
#include "impls.h"

/* Below a page folding alone wins (3584 bytes: 100.4 against 96.9 TSC
 * cycles; 4096: 103.4 against 109.3). */
#define CRC32C_FUSED_INTEL_MIN_BYTES 4096

#if defined(__x86_64__)
#include "crc32c_avx512.h"

/* Keeps each stream within the recombination table (16 KiB: 106 of
 * CRC32C_SHIFT_MAX_QWORDS quadwords). */
#define CRC32C_FUSED_INTEL_CHUNK_BYTES 16384
#define CRC32C_FUSED_INTEL_STEP_BYTES (256 + 3 * 2 * 8)

static uint32_t crc32c_fused_intel_chunk(uint32_t crc, const unsigned char *buf, size_t len)
{
	size_t steps = (len - 256) / CRC32C_FUSED_INTEL_STEP_BYTES, vec = 256 + 256 * steps;
	size_t q = (len - vec) / 24; /* at least 2 per step; the rest after the loop */
	const unsigned char *s = buf + vec, *tail = s + 24 * q; /* the three streams start at s, s+8q, s+16q */
	size_t tail_len = len - vec - 24 * q;
	/* The streams' positions and CRCs as CRC32C_LANES3_STEP names them. */
	const unsigned char *p = s, *b = s + 8 * q, *c = s + 16 * q;
	uint64_t c0 = 0, c1 = 0, c2 = 0;

	__m512i a0 = crc32c_z_first(crc, buf), a1 = crc32c_z_load(buf + 64), a2 = crc32c_z_load(buf + 128),
		a3 = crc32c_z_load(buf + 192);
	__m512i k = crc32c_z_pair(&crc32c_fold.f2048);
	const unsigned char *v = buf + 256;

	for (size_t n = 0; n < steps; n++, v += 256, p += 16, b += 16, c += 16) {
		a0 = crc32c_z_fold(a0, k, crc32c_z_load(v));
		a1 = crc32c_z_fold(a1, k, crc32c_z_load(v + 64));
		CRC32C_LANES3_STEP(0);
		a2 = crc32c_z_fold(a2, k, crc32c_z_load(v + 128));
		a3 = crc32c_z_fold(a3, k, crc32c_z_load(v + 192));
		CRC32C_LANES3_STEP(1);
	}
	for (; p < s + 8 * q; p += 8, b += 8, c += 8)
		CRC32C_LANES3_STEP(0);
	__m512i acc[4] = { a0, a1, a2, a3 };
	uint32_t cv = crc32c_x86_reduce128(crc32c_z_finish(crc32c_z_merge4(acc), v, (size_t)(s - v)));
	return crc32c_x86_streams3_join(cv, q, c0, c1, c2, tail, tail_len);
}

__attribute__((noinline)) static uint64_t crc32c_fused_intel_long(const void *buf, size_t len)
{
	return crc32c_x86_fused(0xffffffffu, buf, len, CRC32C_FUSED_INTEL_CHUNK_BYTES, CRC32C_FUSED_INTEL_MIN_BYTES,
				crc32c_fused_intel_chunk, crc32c_vpclmul_update) ^
	       0xffffffffu;
}

static uint64_t crc32c_fused_intel(const void *buf, size_t len)
{
	/* Short inputs: crc32c-sse42's own code (see crc32c_sse42.c). */
	if (__builtin_expect(len < CRC32C_VPCLMUL_MIN_BYTES, 1))
		return crc32c_sse42_oneshot(buf, len);
	return crc32c_fused_intel_long(buf, len);
}
#define CRC32C_FUSED_INTEL_FN crc32c_fused_intel
#else
#define CRC32C_FUSED_INTEL_FN NULL
#endif

const struct hash_impl hash_crc32c_fused_intel = {
	.name = "crc32c-fused-intel",
	.description = "CRC-32C, VPCLMULQDQ folding with a light share of 3 crc32q streams, for full-rate zmm "
		       "multipliers (ours)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "in-tree",
	.kernel = { NULL, NULL, NULL, "ours: the kernel has no fused crc32q + VPCLMULQDQ path (its 6.17 notes leave it as future work)" },
	.scheme = HASH_SCHEME_CRC_CLMUL,
	.vector_bytes = 64,
	.fused_min_bytes = CRC32C_FUSED_INTEL_MIN_BYTES,
	.cpu_needs = CPU_SSE42 | CPU_PCLMUL | CPU_AVX512F | CPU_VPCLMUL,
	.len_multiple = 1,
	.fn = CRC32C_FUSED_INTEL_FN,
};
