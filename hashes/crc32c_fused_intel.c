/* CRC-32C, crc32c-fused's idea balanced for cores whose vpclmulqdq zmm
 * issues one a cycle (Intel since Ice Lake server: port 5 for the carry-less
 * multiplies, port 1 for crc32): there the fold moves 32 bytes a cycle and
 * crc32q 8, so the three crc32q streams take a small share. Each step of the
 * shared loop folds 256 bytes (8 vpclmulqdq zmm) and runs 2 crc32q on each
 * stream, 304 bytes in all; the streams' last quadwords run after the loop,
 * beside the vector part's merge and reduction. Of the balances measured on
 * family 6 model 207 (docs/hashes.md) 1, 2, 3 and 4 crc32q a stream a step,
 * and a split by a fixed share with a run-time inner loop, this one moved
 * the most bytes a cycle: 1.02x crc32c-vpclmul at 4 KiB, 1.1x at 16 KiB,
 * on a free core (a loss when the core's SMT sibling is busy: the crc32q
 * share shares its port). crc32c-fused's balance, then a split with two
 * thirds folded, ran at 0.72 of crc32c-vpclmul's rate there. Both entries
 * run one loop, crc32c_z_fused_chunk(), with 2 and 5 crc32q a stream a step.
 * Below CRC32C_FUSED_INTEL_MIN_BYTES it is crc32c-vpclmul's code.
 * Built with -msse4.2 -mpclmul -mavx512f -mvpclmulqdq (IN_ORDER under GCC,
 * as the other fused loop), x86-64 only. */
#include "hash.h"
#include "impls.h"

/* Below a page folding alone wins (3584 bytes: 100.4 against 96.9 TSC
 * cycles; 4096: 103.4 against 109.3). */
#define CRC32C_FUSED_INTEL_MIN_BYTES 4096

#if defined(__x86_64__)
#include "crc32c_avx512.h"

/* Keeps each stream within the recombination table (16 KiB: 106 of
 * CRC32C_SHIFT_MAX_QWORDS quadwords). */
#define CRC32C_FUSED_INTEL_CHUNK_BYTES 16384

CRC32C_Z_FUSED_ENTRY(crc32c_fused_intel, crc32c_z_fused_chunk, 2, 3, CRC32C_FUSED_INTEL_CHUNK_BYTES, CRC32C_FUSED_INTEL_MIN_BYTES)
#define CRC32C_FUSED_INTEL_FN crc32c_fused_intel
#else
#define CRC32C_FUSED_INTEL_FN NULL
#endif

const struct hash_impl hash_crc32c_fused_intel = {
	.name = "crc32c-fused-intel",
	.description = "CRC-32C, VPCLMULQDQ folding with a light share of 3 crc32q streams, for full-rate zmm "
		       "multipliers (ours)",
	.family = "crc32c",
	.bits = 32,
	.provenance = "ksmbench",
	.kernel = { NULL, NULL, NULL, HASH_KERNEL_NOTE_FUSED },
	.scheme = HASH_SCHEME_CRC_CLMUL,
	.vector_bytes = 64,
	.fused_min_bytes = CRC32C_FUSED_INTEL_MIN_BYTES,
	.one_stream_below = CRC32C_VPCLMUL_MIN_BYTES,
	.cpu_needs = CPU_SSE42 | CPU_PCLMUL | CPU_AVX512F | CPU_VPCLMUL,
	.len_multiple = 1,
	.fn = CRC32C_FUSED_INTEL_FN,
};
