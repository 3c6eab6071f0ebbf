/* Unit tests: each hash implementation on known answers, odd lengths and
 * misaligned starts, against the references and each other. */
#include <stdlib.h>
#include <string.h>

#include "../../common/prng.h"
#include "../../hashes/impls.h"
#include "../../hashes/reference.h"
#include "check.h"
#include "groups.h"

static unsigned char *random_buffer(size_t n, uint32_t seed)
{
	unsigned char *b = malloc(n);
	for (size_t i = 0; b && i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		b[i] = (unsigned char)(seed >> 16);
	}
	return b;
}

/* A registered jhash2 hashes len/4 words with KSM's initval 17: against
 * its bytewise reference at every short length and a page, misaligned. */
static void check_ksm_words(const struct hash_impl *h, uint32_t (*ref)(const void *, size_t, uint32_t),
			    uint32_t seed)
{
	unsigned char *b = random_buffer(4096 + 8, seed);

	for (unsigned off = 0; off < 8; off++)
		for (size_t len = 0; len <= 64; len += 4)
			CHECK(h->fn(b + off, len) == ref(b + off, len, 17));
	CHECK(h->fn(b + 3, 4096) == ref(b + 3, 4096, 17));
	CHECK(h->len_multiple == 4);
	free(b);
}

void test_hashes_jhash2(void)
{
	static const uint32_t zero[1024];
	uint32_t words[3] = { 1, 2, 3 };

	/* The kernel function itself, with its own initval. */
	CHECK(jhash2_kernel(words, 0, 0) == 0xdeadbeefu);
	CHECK(jhash2_kernel(words, 0, 17) == 0xdeadbeefu + 17);
	CHECK(jhash2_kernel(zero, 1024, 17) == 0x61574272u);
	/* hashword == hashlittle on little-endian whole words: 1..3 word tails. */
	for (size_t n = 1; n <= 3; n++)
		CHECK(jhash2_kernel(words, n, 5) == ref_hashlittle(words, 4 * n, 5));
	CHECK(ref_hashlittle("Four score and seven years ago", 30, 0) == 0x17770551u);
	CHECK(ref_hashlittle("", 0, 0) == 0xdeadbeefu);

	check_ksm_words(&hash_jhash2, ref_hashlittle, 7);
}

/* The jhash2 of 2.6.32-2.6.37 (lookup2): values of that release's own
 * jhash.h compiled in user space, tails of 0-2 words past the blocks of 3,
 * and the bytewise reference on random input. */
void test_hashes_jhash2_lookup2(void)
{
	static const uint32_t words[4] = { 1, 2, 3, 4 };
	static const uint32_t kernel[5] = { 0xce8ba1acu, 0x18bd1741u, 0x7b5795f7u, 0x6ad92db0u, 0x24ea120eu };
	unsigned char page[4096];

	for (size_t n = 0; n <= 4; n++) {
		CHECK(hash_jhash2_lookup2.fn(words, 4 * n) == kernel[n]);
		CHECK(ref_lookup2(words, 4 * n, 17) == kernel[n]);
	}
	memset(page, 0, sizeof(page));
	CHECK(hash_jhash2_lookup2.fn(page, 4096) == 0x31cbe0fau);
	memset(page, 0xff, sizeof(page));
	CHECK(hash_jhash2_lookup2.fn(page, 4096) == 0x5cc67428u);
	for (size_t i = 0; i < sizeof(page); i++)
		page[i] = (unsigned char)i;
	CHECK(hash_jhash2_lookup2.fn(page, 4096) == 0x8320d981u);
	/* Not lookup3's jhash2 under another name. */
	CHECK(hash_jhash2_lookup2.fn(page, 4096) != hash_jhash2.fn(page, 4096));

	check_ksm_words(&hash_jhash2_lookup2, ref_lookup2, 13);
}

void test_hashes_crc32c(void)
{
	const char *check = "123456789";
	unsigned char *b = random_buffer(5000, 11);

	CHECK(hash_crc32c_generic.fn(check, 9) == 0xe3069283u);
	if (hash_crc32c_isal.fn) /* libisal is not packaged everywhere */
		CHECK(hash_crc32c_isal.fn(check, 9) == 0xe3069283u);
	CHECK(hash_crc32_zlib.fn(check, 9) == 0xcbf43926u);
	CHECK(ref_crc32c(check, 9) == 0xe3069283u);
	CHECK(ref_crc32(check, 9) == 0xcbf43926u);
	if (hash_available(&hash_crc32c_sse42))
		CHECK(hash_crc32c_sse42.fn(check, 9) == 0xe3069283u);
	/* Incremental use of the generic update must agree with one call. */
	uint32_t c = crc32c_generic_update(0xffffffffu, b, 1000);
	c = crc32c_generic_update(c, b + 1000, 3001);
	CHECK((c ^ 0xffffffffu) == hash_crc32c_generic.fn(b, 4001));
	for (size_t len = 0; len < 300; len++)
		for (unsigned off = 0; off < 16; off += 5) {
			uint32_t want = ref_crc32c(b + off, len);
			CHECK(hash_crc32c_generic.fn(b + off, len) == want);
			if (hash_crc32c_isal.fn)
				CHECK(hash_crc32c_isal.fn(b + off, len) == want);
		}
	/* Every prefix at once, as the self-test takes its references. */
	uint32_t pre[301], pre_ieee[301];
	unsigned bad = 0;
	ref_crc32c_prefixes(b + 3, 300, pre);
	ref_crc32_prefixes(b + 3, 300, pre_ieee);
	for (size_t len = 0; len <= 300; len++)
		bad += pre[len] != ref_crc32c(b + 3, len) || pre_ieee[len] != ref_crc32(b + 3, len);
	CHECK(bad == 0 && pre[0] == 0);
	free(b);
}

