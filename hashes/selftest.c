/* Known-answer tests and cross-checks of every registered hash (see selftest.h). */
#include "selftest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/prng.h"
#include "impls.h"
#include "reference.h"

/* Known answers: standard check values, and values of the kernel's functions
 * as KSM called them. An input is text, or `zeros` zero bytes when text is NULL. */
static const struct kat {
	const char *family;
	const char *text;
	size_t zeros;
	const char *hex;
} kats[] = {
	{ "crc32c", "123456789", 0, "e3069283" },
	{ "crc32c", "", 0, "00000000" },
	{ "crc32c", NULL, 32, "8a9136aa" },          /* RFC 3720 B.4 */
	{ "crc32", "123456789", 0, "cbf43926" },
	{ "crc32", "", 0, "00000000" },
	{ "crc32", "The quick brown fox jumps over the lazy dog", 0, "414fa339" },
	{ "xxh32", "", 0, "02cc5d05" },
	{ "xxh32", "abc", 0, "32d153ff" },
	{ "xxh64", "", 0, "ef46db3751d8e999" },
	{ "xxh64", "abc", 0, "44bc2cf5ad770999" },
	{ "xxh64", NULL, 4096, "ac869b6f32d8bbdb" }, /* KSM's zero-page checksum source */
	{ "xxh3", "", 0, "2d06800538d394c2" },
	{ "xxh128", "", 0, "99aa06d3014798d86001c324468d497f" },
	{ "jhash2", "", 0, "deadbf00" },             /* JHASH_INITVAL + 17, no words */
	{ "jhash2", NULL, 4096, "61574272" },        /* jhash2(zero page, 1024, 17) */
	/* Linux 2.6.37's jhash.h compiled as it was (lookup2). */
	{ "jhash2-lookup2", "", 0, "ce8ba1ac" },
	{ "jhash2-lookup2", NULL, 4096, "31cbe0fa" },
};

typedef void (*ref_prefixes_fn)(const void *, size_t, uint32_t *);

/* For the CRC families, every prefix's reference in one pass (reference.h);
 * NULL for the others, which are checked one length at a time. */
static ref_prefixes_fn ref_prefixes(const char *family)
{
	if (strcmp(family, "crc32c") == 0)
		return ref_crc32c_prefixes;
	if (strcmp(family, "crc32") == 0)
		return ref_crc32_prefixes;
	return NULL;
}

static const char *ref_name(const char *family)
{
	if (strcmp(family, "crc32c") == 0 || strcmp(family, "crc32") == 0)
		return "a bytewise table reference";
	if (strcmp(family, "jhash2") == 0)
		return "lookup3 hashlittle";
	if (strcmp(family, "jhash2-lookup2") == 0)
		return "lookup2 hash, bytewise";
	return "libxxhash's streaming API";
}

void selftest_default_opts(struct selftest_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->max_len = 4200;
	o->max_offset = 63;
	o->seed = 0x6b736d62656e6368ull; /* "ksmbench" */
}

/* The reference itself must be right before it can judge: lookup3's own
 * published values for hashlittle; for lookup2, values of Linux 2.6.37's
 * jhash2 over the little-endian words 1, 2 (a tail of two words) and 1..4
 * (one block and one word), and a page of bytes 0, 1, .. 255, 0, ..: inputs
 * whose bytes differ, so that a byte out of place shows. */
static int check_reference(const char *family, struct selftest_result *res)
{
	static const char four[] = "Four score and seven years ago";
	static const unsigned char words[16] = { 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0 };
	unsigned char page[4096];
	const char *bad = NULL;

	if (strcmp(family, "jhash2") == 0) {
		res->kats += 2;
		if (ref_hashlittle(four, 30, 0) != 0x17770551u || ref_hashlittle(four, 30, 1) != 0xcd628161u)
			bad = "reference hashlittle fails lookup3's known answers";
	} else if (strcmp(family, "jhash2-lookup2") == 0) {
		res->kats += 3;
		for (size_t i = 0; i < sizeof(page); i++)
			page[i] = (unsigned char)i;
		if (ref_lookup2(words, 8, 17) != 0x7b5795f7u || ref_lookup2(words, 16, 17) != 0x24ea120eu ||
		    ref_lookup2(page, sizeof(page), 17) != 0x8320d981u)
			bad = "reference lookup2 fails Linux 2.6.37's jhash2 values";
	}
	if (bad) {
		snprintf(res->detail, sizeof(res->detail), "%s", bad);
		return -1;
	}
	return 0;
}

