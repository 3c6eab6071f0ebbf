/* Deliberately simple reference versions of each hash family, written
 * independently of the fast implementations so that the self-test can
 * cross-check them. Slow by design; never registered or benchmarked. */
#ifndef KB_REFERENCE_H
#define KB_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "hash.h"

/* Bytewise (Sarwate) CRC-32C and CRC-32, standard init and final xor. */
uint32_t ref_crc32c(const void *buf, size_t len);
uint32_t ref_crc32(const void *buf, size_t len);

/* The same for every prefix at once: out[n] = ref_crc32c(buf, n) for n =
 * 0..len (len + 1 values), in one bytewise pass; what lets the self-test
 * check every length without a pass per length. */
void ref_crc32c_prefixes(const void *buf, size_t len, uint32_t *out);
void ref_crc32_prefixes(const void *buf, size_t len, uint32_t *out);

/* lookup3 hashlittle, byte-at-a-time: equals jhash2 on little-endian input
 * whose length is a multiple of 4. */
uint32_t ref_hashlittle(const void *buf, size_t len, uint32_t initval);

/* lookup2 hash(), byte-at-a-time: equals the kernel's jhash2 before 2.6.38
 * on little-endian input whose length is a multiple of 4. */
uint32_t ref_lookup2(const void *buf, size_t len, uint32_t initval);

/* xxHash through the library's streaming API, fed in uneven pieces: another
 * code path than the one-shot calls. */
uint32_t ref_xxh32(const void *buf, size_t len);
uint64_t ref_xxh64(const void *buf, size_t len);
uint64_t ref_xxh3(const void *buf, size_t len);
void ref_xxh128(const void *buf, size_t len, uint8_t out[16]);

/* The reference of family (a hash_impl's) on buf as lowercase hex, as
 * hash_hex() writes an implementation's digest; -1 for a family without
 * one. The jhash2 families' references equal them only on whole words. */
int ref_hex(const char *family, const void *buf, size_t len, char hex[HASH_HEX_MAX]);

#endif
