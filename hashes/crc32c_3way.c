/* CRC-32C the way the kernel's x86-64 crc32c_x86_3way() does it, from 512
 * bytes on (crc32c-3way.S in arch/x86/lib in 6.14-6.16, lib/crc/x86 since
 * 6.17; the same scheme as the crc32c-intel driver's crc_pcl since 3.8): align to 8 bytes, then blocks of
 * three lanes of 128 quadwords (3 KiB), a shorter last block of floor(len/24)
 * quadwords per lane while at least 200 bytes remain, one stream for the
 * rest. Lane 0 carries the running CRC; lanes 1 and 2 start from zero; two
 * pclmulqdq move lanes 0 and 1 forward and the last quadword of lane 2 is
 * folded into the combining crc32q. Below 512 bytes one stream, as the
 * kernel's inline loop. Kept exact (block sizes, thresholds) because it is
 * what the kernel runs; crc32c-3way-fit is the faster layout of the same
 * instructions. Built with -msse4.2 -mpclmul, x86-64 only. */
#include "hash.h"
#include "impls.h"

#define CRC32C_3WAY_MIN_BYTES 512 /* CRC32C_PCLMUL_BREAKEVEN */

#if defined(__x86_64__)
#include <stdint.h>
#include <nmmintrin.h>

#include "crc32c_consts.h"
#include "crc32c_x86.h"

#define CRC32C_3WAY_SMALL_BYTES 200 /* SMALL_SIZE: below it, one stream */
#define CRC32C_3WAY_FULL_QWORDS 128 /* quadwords per lane of a full block */

__attribute__((noinline)) static uint32_t crc32c_3way_update(uint32_t crc, const unsigned char *p, size_t len)
{
	for (; (uintptr_t)p & 7; p++, len--)
		crc = _mm_crc32_u8(crc, *p);
	while (len >= CRC32C_3WAY_SMALL_BYTES) {
		size_t q = len >= 24 * CRC32C_3WAY_FULL_QWORDS ? CRC32C_3WAY_FULL_QWORDS : len / 24;
		crc = crc32c_x86_3lanes(crc, p, q, 0);
		p += 24 * q;
		len -= 24 * q;
	}
	return crc32c_x86_1way(crc, p, len);
}

/* Below 512 bytes the kernel's loop in line after the length test, as
 * crc32c_arch() has it: a jump to crc32c-sse42's copy instead cost a
 * taken branch more, measurable in a short call (docs/hashes.md). */
static uint64_t crc32c_3way(const void *buf, size_t len)
{
	if (__builtin_expect(len >= CRC32C_3WAY_MIN_BYTES, 0))
		return crc32c_3way_update(0xffffffffu, buf, len) ^ 0xffffffffu;
	return crc32c_x86_1way(0xffffffffu, buf, len) ^ 0xffffffffu;
}
#define CRC32C_3WAY_FN crc32c_3way
#else
#define CRC32C_3WAY_FN NULL
#endif

const struct hash_impl hash_crc32c_3way = {
	.name = "crc32c-3way",
	.description = "CRC-32C, the kernel's crc32c_x86_3way: 3 crc32q lanes of up to 1 KiB + pclmulqdq, from 512 B",
	.family = "crc32c",
	.bits = 32,
	.provenance = "ksmbench",
	.kernel = { "crc32c() -> crc32c_x86_3way() (crc_pcl() before 6.14)", "3.8", NULL,
		    "x86-64 from 512 bytes (crc_pcl in the crc32c-intel driver until 6.13, crc32c_x86_3way() "
		    "in the CRC library since 6.14); since 6.17 only where AVX-512 is not good" },
	.scheme = HASH_SCHEME_CRC_3WAY,
	.one_stream_below = CRC32C_3WAY_MIN_BYTES,
	.cpu_needs = CPU_SSE42 | CPU_PCLMUL,
	.len_multiple = 1,
	.fn = CRC32C_3WAY_FN,
};
