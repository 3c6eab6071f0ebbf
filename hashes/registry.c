/* The registry: the one list of hashes, and the lookups everything else uses. */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "../common/versions.h"
#include "hash.h"
#include "impls.h"

const struct hash_impl *const hash_registry[] = {
	&hash_jhash2,
	&hash_jhash2_lookup2,
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
	&hash_crc32c_3way_fit,
	&hash_crc32c_vpclmul,
	&hash_crc32c_vpclmul_avx2,
	&hash_crc32c_fused,
	&hash_crc32c_fused_intel,
	&hash_crc32c_fused6,
	&hash_crc32c_fused_avx2,
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

int hash_available(const struct hash_impl *h)
{
	const struct hash_impl *r = hash_resolve(h);

	return r && r->fn && !(r->cpu_needs & ~cpu_features());
}

const char *hash_unavailable_reason(const struct hash_impl *h, char *buf, size_t size)
{
	const struct hash_impl *r = hash_resolve(h);
	char feats[128];

	if (hash_available(h))
		return NULL;
	if (!r->fn) {
		/* Code not built: a library the build did not find, or code for
		 * another architecture (whose features may well be present). */
		const char *version = kb_library_version(r->provenance);
		if (strcmp(r->provenance, "ksmbench") != 0 && (!version || !*version))
			snprintf(buf, size, "not in this build (%s was not found)", r->provenance);
		else
			snprintf(buf, size, "not built for this architecture");
	} else {
		snprintf(buf, size, "needs %s", cpu_features_names(r->cpu_needs & ~cpu_features(), feats, sizeof(feats)));
	}
	return buf;
}

const struct hash_impl *hash_select(const char *name, struct kb_err *err)
{
	const struct hash_impl *h = hash_find(name);
	char why[160];

	if (!h)
		return kb_fail(err, "unknown hash '%s' (ksmbench list shows the names)", name), NULL;
	if (hash_unavailable_reason(h, why, sizeof(why)))
		return kb_fail(err, "hash '%s' is not available here (%s)", name, why), NULL;
	return h;
}

struct hash_scheme_use hash_scheme_here(const struct hash_impl *h)
{
	const struct hash_impl *r = hash_resolve(h);
	/* The libraries look at the CPU, not at KSMBENCH_DISABLE. */
	uint32_t f = cpu_features_detected();
	const uint32_t zmm = CPU_AVX512F | CPU_AVX512VL | CPU_AVX512BW | CPU_VPCLMUL;

	if (r->scheme == HASH_SCHEME_DISPATCHED && strcmp(r->family, "crc32c") == 0) {
		/* ISA-L's crc32_iscsi: 512-bit folding (by16_10) with AVX-512 and
		 * VPCLMULQDQ, else its 3-way crc32q (_01), else tables. */
		if ((f & zmm) == zmm)
			r = &hash_crc32c_isal_by16;
		else if ((f & (CPU_SSE42 | CPU_PCLMUL)) == (CPU_SSE42 | CPU_PCLMUL))
			r = &hash_crc32c_isal_3way;
		else
			return (struct hash_scheme_use){ HASH_SCHEME_NONE, 0, 0, 0 };
	}
	if (r->scheme == HASH_SCHEME_DISPATCHED) {
		/* libxxhash's XXH3 dispatch: AVX-512, else AVX2, else SSE2. */
		unsigned w = f & CPU_AVX512F ? 64 : f & CPU_AVX2 ? 32 : 16;
		return (struct hash_scheme_use){ HASH_SCHEME_XXH3_VECTOR, w, 0, 0 };
	}
	return (struct hash_scheme_use){ r->scheme, r->vector_bytes, r->fused_min_bytes, r->one_stream_below };
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
		hash_hex_of_bytes(d, r->bits / 8, hex);
		return;
	}
	hash_hex_of(r->fn(buf, len), r->bits, hex);
}

/* A glob of the list ("xxh3-*", "crc32c-?way*"): every available hash its
 * name matches (fnmatch), in registry order, those listed already left
 * out. Returns the new count, or -1: no name matches, or none this CPU
 * can run. */
static int select_glob(const char *glob, const struct hash_impl **out, unsigned n, unsigned max, struct kb_err *err)
{
	unsigned matched = 0, runnable = 0;

	for (unsigned i = 0; i < hash_registry_count; i++) {
		const struct hash_impl *h = hash_registry[i];
		int listed = 0;
		if (fnmatch(glob, h->name, 0) != 0)
			continue;
		matched++;
		if (!hash_available(h))
			continue;
		runnable++;
		for (unsigned j = 0; j < n && !listed; j++)
			listed = out[j] == h;
		if (listed)
			continue;
		if (n == max)
			return kb_fail(err, "too many hashes (at most %u)", max);
		out[n++] = h;
	}
	if (!matched)
		return kb_fail(err, "no hash matches '%s' (ksmbench list --names)", glob);
	if (!runnable)
		return kb_fail(err, "no hash this CPU can run matches '%s'", glob);
	return (int)n;
}

int hash_select_list(const char *list, const struct hash_impl **out, unsigned max, struct kb_err *err)
{
	char buf[1024];
	unsigned n = 0;

	if (strcmp(list, "all") == 0) {
		for (unsigned i = 0; i < hash_registry_count && n < max; i++)
			if (hash_available(hash_registry[i]))
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
		if (strcmp(tok, "all") == 0)
			return kb_fail(err, "'all' names every hash: it stands alone, not in a list ('%s')", list);
		if (strpbrk(tok, "*?[")) {
			int got = select_glob(tok, out, n, max, err);
			if (got < 0)
				return -1;
			n = (unsigned)got;
			continue;
		}
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
