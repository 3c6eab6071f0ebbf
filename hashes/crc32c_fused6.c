/* CRC-32C, crc32c-fused's loop with six crc32q streams, for cores with two
 * or more crc32 units beside half-rate zmm multipliers (Zen 5: crc32q 3
 * cycles latency, over two a cycle; vpclmulqdq zmm one every 2 cycles). Each step of
 * the shared loop folds 256 bytes (8 vpclmulqdq zmm, 16 cycles) and runs 5
 * or 6 crc32q on each of six streams (30-36: the crc32 units' 15-18
 * cycles), 496-544 bytes in all; three streams cannot use the second unit.
 * The balance, measured on family 26 model 2 (docs/hashes.md): with 6
 * quadwords a stream a step (7 steps at 4 KiB) a page took 0.94-0.96 of
 * the time of 5 and 4 (8 steps), the loop crc32q-bound where it had been
 * multiply-bound, as `ceiling`'s deep fused loop is (18 cycles for 544
 * bytes, against 17 for the wide loop's 448). Its chunks are
 * crc32c_z_fused_chunk_wide: the first steps take a quadword a stream
 * more, so that none are left after the loop, and everything rides into
 * the last two crc32q. On a core with one crc32 unit (Zen 4) the crc32q
 * outlast the multiplies: the alias table and the start-up measurement
 * decide. Below CRC32C_FUSED6_MIN_BYTES it is crc32c-vpclmul's code. Built
 * with -msse4.2 -mpclmul -mavx512f -mvpclmulqdq (IN_ORDER under GCC, as the
 * other fused loops), x86-64 only. */
#include "hash.h"
#include "impls.h"

/* crc32c-fused's threshold: the page is what KSM hashes. */
#define CRC32C_FUSED6_MIN_BYTES 4096

#if defined(__x86_64__)
#include "crc32c_avx512.h"

/* Keeps the end's multipliers within the shift table (at 32 KiB m = 1984 of
 * CRC32C_SHIFT_N_MAX - 7 quadwords, crc32c_z_fused_end). */
#define CRC32C_FUSED6_CHUNK_BYTES 32768

CRC32C_Z_FUSED_ENTRY(crc32c_fused6, crc32c_z_fused_chunk_wide, 5, 6, CRC32C_FUSED6_CHUNK_BYTES, CRC32C_FUSED6_MIN_BYTES)
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
	.provenance = "ksmbench",
	.kernel = { NULL, NULL, NULL, HASH_KERNEL_NOTE_FUSED },
	.scheme = HASH_SCHEME_CRC_CLMUL,
	.vector_bytes = 64,
	.fused_min_bytes = CRC32C_FUSED6_MIN_BYTES,
	.one_stream_below = CRC32C_VPCLMUL_MIN_BYTES,
	.cpu_needs = CPU_SSE42 | CPU_PCLMUL | CPU_AVX512F | CPU_VPCLMUL,
	.len_multiple = 1,
	.fn = CRC32C_FUSED6_FN,
};
