/* CRC-32C, our own design: the crc32 unit and the carry-less multipliers run
 * at the same time on different parts of the buffer. Each step of the shared
 * loop folds 256 bytes with VPCLMULQDQ on 512-bit registers (8 multiplies)
 * and advances three crc32q streams by 5 quadwords each, 376 bytes in all;
 * the streams' last quadwords run after the loop, then the vector part is
 * reduced and the four CRCs are recombined with pclmulqdq (crc32c_consts.h).
 * The balance is for half-rate zmm multipliers, one every 2 cycles (Zen 4):
 * the 8 multiplies take 16 cycles and 5 dependent crc32q a stream 15. Of 1
 * to 7 quadwords a stream a step, measured on family 25 model 17 with
 * AVX-512 (docs/hashes.md), 5 moved the most bytes a cycle at 4 KiB: 0.87-0.94
 * of crc32c-vpclmul's time; the split it replaced (42 of 64 folded, an inner
 * loop of 6 a stream a step) took 1.15-1.34 of it there. Below
 * CRC32C_FUSED_MIN_BYTES it is the vpclmul code alone. Built with -msse4.2
 * -mpclmul -mavx512f -mvpclmulqdq (IN_ORDER under GCC, as the other fused
 * loops), x86-64 only. */
#include "hash.h"
#include "impls.h"

/* Below a page folding alone wins or ties (3072 bytes: 169.0 against 146.9
 * TSC cycles; 3584: 162.5 both; 4096: 163.8 against 184.6). */
#define CRC32C_FUSED_MIN_BYTES 4096

#if defined(__x86_64__)
#include "crc32c_avx512.h"

/* Keeps each stream within the recombination table (8 KiB: 106 of
 * CRC32C_SHIFT_MAX_QWORDS quadwords). */
#define CRC32C_FUSED_CHUNK_BYTES 8192

CRC32C_Z_FUSED_ENTRY(crc32c_fused, crc32c_z_fused_chunk, 5, 3, CRC32C_FUSED_CHUNK_BYTES, CRC32C_FUSED_MIN_BYTES)
#define CRC32C_FUSED_FN crc32c_fused
#else
#define CRC32C_FUSED_FN NULL
#endif

const struct hash_impl hash_crc32c_fused = {
	.name = "crc32c-fused",
	.description = "CRC-32C, VPCLMULQDQ folding with 3 crc32q streams in the same loop, for half-rate zmm "
		       "multipliers (ours)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "ksmbench",
	.kernel = { NULL, NULL, NULL, HASH_KERNEL_NOTE_FUSED },
	.scheme = HASH_SCHEME_CRC_CLMUL,
	.vector_bytes = 64,
	.fused_min_bytes = CRC32C_FUSED_MIN_BYTES,
	.one_stream_below = CRC32C_VPCLMUL_MIN_BYTES,
	.cpu_needs = CPU_SSE42 | CPU_PCLMUL | CPU_AVX512F | CPU_VPCLMUL,
	.len_multiple = 1,
	.fn = CRC32C_FUSED_FN,
};
