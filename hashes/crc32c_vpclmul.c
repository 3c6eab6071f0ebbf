/* CRC-32C by VPCLMULQDQ folding on 512-bit registers: four accumulators of
 * 64 bytes fold 256 bytes a step, then merge, reduce to 128 bits and finish
 * with two crc32q; the kernel's path since 6.17 on CPUs with good AVX-512.
 * Below 128 bytes crc32c-3way-fit's one stream. Built with -msse4.2
 * -mpclmul -mavx512f -mvpclmulqdq, x86-64 only; called only where
 * CPUID+XGETBV report them. */
#include "hash.h"
#include "impls.h"

#if defined(__x86_64__)
#include "crc32c_avx512.h"

uint32_t crc32c_vpclmul_update(uint32_t crc, const unsigned char *p, size_t len)
{
	if (len < CRC32C_VPCLMUL_MIN_BYTES)
		return crc32c_x86_1way(crc, p, len);

	__m512i x = crc32c_z_first(crc, p);
	p += 64;
	len -= 64;
	if (len >= 192) {
		__m512i acc[4] = { x, crc32c_z_load(p), crc32c_z_load(p + 64), crc32c_z_load(p + 128) };
		__m512i k = crc32c_z_pair(&crc32c_fold.f2048);
		p += 192;
		len -= 192;
		for (; len >= 256; len -= 256, p += 256) {
			acc[0] = crc32c_z_fold(acc[0], k, crc32c_z_load(p));
			acc[1] = crc32c_z_fold(acc[1], k, crc32c_z_load(p + 64));
			acc[2] = crc32c_z_fold(acc[2], k, crc32c_z_load(p + 128));
			acc[3] = crc32c_z_fold(acc[3], k, crc32c_z_load(p + 192));
		}
		x = crc32c_z_merge4(acc);
	}
	size_t whole = len & ~(size_t)63;
	__m128i v = crc32c_z_finish(x, p, whole);
	p += whole;
	len -= whole;

	return crc32c_x86_fold16_finish(v, p, len);
}

static uint64_t crc32c_vpclmul(const void *buf, size_t len)
{
	/* Short inputs: crc32c-3way-fit's code (see crc32c_3way_fit.c). */
	if (__builtin_expect(len < CRC32C_VPCLMUL_MIN_BYTES, 1))
		return crc32c_fit_oneshot(buf, len);
	return crc32c_vpclmul_update(0xffffffffu, buf, len) ^ 0xffffffffu;
}
#define CRC32C_VPCLMUL_FN crc32c_vpclmul
#else
#define CRC32C_VPCLMUL_FN NULL
#endif

const struct hash_impl hash_crc32c_vpclmul = {
	.name = "crc32c-vpclmul",
	.description = "CRC-32C, VPCLMULQDQ folding on 512-bit registers, 256 B a step (kernel 6.17, AVX-512)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "ksmbench",
	.kernel = { "crc32c() -> crc32_lsb_vpclmul_avx512()", "6.17", NULL,
		    "x86-64 from 512 bytes where AVX-512 is good (VPCLMULQDQ, AVX512BW/VL, not PREFER_YMM): "
		    "Zen 4+, Sapphire Rapids+; same scheme, our own code" },
	.scheme = HASH_SCHEME_CLMUL_FOLD,
	.vector_bytes = 64,
	.one_stream_below = CRC32C_VPCLMUL_MIN_BYTES,
	.cpu_needs = CPU_SSE42 | CPU_PCLMUL | CPU_AVX512F | CPU_VPCLMUL,
	.len_multiple = 1,
	.fn = CRC32C_VPCLMUL_FN,
};
