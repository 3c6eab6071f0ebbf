/* Every registered implementation; registry.c lists them in display order.
 * Adding a hash: one file defining a struct hash_impl, one line here, one
 * line in registry.c. */
#ifndef KB_IMPLS_H
#define KB_IMPLS_H

#include <stddef.h>
#include <stdint.h>

#include "cpu_features.h"
#include "hash.h"

/* The kernel column of our fused crc32c entries (crc32c_fused*.c). */
#define HASH_KERNEL_NOTE_FUSED \
	"ours: the kernel has no fused crc32q + VPCLMULQDQ path (its 6.17 notes leave it as future work)"

extern const struct hash_impl hash_jhash2;
extern const struct hash_impl hash_jhash2_lookup2;
extern const struct hash_impl hash_xxhash;
extern const struct hash_impl hash_xxh32;
extern const struct hash_impl hash_xxh64;
extern const struct hash_impl hash_xxh3;
extern const struct hash_impl hash_xxh3_avx512;
extern const struct hash_impl hash_xxh3_avx2;
extern const struct hash_impl hash_xxh3_sse2;
extern const struct hash_impl hash_xxh3_neon;
extern const struct hash_impl hash_xxh3_dispatch;
extern const struct hash_impl hash_xxh3_lib;
extern const struct hash_impl hash_xxh128;
extern const struct hash_impl hash_xxh128_avx512;
extern const struct hash_impl hash_xxh128_avx2;
extern const struct hash_impl hash_xxh128_sse2;
extern const struct hash_impl hash_xxh128_neon;
extern const struct hash_impl hash_xxh128_lib;
extern const struct hash_impl hash_crc32c;
extern const struct hash_impl hash_crc32c_generic;
extern const struct hash_impl hash_crc32c_sse42;
extern const struct hash_impl hash_crc32c_3way;
extern const struct hash_impl hash_crc32c_3way_fit;
extern const struct hash_impl hash_crc32c_vpclmul_avx2;
extern const struct hash_impl hash_crc32c_fused_avx2;
extern const struct hash_impl hash_crc32c_vpclmul;
extern const struct hash_impl hash_crc32c_fused;
extern const struct hash_impl hash_crc32c_fused_intel;
extern const struct hash_impl hash_crc32c_fused6;
extern const struct hash_impl hash_crc32c_armv8;
extern const struct hash_impl hash_crc32c_isal;
extern const struct hash_impl hash_crc32c_isal_3way;
extern const struct hash_impl hash_crc32c_isal_by16;
extern const struct hash_impl hash_crc32_zlib;

/* The crc32c entry the kernel's own crc32c() would run on this CPU for an
 * input of len bytes in release rel (NULL: the newest; an entry runs from
 * its kernel.since on), and in *why (if not NULL) the kernel's reason. */
struct kernel_release;
const struct hash_impl *hash_kernel_crc32c(size_t len, const struct kernel_release *rel, const char **why);

/* Below these lengths the folding entries (crc32c-vpclmul, -vpclmul-avx2
 * and the fused ones) run crc32c_fit_oneshot's one stream: its short chain
 * ends sooner than the folds and their reduction (docs/hashes.md). Here,
 * not beside the x86 code, so that every build's registry states them
 * (hash_impl.one_stream_below). */
#define CRC32C_VPCLMUL_MIN_BYTES 128
#define CRC32C_VPCLMUL_AVX2_MIN_BYTES 128

/* Building blocks shared with the self-test's references. */
uint32_t jhash2_kernel(const void *buf, size_t words, uint32_t initval);
uint32_t crc32c_generic_update(uint32_t crc, const void *buf, size_t len);
#if defined(__x86_64__)
/* Standard CRC-32C by crc32c-3way-fit (crc32c_3way_fit.c): one stream
 * unrolled by four below 192 bytes, three lanes from there. The folding
 * entries' path below their thresholds. */
uint64_t crc32c_fit_oneshot(const void *buf, size_t len);
#endif

#endif
