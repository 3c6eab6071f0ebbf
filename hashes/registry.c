/* The registry: the one list of hashes, and the lookups everything else uses. */
#include <stdio.h>
#include <string.h>

#include "../common/versions.h"
#include "hash.h"
#include "impls.h"

const struct hash_impl *const hash_registry[] = {
	&hash_jhash2,
	&hash_xxhash,
	&hash_xxh32,
	&hash_xxh64,
	&hash_xxh3,
	&hash_xxh3_avx512,
	&hash_xxh3_avx2,
	&hash_xxh3_sse2,
	&hash_xxh3_neon,
	&hash_xxh3_dispatch,
	&hash_xxh3_lib,
	&hash_xxh128,
	&hash_xxh128_avx512,
	&hash_xxh128_avx2,
	&hash_xxh128_sse2,
	&hash_xxh128_neon,
	&hash_xxh128_lib,
	&hash_crc32c,
	&hash_crc32c_generic,
	&hash_crc32c_sse42,
	&hash_crc32c_3way,
	&hash_crc32c_vpclmul,
	&hash_crc32c_fused,
	&hash_crc32c_armv8,
	&hash_crc32c_isal,
	&hash_crc32c_isal_3way,
	&hash_crc32c_isal_by16,
	&hash_crc32_zlib,
};

const unsigned hash_registry_count = sizeof(hash_registry) / sizeof(hash_registry[0]);

const struct hash_impl *hash_find(const char *name)
{
	for (unsigned i = 0; i < hash_registry_count; i++)
		if (strcmp(hash_registry[i]->name, name) == 0)
			return hash_registry[i];
	return NULL;
}

const struct hash_impl *hash_resolve(const struct hash_impl *h)
{
	/* Aliases may chain (crc32c -> best crc32c); the depth bound guards a cycle. */
	for (int depth = 0; h && h->alias_of && depth < 8; depth++)
		h = h->alias_of();
	return h;
}

uint32_t hash_missing_features(const struct hash_impl *h)
{
	const struct hash_impl *r = hash_resolve(h);
	uint32_t missing = r->cpu_needs & ~cpu_features();

	/* Not built for this architecture: report what it would need. */
	if (!r->fn && !missing)
		missing = r->cpu_needs;
	return missing;
}

const struct hash_impl *hash_select(const char *name, struct kb_err *err)
{
	const struct hash_impl *h = hash_find(name);
	char feats[128];

	if (!h)
		return kb_fail(err, "unknown hash '%s' (ksmbench list shows the names)", name), NULL;
	uint32_t missing = hash_missing_features(h);
	if (missing || !hash_resolve(h)->fn)
		return kb_fail(err, "hash '%s' is not available on this CPU (missing: %s)", name,
			       missing ? cpu_features_names(missing, feats, sizeof(feats)) : "support for this architecture"),
		       NULL;
	return h;
}

int hash_check_len(const struct hash_impl *h, size_t len, struct kb_err *err)
{
	const struct hash_impl *r = hash_resolve(h);

	if (r->len_multiple > 1 && len % r->len_multiple)
		return kb_fail(err, "%s hashes whole %u-byte words; input length %zu is not a multiple of %u", h->name,
			       r->len_multiple, len, r->len_multiple);
	return 0;
}

const char *hash_provenance(const struct hash_impl *h, char *buf, size_t size)
{
	const struct hash_impl *r = hash_resolve(h);
	const char *version = kb_library_version(r->provenance);

	if (r != h)
		snprintf(buf, size, "alias of %s", r->name);
	else if (version)
		snprintf(buf, size, "%s %s", r->provenance, version);
	else
		snprintf(buf, size, "%s", r->provenance);
	return buf;
}

void hash_hex(const struct hash_impl *h, const void *buf, size_t len, char hex[HASH_HEX_MAX])
{
	const struct hash_impl *r = hash_resolve(h);

	if (r->bits > 64 && r->digest_wide) {
		uint8_t d[HASH_DIGEST_MAX];
		r->digest_wide(buf, len, d);
		for (unsigned i = 0; i < r->bits / 8; i++)
			snprintf(hex + 2 * i, 3, "%02x", d[i]);
		return;
	}
	snprintf(hex, HASH_HEX_MAX, "%0*llx", (int)(r->bits / 4), (unsigned long long)r->fn(buf, len));
}

int hash_select_list(const char *list, const struct hash_impl **out, unsigned max, struct kb_err *err)
{
	char buf[1024];
	unsigned n = 0;

	if (strcmp(list, "all") == 0) {
		for (unsigned i = 0; i < hash_registry_count && n < max; i++)
			if (!hash_missing_features(hash_registry[i]) && hash_resolve(hash_registry[i])->fn)
				out[n++] = hash_registry[i];
		return (int)n;
	}
	if (strlen(list) >= sizeof(buf))
		return kb_fail(err, "hash list is too long");
	strcpy(buf, list);
	/* Every element between commas counts: "xxhash," is a mistake, not xxhash. */
	for (char *tok = buf, *next; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		if (*tok == '\0')
			return kb_fail(err, "empty name in the hash list '%s'", list);
		const struct hash_impl *h = hash_select(tok, err);
		if (!h)
			return -1;
		for (unsigned i = 0; i < n; i++)
			if (out[i] == h)
				return kb_fail(err, "hash '%s' is named twice", tok);
		if (n == max)
			return kb_fail(err, "too many hashes (at most %u)", max);
		out[n++] = h;
	}
	if (n == 0)
		return kb_fail(err, "no hash named in '%s'", list);
	return (int)n;
}
