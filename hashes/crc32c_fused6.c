/* CRC-32C, crc32c-fused's loop with six crc32q streams, for cores with two
 * crc32 units beside half-rate zmm multipliers (Zen 5: crc32q 3 cycles
 * latency, two a cycle; vpclmulqdq zmm one every 2 cycles). Each step of
 * the shared loop folds 256 bytes (8 vpclmulqdq zmm, 16 cycles) and runs 4
 * crc32q on each of six streams (24: 12 cycles of latency a stream, 12 of
 * the two units), 448 bytes in all; three streams cannot use the second
 * unit. Measured on family 26 model 2 (docs/hashes.md), 6 streams of 4
 * quadwords a step took 0.69-0.71 of crc32c-vpclmul's time at 4 KiB
 * against 0.76-0.77 for crc32c-fused's 3 of 5, and 0.70 against 0.74-0.75
 * at 8 KiB; 6 of 5 tied at 4 KiB and lost at 8. Its chunks are
 * crc32c_z_fused_chunk_wide: the first steps take 5 quadwords a stream, so
 * that none are left after the loop, and everything rides into the last
 * two crc32q (3-4% faster at 4 KiB). On a core with one crc32
 * unit (Zen 4) the 24 crc32q outlast the multiplies: the alias table and
 * the start-up measurement decide. Below CRC32C_FUSED6_MIN_BYTES it is
 * crc32c-vpclmul's code. Built with -msse4.2 -mpclmul -mavx512f
 * -mvpclmulqdq (IN_ORDER under GCC, as the other fused loops), x86-64
 * only. */
#include "hash.h"
#include "impls.h"

/* crc32c-fused's threshold: the page is what KSM hashes. */
#define CRC32C_FUSED6_MIN_BYTES 4096

#if defined(__x86_64__)
#include "crc32c_avx512.h"

/* Keeps the six streams within the recombination table (8 KiB: 6 x 74 of
 * CRC32C_SHIFT_N_MAX quadwords). */
#define CRC32C_FUSED6_CHUNK_BYTES 8192

CRC32C_Z_FUSED_ENTRY(crc32c_fused6, crc32c_z_fused_chunk_wide, 4, 6, CRC32C_FUSED6_CHUNK_BYTES, CRC32C_FUSED6_MIN_BYTES)
#define CRC32C_FUSED6_FN crc32c_fused6
#else
#define CRC32C_FUSED6_FN NULL
#endif

const struct hash_impl hash_crc32c_fused6 = {
	.name = "crc32c-fused6",
	.description = "CRC-32C, VPCLMULQDQ folding with 6 crc32q streams in the same loop, for two crc32 units "
		       "(ours)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "in-tree",
	.kernel = { NULL, NULL, NULL, HASH_KERNEL_NOTE_FUSED },
	.scheme = HASH_SCHEME_CRC_CLMUL,
	.vector_bytes = 64,
	.fused_min_bytes = CRC32C_FUSED6_MIN_BYTES,
	.cpu_needs = CPU_SSE42 | CPU_PCLMUL | CPU_AVX512F | CPU_VPCLMUL,
	.len_multiple = 1,
	.fn = CRC32C_FUSED6_FN,
};
