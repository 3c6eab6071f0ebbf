/* CRC-32C from Intel ISA-L. crc32_iscsi() neither inverts on entry nor on
 * exit, so the standard value is crc32_iscsi(buf, len, ~0) ^ ~0. ISA-L picks
 * its own code path (up to VPCLMULQDQ/AVX-512) at load time. */
#include "hash.h"
#include "impls.h"

/* Not every architecture has the library packaged (Debian has none for
 * i386): there the entry lists as unavailable. */
#ifdef KB_HAVE_LIBISAL
#include <isa-l/crc.h>

static uint64_t crc32c_isal(const void *buf, size_t len)
{
	/* ISA-L takes an int length: feed huge buffers in pieces. */
	const unsigned char *p = buf;
	uint32_t crc = 0xffffffffu;

	while (len > (1u << 30)) {
		crc = crc32_iscsi((unsigned char *)p, 1 << 30, crc);
		p += 1u << 30;
		len -= 1u << 30;
	}
	crc = crc32_iscsi((unsigned char *)p, (int)len, crc);
	return crc ^ 0xffffffffu;
}
#define CRC32C_ISAL_FN crc32c_isal
#else
#define CRC32C_ISAL_FN NULL
#endif

const struct hash_impl hash_crc32c_isal = {
	.name = "crc32c-isal",
	.description = "CRC-32C, ISA-L crc32_iscsi (its own best path for this CPU)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "libisal",
	.kernel = { NULL, NULL, NULL, "ISA-L, a user-space library" },
	.scheme = HASH_SCHEME_DISPATCHED,
	.len_multiple = 1,
	.fn = CRC32C_ISAL_FN,
};
