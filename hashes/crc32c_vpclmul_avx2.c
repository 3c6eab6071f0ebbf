/* CRC-32C by VPCLMULQDQ folding on 256-bit registers (no AVX-512): four
 * accumulators of 32 bytes fold 128 bytes a step, then merge, reduce to 128
 * bits and finish with two crc32q. The kernel has no such crc32c path (its
 * 256-bit VPCLMULQDQ code serves crc32_le and the other CRCs); this is for
 * CPUs with VPCLMULQDQ but no (good) AVX-512, where measurement decides
 * whether it beats crc32q (docs/hashes.md). Below 128 bytes crc32c-3way-fit's
 * one stream. Built with -msse4.2 -mpclmul -mavx2 -mvpclmulqdq, x86-64 only. */
#include "hash.h"
#include "impls.h"

#if defined(__x86_64__)
#include "crc32c_avx2.h"

uint32_t crc32c_vpclmul_avx2_update(uint32_t crc, const unsigned char *p, size_t len)
{
	if (len < CRC32C_VPCLMUL_AVX2_MIN_BYTES)
		return crc32c_x86_1way(crc, p, len);

	__m256i x = crc32c_y_first(crc, p);
	p += 32;
	len -= 32;
	if (len >= 96) {
		__m256i acc[4] = { x, crc32c_y_load(p), crc32c_y_load(p + 32), crc32c_y_load(p + 64) };
		__m256i k = crc32c_y_pair(&crc32c_fold.f1024);
		p += 96;
		len -= 96;
		for (; len >= 128; len -= 128, p += 128) {
			acc[0] = crc32c_y_fold(acc[0], k, crc32c_y_load(p));
			acc[1] = crc32c_y_fold(acc[1], k, crc32c_y_load(p + 32));
			acc[2] = crc32c_y_fold(acc[2], k, crc32c_y_load(p + 64));
			acc[3] = crc32c_y_fold(acc[3], k, crc32c_y_load(p + 96));
		}
		x = crc32c_y_merge4(acc);
	}
	size_t whole = len & ~(size_t)31;
	__m128i v = crc32c_y_finish(x, p, whole);
	p += whole;
	len -= whole;

	uint32_t crc_out = crc32c_x86_fold16_finish(v, p, len);
	_mm256_zeroupper(); /* legacy-SSE code may run next */
	return crc_out;
}

static uint64_t crc32c_vpclmul_avx2(const void *buf, size_t len)
{
	/* Short inputs: crc32c-3way-fit's code (see crc32c_3way_fit.c). */
	if (__builtin_expect(len < CRC32C_VPCLMUL_AVX2_MIN_BYTES, 1))
		return crc32c_fit_oneshot(buf, len);
	return crc32c_vpclmul_avx2_update(0xffffffffu, buf, len) ^ 0xffffffffu;
}
#define CRC32C_VPCLMUL_AVX2_FN crc32c_vpclmul_avx2
#else
#define CRC32C_VPCLMUL_AVX2_FN NULL
#endif

const struct hash_impl hash_crc32c_vpclmul_avx2 = {
	.name = "crc32c-vpclmul-avx2",
	.description = "CRC-32C, VPCLMULQDQ folding on 256-bit registers, 128 B a step (ours, no AVX-512 needed)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "ksmbench",
	.kernel = { NULL, NULL, NULL, "ours: the kernel folds crc32c only with AVX-512 (its AVX2 VPCLMULQDQ code is for crc32_le)" },
	.scheme = HASH_SCHEME_CLMUL_FOLD,
	.vector_bytes = 32,
	.one_stream_below = CRC32C_VPCLMUL_AVX2_MIN_BYTES,
	.cpu_needs = CPU_SSE42 | CPU_PCLMUL | CPU_AVX2 | CPU_VPCLMUL,
	.len_multiple = 1,
	.fn = CRC32C_VPCLMUL_AVX2_FN,
};
