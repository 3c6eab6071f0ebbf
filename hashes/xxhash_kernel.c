/* The kernel's xxhash(): xxh64 on 64-bit builds, xxh32 on 32-bit builds
 * (include/linux/xxhash.h keys on BITS_PER_LONG); KSM's checksum since 5.0. */
#include <stdint.h>

#include "hash.h"
#include "impls.h"

static const struct hash_impl *xxhash_target(void)
{
#if UINTPTR_MAX > 0xffffffffu
	return &hash_xxh64;
#else
	return &hash_xxh32;
#endif
}

const struct hash_impl hash_xxhash = {
	.name = "xxhash",
	.kernel = { "xxhash()", "5.0", NULL,
		    "KSM's page checksum since 5.0: (u32)xxhash(page, PAGE_SIZE, 0), xxh64 on 64-bit, xxh32 on 32-bit" },
	.description = "the kernel's xxhash(): xxh64 on 64-bit, xxh32 on 32-bit",
	.alias_of = xxhash_target,
};
