/* A page digest for the read-ahead tests (test_datasets.c,
 * test_dump_readers.c): its key the page's first 8 bytes, never 0 (ctx is
 * added, so that the key is not the bytes themselves), and a sum that is
 * not the key's low half, so that both are seen to travel. */
#ifndef KB_TEST_DIGEST_STUB_H
#define KB_TEST_DIGEST_STUB_H

#include <stdint.h>
#include <string.h>

#include "../../datasets/page_source.h"

static inline uint64_t stub_digest_key(void *ctx, const unsigned char *data)
{
	uint64_t v;

	memcpy(&v, data, sizeof(v));
	return (v << 1 | 1) + (uint64_t)(uintptr_t)ctx;
}

static inline uint32_t stub_digest_sum(uint64_t key)
{
	return (uint32_t)(key >> 7) ^ 0x5a5a5a5au;
}

/* A page_digest_fn: the sum whether or not the thread has time to spare. */
static inline void stub_digest(void *ctx, const unsigned char *data, int spare, struct page_digest *out)
{
	(void)spare;
	out->key = stub_digest_key(ctx, data);
	out->sum = stub_digest_sum(out->key);
}

#endif
