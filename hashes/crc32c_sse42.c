/* CRC-32C with one stream of the SSE4.2 crc32 instruction, 8 bytes a step:
 * what the kernel's x86 crc32c does below 512 bytes. Built with -msse4.2;
 * only called where CPUID reports SSE4.2. */
#include <string.h>

#include "hash.h"
#include "impls.h"

#if defined(__x86_64__)
#include "crc32c_x86.h"

static uint64_t crc32c_sse42(const void *buf, size_t len)
{
	return crc32c_x86_1way(0xffffffffu, buf, len) ^ 0xffffffffu;
}
#define CRC32C_SSE42_FN crc32c_sse42
#elif defined(__i386__)
#include <nmmintrin.h>

/* 32-bit x86 has no crc32q: four bytes a step. */
static uint64_t crc32c_sse42(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t crc = 0xffffffffu;

	for (; len >= 4; len -= 4, p += 4) {
		uint32_t w;
		memcpy(&w, p, 4);
		crc = _mm_crc32_u32(crc, w);
	}
	while (len--)
		crc = _mm_crc32_u8(crc, *p++);
	return crc ^ 0xffffffffu;
}
#define CRC32C_SSE42_FN crc32c_sse42
#else
/* Listed on every architecture, unavailable (missing sse4.2) off x86. */
#define CRC32C_SSE42_FN NULL
#endif

const struct hash_impl hash_crc32c_sse42 = {
	.name = "crc32c-sse42",
	.description = "CRC-32C, one stream of the SSE4.2 crc32 instruction (kernel, below 512 B)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "ksmbench",
	.kernel = { "crc32c()", NULL, NULL,
		    "x86: the inline crc32 loop below 512 bytes (and on 32-bit x86, crc32l, at every length)" },
	.scheme = HASH_SCHEME_CRC_1WAY,
	.cpu_needs = CPU_SSE42,
	.len_multiple = 1,
	.fn = CRC32C_SSE42_FN,
};
