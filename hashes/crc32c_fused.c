/* CRC-32C, our own design: the crc32 unit and the carry-less multipliers run
 * at the same time on different parts of the buffer. The front part (about
 * two thirds) is folded with VPCLMULQDQ on 512-bit registers, 256 bytes a
 * step; the rest is split into three crc32q streams, and each loop iteration
 * advances both, so out-of-order execution overlaps them. At the end the
 * vector part is reduced to a CRC and the four CRCs are recombined with
 * pclmulqdq (crc32c_consts.h). Below CRC32C_FUSED_MIN_BYTES it is the
 * vpclmul code alone. Built with -msse4.2 -mpclmul -mavx512f -mvpclmulqdq,
 * x86-64 only. */
#include "hash.h"
#include "impls.h"

#define CRC32C_FUSED_MIN_BYTES 2048 /* measured: below it vpclmul alone is faster */

#if defined(__x86_64__)
#include "crc32c_avx512.h"

/* Longer inputs go in chunks of this size, keeping each stream within the
 * recombination table (CRC32C_SHIFT_MAX_QWORDS). */
#define CRC32C_FUSED_CHUNK_BYTES 8192
/* Share of the vector part, in 64ths: the folding runs at up to 16 bytes a
 * cycle, three latency-bound crc32q streams at 8, so about two thirds (42/64
 * measured best on Zen 4 among 38..64; six streams gained nothing). */
#define CRC32C_FUSED_VECTOR_64THS 42

static uint32_t crc32c_fused_chunk(uint32_t crc, const unsigned char *p, size_t len)
{
	size_t vec = (len * CRC32C_FUSED_VECTOR_64THS / 64) & ~(size_t)63;
	size_t q = (len - vec) / 24;
	const unsigned char *s = p + vec; /* the three streams: s, s+8q, s+16q */
	const unsigned char *tail = s + 24 * q;
	size_t tail_len = len - vec - 24 * q;

	__m512i acc[4] = { crc32c_z_first(crc, p), crc32c_z_load(p + 64), crc32c_z_load(p + 128),
			   crc32c_z_load(p + 192) };
	__m512i k = crc32c_z_pair(&crc32c_fold.f2048);
	size_t steps = (vec - 256) / 256; /* vector steps in the shared loop */
	size_t per_step = steps ? q / steps : 0;
	uint64_t ca = 0, cb = 0, cc = 0;
	size_t i = 0;
	const unsigned char *v = p + 256;

	for (size_t n = 0; n < steps; n++, v += 256) {
		acc[0] = crc32c_z_fold(acc[0], k, crc32c_z_load(v));
		acc[1] = crc32c_z_fold(acc[1], k, crc32c_z_load(v + 64));
		acc[2] = crc32c_z_fold(acc[2], k, crc32c_z_load(v + 128));
		acc[3] = crc32c_z_fold(acc[3], k, crc32c_z_load(v + 192));
		for (size_t j = 0; j < per_step; j++, i++) {
			ca = _mm_crc32_u64(ca, crc32c_load64(s + 8 * i));
			cb = _mm_crc32_u64(cb, crc32c_load64(s + 8 * (q + i)));
			cc = _mm_crc32_u64(cc, crc32c_load64(s + 8 * (2 * q + i)));
		}
	}
	for (; i < q; i++) {
		ca = _mm_crc32_u64(ca, crc32c_load64(s + 8 * i));
		cb = _mm_crc32_u64(cb, crc32c_load64(s + 8 * (q + i)));
		cc = _mm_crc32_u64(cc, crc32c_load64(s + 8 * (2 * q + i)));
	}
	uint32_t cv = crc32c_x86_reduce128(crc32c_z_finish(crc32c_z_merge4(acc), v, (size_t)(s - v)));
	return crc32c_x86_streams3_join(cv, q, ca, cb, cc, tail, tail_len);
}

__attribute__((noinline)) static uint64_t crc32c_fused_long(const void *buf, size_t len)
{
	return crc32c_x86_fused(0xffffffffu, buf, len, CRC32C_FUSED_CHUNK_BYTES, CRC32C_FUSED_MIN_BYTES,
				crc32c_fused_chunk, crc32c_vpclmul_update) ^
	       0xffffffffu;
}

static uint64_t crc32c_fused(const void *buf, size_t len)
{
	/* Short inputs: crc32c-sse42's own code (see crc32c_sse42.c). */
	if (__builtin_expect(len < CRC32C_VPCLMUL_MIN_BYTES, 1))
		return crc32c_sse42_oneshot(buf, len);
	return crc32c_fused_long(buf, len);
}
#define CRC32C_FUSED_FN crc32c_fused
#else
#define CRC32C_FUSED_FN NULL
#endif

const struct hash_impl hash_crc32c_fused = {
	.name = "crc32c-fused",
	.description = "CRC-32C, VPCLMULQDQ folding and 3 crc32q streams in parallel on parts of the buffer (ours)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "in-tree",
	.kernel = { NULL, NULL, NULL, "ours: the kernel has no fused crc32q + VPCLMULQDQ path (its 6.17 notes leave it as future work)" },
	.scheme = HASH_SCHEME_CRC_CLMUL,
	.vector_bytes = 64,
	.fused_min_bytes = CRC32C_FUSED_MIN_BYTES,
	.cpu_needs = CPU_SSE42 | CPU_PCLMUL | CPU_AVX512F | CPU_VPCLMUL,
	.len_multiple = 1,
	.fn = CRC32C_FUSED_FN,
};
