/* CRC-32C, our layout of the kernel's 3-way scheme (crc32c-3way): the same
 * lanes, combination and instructions, but blocks as long as the
 * recombination table allows (3 x 176 quadwords, 4224 bytes) instead of the
 * kernel's 3 KiB, no alignment prologue, and the last block's odd
 * quadwords at the end of its last lane. A 4 KiB page is then one block of
 * 170, 170 and 172 quadwords, where the kernel runs a 3 KiB block, a
 * 1008-byte block (a second combination whose latency the next lanes wait
 * for) and two dependent crc32q at the very end. The last lane's two extra
 * quadwords run alone while lanes 0 and 1 are moved over it: the call ends
 * on one chain, which lets the next call start sooner (the kernel's and
 * ISA-L's layouts end that way too) and hides the moving of lanes 0 and 1
 * (docs/hashes.md). Short inputs: one stream unrolled by four, three lanes
 * from CRC32C_FIT_MIN_BYTES (the kernel keeps one stream below 512 bytes,
 * where its vector section costs more than the lanes save). Built with
 * -msse4.2 -mpclmul, x86-64 only. */
#include "hash.h"
#include "impls.h"

/* Eight quadwords a lane. Timed one call at a time, as ksmd calls it,
 * three lanes win from a little below; calls back to back favour the one
 * stream further up, its few instructions letting the next call start
 * sooner (docs/hashes.md, "Short inputs"). */
#define CRC32C_FIT_MIN_BYTES 192

#if defined(__x86_64__)
#include <nmmintrin.h>

#include "crc32c_consts.h"
#include "crc32c_x86.h"

__attribute__((noinline)) static uint32_t crc32c_fit_update(uint32_t crc, const unsigned char *p, size_t len)
{
	while (len >= CRC32C_FIT_MIN_BYTES) {
		size_t q = len / 24, d = 0;
		if (q > CRC32C_SHIFT_MAX_QWORDS) {
			q = CRC32C_SHIFT_MAX_QWORDS;
		} else if (len % 24) {
			/* The last block: its 0..7 odd bytes go first, so that
			 * their dependent crc32 delay lane 0's start (the other
			 * lanes run meanwhile) instead of ending the call; its 0..2
			 * odd quadwords lengthen the last lane. */
			crc = crc32c_x86_1way(crc, p, len % 8);
			p += len % 8;
			d = len % 24 / 8;
			len -= len % 8;
		}
		crc = crc32c_x86_3lanes(crc, p, q, d);
		p += 24 * q + 8 * d;
		len -= 24 * q + 8 * d;
	}
	return crc32c_x86_1way(crc, p, len);
}

/* Also the short-input path of the folding entries, below their
 * thresholds: one copy of this code in the binary, so that they run it
 * where this entry does (code placement alone moves short-input timings). */
uint64_t crc32c_fit_oneshot(const void *buf, size_t len)
{
	if (__builtin_expect(len < CRC32C_FIT_MIN_BYTES, 1))
		return crc32c_x86_1way_x4(0xffffffffu, buf, len) ^ 0xffffffffu;
	/* A page, what KSM hashes: the same layout (170, 170 and 172
	 * quadwords) folded to constants. Worked out at run time, its loop
	 * bounds and multipliers delayed the lanes' start, as in the fused
	 * entries (docs/hashes.md). */
	if (len == CRC32C_X86_PAGE_BYTES)
		return crc32c_x86_3lanes(0xffffffffu, buf, 170, 2) ^ 0xffffffffu;
	return crc32c_fit_update(0xffffffffu, buf, len) ^ 0xffffffffu;
}
#define CRC32C_3WAY_FIT_FN crc32c_fit_oneshot
#else
#define CRC32C_3WAY_FIT_FN NULL
#endif

const struct hash_impl hash_crc32c_3way_fit = {
	.name = "crc32c-3way-fit",
	.description = "CRC-32C, the kernel's 3 crc32q lanes in blocks of up to 4224 B (a 4 KiB page in one; ours)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "ksmbench",
	.kernel = { NULL, NULL, NULL, "ours: the kernel's crc32c-3way scheme with blocks that fit a 4 KiB page" },
	.scheme = HASH_SCHEME_CRC_3WAY,
	.one_stream_below = CRC32C_FIT_MIN_BYTES,
	.cpu_needs = CPU_SSE42 | CPU_PCLMUL,
	.len_multiple = 1,
	.fn = CRC32C_3WAY_FIT_FN,
};