static int run_kats(const struct hash_impl *h, const char *family, struct selftest_result *res)
{
	static const unsigned char zero[4096];
	char hex[HASH_HEX_MAX];

	for (size_t i = 0; i < sizeof(kats) / sizeof(kats[0]); i++) {
		const struct kat *k = &kats[i];
		if (strcmp(k->family, family) != 0)
			continue;
		const void *in = k->text ? (const void *)k->text : zero;
		size_t len = k->text ? strlen(k->text) : k->zeros;
		hash_hex(h, in, len, hex);
		res->kats++;
		if (strcmp(hex, k->hex) != 0) {
			snprintf(res->detail, sizeof(res->detail), "known answer: %s(%s%zu bytes) = %s, expected %s", h->name,
				 k->text ? "text, " : "zeros, ", len, hex, k->hex);
			return -1;
		}
	}
	return 0;
}

/* Another registered, available implementation of the same function, so that
 * implementations are also compared with each other directly. */
static const struct hash_impl *find_peer(const struct hash_impl *r)
{
	for (unsigned i = 0; i < hash_registry_count; i++) {
		const struct hash_impl *p = hash_registry[i];
		if (p != r && !p->alias_of && strcmp(p->family, r->family) == 0 && hash_available(p))
			return p;
	}
	return NULL;
}

static int verified_beside(const struct hash_impl *p, const struct selftest_opts *o)
{
	for (unsigned i = 0; i < o->nbeside; i++)
		if (o->beside[i] == p)
			return 1;
	return 0;
}

/* Every length at every offset against the reference (from prefixes, into
 * prefix, where the family has them) and a peer, unless the peer's own
 * line does that; the first mismatch ends it, described in res. */
static void cross_check(const struct hash_impl *h, const struct hash_impl *r, const struct selftest_opts *o,
			const unsigned char *buf, ref_prefixes_fn prefixes, uint32_t *prefix,
			struct selftest_result *res)
{
	char got[HASH_HEX_MAX], want[HASH_HEX_MAX];
	unsigned step = r->len_multiple ? r->len_multiple : 1;
	const struct hash_impl *named = find_peer(r), *peer = verified_beside(named, o) ? NULL : named;

	for (unsigned off = 0; off <= o->max_offset; off++) {
		if (prefixes)
			prefixes(buf + off, o->max_len, prefix);
		for (unsigned len = 0; len <= o->max_len; len += step) {
			const char *against = ref_name(r->family);
			hash_hex(h, buf + off, len, got);
			if (prefixes)
				hash_hex_of(prefix[len], 32, want);
			else
				ref_hex(r->family, buf + off, len, want);
			res->checks++;
			if (strcmp(got, want) == 0 && peer) {
				hash_hex(peer, buf + off, len, want);
				against = peer->name;
				res->checks++;
			}
			if (strcmp(got, want) != 0) {
				snprintf(res->detail, sizeof(res->detail),
					 "cross-check: %s = %s, %s = %s at length %u, offset %u", h->name, got, against,
					 want, len, off);
				res->failed = 1;
				return;
			}
		}
	}
	snprintf(res->detail, sizeof(res->detail), "lengths 0..%u x offsets 0..%u against %s%s%s%s", o->max_len,
		 o->max_offset, ref_name(r->family), named ? " and " : "", named ? named->name : "",
		 named && !peer ? " (on its own line)" : "");
}

int selftest_run(const struct hash_impl *h, const struct selftest_opts *o, struct selftest_result *res,
		 struct kb_err *err)
{
	const struct hash_impl *r = hash_resolve(h);
	char want[HASH_HEX_MAX];

	memset(res, 0, sizeof(*res));
	if (ref_hex(r->family, "", 0, want))
		return kb_fail(err, "no reference for hash family '%s'", r->family);

	size_t size = (size_t)o->max_len + o->max_offset + 1;
	ref_prefixes_fn prefixes = ref_prefixes(r->family);
	unsigned char *buf = malloc(size);
	uint32_t *prefix = prefixes ? malloc(((size_t)o->max_len + 1) * sizeof(*prefix)) : NULL;
	if (!buf || (prefixes && !prefix)) {
		free(buf);
		free(prefix);
		return kb_fail(err, "out of memory for the self-test buffer");
	}
	uint64_t s = o->seed;
	prng_fill(&s, buf, size);

	if (check_reference(r->family, res) || run_kats(h, r->family, res))
		res->failed = 1;
	else
		cross_check(h, r, o, buf, prefixes, prefix, res);
	free(buf);
	free(prefix);
	return 0;
}
