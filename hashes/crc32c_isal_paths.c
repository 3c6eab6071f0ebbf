/* ISA-L's own x86-64 CRC-32C code paths, called directly rather than through
 * its dispatcher, so that comparisons with our versions of the same schemes
 * can be reproduced: crc32_iscsi_01 (three crc32q streams + PCLMULQDQ, the
 * counterpart of crc32c-3way) and crc32_iscsi_by16_10 (VPCLMULQDQ/AVX-512
 * folding, of crc32c-vpclmul). The Debian library exports both, but its
 * header declares only the dispatcher, hence the declarations below. Like
 * crc32_iscsi they neither invert on entry nor on exit. */
#include "hash.h"
#include "impls.h"

#if defined(KB_HAVE_LIBISAL) && defined(__x86_64__)
unsigned int crc32_iscsi_01(unsigned char *buf, int len, unsigned int init);
unsigned int crc32_iscsi_by16_10(unsigned char *buf, int len, unsigned int init);

/* ISA-L takes an int length: feed huge buffers in pieces. */
static uint32_t isal_path(unsigned int (*path)(unsigned char *, int, unsigned int), const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t crc = 0xffffffffu;

	while (len > (1u << 30)) {
		crc = path((unsigned char *)p, 1 << 30, crc);
		p += 1u << 30;
		len -= 1u << 30;
	}
	return path((unsigned char *)p, (int)len, crc) ^ 0xffffffffu;
}

static uint64_t crc32c_isal_3way(const void *buf, size_t len)
{
	return isal_path(crc32_iscsi_01, buf, len);
}

static uint64_t crc32c_isal_by16(const void *buf, size_t len)
{
	return isal_path(crc32_iscsi_by16_10, buf, len);
}
#define CRC32C_ISAL_3WAY_FN crc32c_isal_3way
#define CRC32C_ISAL_BY16_FN crc32c_isal_by16
#else
#define CRC32C_ISAL_3WAY_FN NULL
#define CRC32C_ISAL_BY16_FN NULL
#endif

const struct hash_impl hash_crc32c_isal_3way = {
	.name = "crc32c-isal-3way",
	.description = "CRC-32C, ISA-L crc32_iscsi_01: 3 crc32q streams + PCLMULQDQ (x86-64)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "libisal",
	.kernel = { NULL, NULL, NULL, "ISA-L, a user-space library (the kernel's crc32c-3way shares its origin)" },
	.scheme = HASH_SCHEME_CRC_3WAY,
	.one_stream_below = 200, /* crc32_iscsi_01.asm: SMALL_SIZE */
	.cpu_needs = CPU_SSE42 | CPU_PCLMUL,
	.len_multiple = 1,
	.fn = CRC32C_ISAL_3WAY_FN,
};

const struct hash_impl hash_crc32c_isal_by16 = {
	.name = "crc32c-isal-by16",
	.description = "CRC-32C, ISA-L crc32_iscsi_by16_10: VPCLMULQDQ/AVX-512 folding (x86-64)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "libisal",
	.kernel = { NULL, NULL, NULL, "ISA-L, a user-space library" },
	.scheme = HASH_SCHEME_CLMUL_FOLD,
	.vector_bytes = 64,
	.cpu_needs = CPU_SSE42 | CPU_PCLMUL | CPU_AVX512F | CPU_AVX512VL | CPU_AVX512BW | CPU_VPCLMUL,
	.len_multiple = 1,
	.fn = CRC32C_ISAL_BY16_FN,
};
