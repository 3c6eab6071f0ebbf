/* XXH3 through libxxhash's own run-time dispatcher (xxh_x86dispatch.h,
 * XXH3_64bits_dispatch): what a program linking the packaged library gets
 * when it asks for the best code path. The dispatcher exists in the x86-64
 * library only. */
#include "hash.h"
#include "impls.h"

#if defined(__x86_64__)
#define XXH_DISPATCH_DISABLE_REPLACE /* call the _dispatch names explicitly */
#include <xxh_x86dispatch.h>

static uint64_t lib_xxh3_dispatch(const void *buf, size_t len)
{
	return XXH3_64bits_dispatch(buf, len);
}
#define XXH3_DISPATCH_FN lib_xxh3_dispatch
#else
#define XXH3_DISPATCH_FN NULL
#endif

const struct hash_impl hash_xxh3_dispatch = {
	.name = "xxh3-dispatch",
	.description = "XXH3_64bits, seed 0, libxxhash's XXH3_64bits_dispatch (its own CPUID dispatch)",
	.family = "xxh3",
	.bits = 64,
	.provenance = "libxxhash",
	.kernel = { NULL, NULL, NULL, "libxxhash's XXH3 dispatch; the kernel has no XXH3" },
	.scheme = HASH_SCHEME_DISPATCHED,
	.cpu_needs = CPU_SSE2,
	.len_multiple = 1,
	.fn = XXH3_DISPATCH_FN,
};