void test_hashes_xxhash(void)
{
	static const unsigned char zero[4096];
	uint8_t d[16];

	CHECK(hash_xxh32.fn("", 0) == 0x02cc5d05u);
	CHECK(hash_xxh64.fn("", 0) == 0xef46db3751d8e999ull);
	CHECK(hash_xxh3_lib.fn("", 0) == 0x2d06800538d394c2ull);
	CHECK(hash_xxh64.fn(zero, 4096) == 0xac869b6f32d8bbdbull);
	hash_xxh128_lib.digest_wide("", 0, d);
	CHECK(d[0] == 0x99 && d[15] == 0x7f);
	/* The value of a 128-bit hash is its low half: the last 8 canonical bytes. */
	uint64_t low = 0;
	for (int i = 8; i < 16; i++)
		low = (low << 8) | d[i];
	CHECK(hash_xxh128_lib.fn("", 0) == low);
	CHECK(hash_resolve(&hash_xxhash) == (sizeof(void *) == 8 ? &hash_xxh64 : &hash_xxh32));
}

/* The first registry entry of each family, that family's name, once:
 * *n of them into families. */
static void registry_families(const char **families, unsigned *n)
{
	*n = 0;
	for (unsigned i = 0; i < hash_registry_count; i++) {
		const char *f = hash_resolve(hash_registry[i])->family;
		unsigned k = 0;
		while (k < *n && strcmp(families[k], f) != 0)
			k++;
		if (k == *n)
			families[(*n)++] = f;
	}
}

/* Counts the registry entries (aliases resolved) of family f that this CPU
 * runs and whose digest of buf differs from the family's reference;
 * reports the first. A length an entry does not take is left out. */
static unsigned family_mismatches(const char *f, const unsigned char *buf, size_t len, const char *what)
{
	char want[HASH_HEX_MAX], got[HASH_HEX_MAX];
	unsigned bad = 0;
	int have = 0;

	for (unsigned i = 0; i < hash_registry_count; i++) {
		const struct hash_impl *r = hash_resolve(hash_registry[i]);
		if (!hash_available(r) || strcmp(r->family, f) != 0 || len % r->len_multiple != 0)
			continue;
		if (!have && ref_hex(f, buf, len, want) != 0)
			return 0;
		have = 1;
		hash_hex(r, buf, len, got);
		if (strcmp(got, want) != 0 && bad++ == 0)
			fprintf(stderr, "%s (%s) differs from its reference on %s data, length %zu\n",
				hash_registry[i]->name, r->name, what, len);
	}
	return bad;
}

/* Adversarial inputs (all zero, all 0xff, alternating) at every length the
 * self-test sweeps with random bytes, and page sizes from 64 B to 16 MiB,
 * at aligned and odd starts: every entry of every family against the
 * slow references. The folding code's carry-less products and the lanes'
 * recombination see their extreme operands here. */
void test_hashes_adversarial(void)
{
	static const unsigned offsets[] = { 0, 1, 63 };
	const char *families[64];
	unsigned nfamilies;
	const size_t big = (size_t)16 << 20;
	unsigned char *b = malloc(big + 64);
	unsigned bad = 0;

	registry_families(families, &nfamilies);
	CHECK(b != NULL && nfamilies >= 8 && nfamilies < sizeof(families) / sizeof(families[0]));
	if (!b)
		return;
	for (int fill = 0; fill < 3; fill++) {
		const char *what = fill == 0 ? "all-zero" : fill == 1 ? "all-0xff" : "0x00/0xff";
		for (size_t i = 0; i < 4200 + 64; i++)
			b[i] = fill == 0 ? 0 : fill == 1 ? 0xff : (i & 1 ? 0xff : 0);
		for (unsigned f = 0; f < nfamilies; f++)
			for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++)
				for (size_t len = 0; len <= 4200; len++)
					bad += family_mismatches(families[f], b + offsets[o], len, what);
	}
	CHECK(bad == 0);

	/* Page sizes, one more byte and one word more, on random bytes and
	 * on all 0xff. */
	bad = 0;
	for (int fill = 0; fill < 2; fill++) {
		uint64_t s = 0x5eed;
		if (fill == 0)
			prng_fill(&s, b, big + 64);
		else
			memset(b, 0xff, big + 64);
		for (size_t page = 64; page <= big; page *= 2) {
			const size_t lens[] = { page, page + 1, page + 4 };
			/* Above 1 MiB one aligned page of each size: the time goes to the references. */
			size_t nl = page > ((size_t)1 << 20) ? 1 : 3, no = page > ((size_t)1 << 20) ? 1 : 2;
			for (size_t l = 0; l < nl; l++)
				for (size_t o = 0; o < no; o++)
					for (unsigned f = 0; f < nfamilies; f++)
						bad += family_mismatches(families[f], b + 5 * o, lens[l],
									 fill ? "all-0xff" : "random");
		}
	}
	CHECK(bad == 0);
	free(b);
}
