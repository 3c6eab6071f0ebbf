/* zlib's crc32(): CRC-32 (IEEE), the thread's "same speed as jhash2" reference. */
#include <zlib.h>

#include "hash.h"
#include "impls.h"

static uint64_t crc32_zlib(const void *buf, size_t len)
{
	return crc32_z(0, buf, len);
}

const struct hash_impl hash_crc32_zlib = {
	.name = "crc32-zlib",
	.kernel = { NULL, NULL, NULL,
		    "zlib; the kernel has the same CRC-32 as crc32_le(), but KSM never used it" },
	.description = "CRC-32 (IEEE 802.3) from zlib's crc32()",
	.family = "crc32",
	.bits = 32,
	.provenance = "zlib",
	.len_multiple = 1,
	.fn = crc32_zlib,
};
