/* CRC-32C the way the kernel's x86-64 code does it from 512 bytes on: three
 * interleaved streams of the crc32q instruction, whose CRCs are recombined
 * with pclmulqdq; below 512 bytes one stream. Three streams hide the
 * latency of crc32q (3 cycles, one issued a cycle on Intel); the input goes
 * in independent blocks of 3 x 384 bytes (below). Built with -msse4.2
 * -mpclmul, x86-64 only; called only where CPUID reports both. */
#include "hash.h"
#include "impls.h"

#if defined(__x86_64__)
#include <string.h>
#include <wmmintrin.h>
#include <nmmintrin.h>

#include "crc32c_consts.h"
#include "crc32c_x86.h"

/* The kernel's threshold: below it the recombination does not pay. */
#define CRC32C_3WAY_MIN_BYTES 512

/* One quadword of each stream; ca, cb, cc and a, b, c are the caller's. */
#define CRC32C_3WAY_STEP(j)                                         \
	do {                                                        \
		ca = _mm_crc32_u64(ca, crc32c_load64(a + 8 * (j))); \
		cb = _mm_crc32_u64(cb, crc32c_load64(b + 8 * (j))); \
		cc = _mm_crc32_u64(cc, crc32c_load64(c + 8 * (j))); \
	} while (0)

/* Blocks of at most this many quadwords per stream. Each block's streams
 * start from zero and the running CRC is moved over the whole block at the
 * recombination, so successive blocks do not wait for each other: with
 * short blocks out-of-order execution runs the next block's streams while
 * the last ones finish (Zen 4 issues two crc32q a cycle; one block of
 * three latency-bound streams fills half of that). */
#define CRC32C_3WAY_BLOCK_QWORDS 48 /* measured best on Zen 4 among 32..176 */

__attribute__((noinline)) static uint32_t crc32c_3way_update(uint32_t crc, const unsigned char *p, size_t len)
{
	while (len >= CRC32C_3WAY_MIN_BYTES) {
		size_t q = len / 24;
		if (q > CRC32C_3WAY_BLOCK_QWORDS)
			q = CRC32C_3WAY_BLOCK_QWORDS;
		const unsigned char *a = p, *b = p + 8 * q, *c = p + 16 * q;
		uint64_t ca = 0, cb = 0, cc = 0;
		size_t i = 0;
		for (; i + 4 <= q; i += 4) {
			CRC32C_3WAY_STEP(i);
			CRC32C_3WAY_STEP(i + 1);
			CRC32C_3WAY_STEP(i + 2);
			CRC32C_3WAY_STEP(i + 3);
		}
		for (; i < q; i++)
			CRC32C_3WAY_STEP(i);
		/* The running CRC moves over all three streams, ca over two, cb
		 * over one; one crc32q reduces the sum of the products. */
		crc = crc32c_x86_recombine3(crc, crc32c_shift_qwords[q][2], (uint32_t)ca, crc32c_shift_qwords[q][1],
					    (uint32_t)cb, crc32c_shift_qwords[q][0]) ^ (uint32_t)cc;
		p += 24 * q;
		len -= 24 * q;
	}
	return crc32c_x86_1way(crc, p, len);
}

static uint64_t crc32c_3way(const void *buf, size_t len)
{
	/* Short inputs: crc32c-sse42's own code, as the kernel's one stream. */
	if (__builtin_expect(len < CRC32C_3WAY_MIN_BYTES, 1)) /* short path falls through */
		return crc32c_sse42_oneshot(buf, len);
	return crc32c_3way_update(0xffffffffu, buf, len) ^ 0xffffffffu;
}
#define CRC32C_3WAY_FN crc32c_3way
#else
#define CRC32C_3WAY_FN NULL
#endif

const struct hash_impl hash_crc32c_3way = {
	.name = "crc32c-3way",
	.description = "CRC-32C, 3 interleaved crc32q streams + pclmulqdq recombination from 512 B (kernel x86-64)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "in-tree",
	.cpu_needs = CPU_SSE42 | CPU_PCLMUL,
	.len_multiple = 1,
	.fn = CRC32C_3WAY_FN,
};
