/* Unit tests: streaming digests (hashes/hash_stream.c) equal the digest of
 * the whole buffer for every available registry hash, whatever the pieces;
 * the CRC-32C combination against the check value; the bounded buffer of a
 * hash without a streaming form. */
#include <stdlib.h>
#include <string.h>

#include "../../common/prng.h"
#include "../../hashes/hash_stream.h"
#include "check.h"
#include "groups.h"

static int stream_hex(const struct hash_impl *h, const unsigned char *buf, size_t len, size_t piece,
		      char hex[HASH_HEX_MAX])
{
	struct hash_stream s;
	struct kb_err err;

	if (hash_stream_init(&s, h, &err))
		return -1;
	for (size_t done = 0; done < len; ) {
		size_t n = len - done < piece ? len - done : piece;
		if (hash_stream_update(&s, buf + done, n, &err)) {
			hash_stream_free(&s);
			return -1;
		}
		done += n;
	}
	return hash_stream_final(&s, hex, &err);
}

void test_hash_stream_digests(void)
{
	static const size_t lens[] = { 0, 1, 4, 63, 64, 4096, 100000, 3u << 20 };
	static const size_t pieces[] = { 1, 7, 4096, 1u << 20, SIZE_MAX };
	size_t max = 3u << 20;
	unsigned char *buf = malloc(max);
	uint64_t seed = 99;
	int all_equal = 1;

	CHECK(buf != NULL);
	if (!buf)
		return;
	prng_fill(&seed, buf, max);
	for (unsigned i = 0; i < hash_registry_count; i++) {
		const struct hash_impl *h = hash_registry[i];
		if (hash_missing_features(h) || !hash_resolve(h)->fn)
			continue;
		for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
			for (size_t p = 0; p < sizeof(pieces) / sizeof(pieces[0]); p++) {
				char want[HASH_HEX_MAX], got[HASH_HEX_MAX];
				if (pieces[p] == 1 && lens[l] > 100000)
					continue;
				if (hash_check_len(h, lens[l], NULL))
					continue;
				hash_hex(h, buf, lens[l], want);
				if (stream_hex(h, buf, lens[l], pieces[p], got) || strcmp(want, got) != 0) {
					fprintf(stderr, "FAIL stream %s len %zu piece %zu\n", h->name, lens[l], pieces[p]);
					all_equal = 0;
				}
			}
	}
	CHECK(all_equal);
	/* CRC-32C of "123456789" from its parts */
	const struct hash_impl *c = hash_find("crc32c-generic");
	uint32_t a = (uint32_t)c->fn("1234", 4), b = (uint32_t)c->fn("56789", 5);
	CHECK(hash_crc32c_combine(a, b, 5) == 0xE3069283u);
	CHECK(hash_crc32c_combine(0, 0xE3069283u, 9) == 0xE3069283u);
	CHECK(hash_crc32c_combine(0xE3069283u, 0, 0) == 0xE3069283u);
	/* jhash2: whole words only, in memory, bounded */
	char hex[HASH_HEX_MAX];
	struct hash_stream s;
	struct kb_err err;
	const struct hash_impl *j = hash_find("jhash2");
	CHECK(stream_hex(j, buf, 6, 4, hex) == -1);
	CHECK(hash_stream_init(&s, j, &err) == 0);
	int rc = 0;
	for (size_t done = 0; rc == 0 && done <= HASH_STREAM_BUFFER_MAX; done += max)
		rc = hash_stream_update(&s, buf, max, &err);
	CHECK(rc == -1 && strstr(err.msg, "no streaming form") && strstr(err.msg, "64 MiB"));
	hash_stream_free(&s);
	/* At most 64 MiB: exactly that is taken, a byte more is not. */
	CHECK(hash_stream_init(&s, j, &err) == 0);
	rc = 0;
	for (size_t done = 0; rc == 0 && done < HASH_STREAM_BUFFER_MAX; done += 1u << 20)
		rc = hash_stream_update(&s, buf, 1u << 20, &err);
	CHECK(rc == 0 && hash_stream_update(&s, buf, 1, &err) == -1 && strstr(err.msg, "no streaming form"));
	hash_stream_free(&s);
	free(buf);
}
