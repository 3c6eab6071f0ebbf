/* CRC-32C with the Armv8 CRC32C instructions: three interleaved streams of
 * crc32cx (8 bytes each) from 512 bytes on, recombined with one PMULL each
 * where the CPU has it (else by a portable multiply); one stream below 512
 * bytes. The recombination math is the x86 one (crc32c_consts.c): both
 * carry-less multipliers work in the same reflected order. Built with
 * -march=armv8-a+crc+crypto, arm64 only; called only where HWCAP has CRC32. */
#include "hash.h"
#include "impls.h"

#define CRC32C_ARMV8_3WAY_MIN_BYTES 512

#if defined(__aarch64__)
#include <arm_acle.h>
#include <arm_neon.h>
#include <string.h>

#include "crc32c_consts.h"

static uint64_t load64(const unsigned char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
	return w;
}

static uint32_t crc32c_armv8_1way(uint32_t crc, const unsigned char *p, size_t len)
{
	for (; len >= 8; len -= 8, p += 8)
		crc = __crc32cd(crc, load64(p));
	if (len & 4) {
		uint32_t w;
		memcpy(&w, p, 4);
		crc = __crc32cw(crc, w);
		p += 4;
	}
	if (len & 2) {
		uint16_t w;
		memcpy(&w, p, 2);
		crc = __crc32ch(crc, w);
		p += 2;
	}
	if (len & 1)
		crc = __crc32cb(crc, *p);
	return crc;
}

/* c * x^(8n): crc32cx(0, c * (x^(8n-33) mod P)) with a 64-bit carry-less
 * product, as on x86. */
static uint32_t shift(uint32_t c, uint32_t k, int pmull)
{
	if (pmull)
		return __crc32cd(0, vgetq_lane_u64(vreinterpretq_u64_p128(vmull_p64(c, k)), 0));
	/* Without PMULL: multiply mod P directly by x^(8n) = k * x^33. */
	return crc32c_mulmod(c, crc32c_mulmod(k, crc32c_xpow_mod(33)));
}

static uint64_t crc32c_armv8(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t crc = 0xffffffffu;
	int pmull = (cpu_features() & CPU_ARM_PMULL) != 0;

	while (len >= CRC32C_ARMV8_3WAY_MIN_BYTES) {
		size_t q = len / 24;
		if (q > CRC32C_SHIFT_MAX_QWORDS)
			q = CRC32C_SHIFT_MAX_QWORDS;
		const unsigned char *a = p, *b = p + 8 * q, *c = p + 16 * q;
		uint32_t ca = crc, cb = 0, cc = 0;
		for (size_t i = 0; i < q; i++) {
			ca = __crc32cd(ca, load64(a + 8 * i));
			cb = __crc32cd(cb, load64(b + 8 * i));
			cc = __crc32cd(cc, load64(c + 8 * i));
		}
		crc = shift(ca, crc32c_shift_qwords[q][1], pmull) ^ shift(cb, crc32c_shift_qwords[q][0], pmull) ^ cc;
		p += 24 * q;
		len -= 24 * q;
	}
	return crc32c_armv8_1way(crc, p, len) ^ 0xffffffffu;
}
#define CRC32C_ARMV8_FN crc32c_armv8
#else
#define CRC32C_ARMV8_FN NULL
#endif

const struct hash_impl hash_crc32c_armv8 = {
	.name = "crc32c-armv8",
	.description = "CRC-32C, 3 interleaved Armv8 crc32cx streams from 512 B, PMULL recombination (arm64)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "ksmbench",
	.kernel = { "crc32c() (arm64)", "3.19", NULL,
		    "arm64: crc32cx instructions (the crc32c-arm64-hw driver since 3.19, arch/arm64/lib/crc32.S "
		    "since 4.20); since 6.13 the kernel interleaves 4 streams with PMULL from "
		    "1024 bytes, this entry 3 streams from 512 (our recombination)" },
	.scheme = HASH_SCHEME_CRC_3WAY,
	.one_stream_below = CRC32C_ARMV8_3WAY_MIN_BYTES,
	.cpu_needs = CPU_ARM_CRC32,
	.len_multiple = 1,
	.fn = CRC32C_ARMV8_FN,
};
