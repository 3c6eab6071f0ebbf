/* Portable table-driven CRC-32C (Castagnoli), slice-by-8: the kernel's
 * crc32c without hardware support (lib/crc32.c's generic path). Standard
 * CRC-32C: init and final xor 0xffffffff, reflected polynomial 0x82f63b78. */
#include <string.h>

#include "hash.h"
#include "impls.h"

#define CRC32C_POLY_REFLECTED 0x82f63b78u

static uint32_t table[8][256];

__attribute__((constructor)) static void crc32c_generic_tables(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (CRC32C_POLY_REFLECTED & (0u - (c & 1)));
		table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xff];
}

uint32_t crc32c_generic_update(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	for (; len >= 8; len -= 8, p += 8) {
		uint32_t lo, hi;
		memcpy(&lo, p, 4);
		memcpy(&hi, p + 4, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		lo = __builtin_bswap32(lo);
		hi = __builtin_bswap32(hi);
#endif
		lo ^= crc;
		crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^
		      table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
		      table[3][hi & 0xff] ^ table[2][(hi >> 8) & 0xff] ^
		      table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
	}
	while (len--)
		crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xff];
	return crc;
}

static uint64_t crc32c_generic(const void *buf, size_t len)
{
	return crc32c_generic_update(0xffffffffu, buf, len) ^ 0xffffffffu;
}

const struct hash_impl hash_crc32c_generic = {
	.name = "crc32c-generic",
	.description = "CRC-32C, portable slice-by-8 tables (the kernel's crc32c without hardware)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "ksmbench",
	.kernel = { "crc32c()", NULL, NULL,
		    "the kernel's portable crc32c, where the CPU has no crc32 instruction: slice-by-8 tables as in "
		    "lib/crc32.c's default (by 3.8; crypto/crc32c.c used a byte-at-a-time table before, and so does "
		    "lib/crc since 2025); KSM never used crc32c" },
	.scheme = HASH_SCHEME_NONE,
	.len_multiple = 1,
	.fn = crc32c_generic,
};
