/* The hash registry: the one list of page-hash implementations ksmbench knows. */
#ifndef KB_HASH_H
#define KB_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "../common/err.h"

/* Every implementation has this shape, with the parameters KSM used (seed,
 * initval) fixed inside. Hashes wider than 64 bits return their low 64 bits. */
typedef uint64_t (*hash_fn)(const void *buf, size_t len);

#define HASH_DIGEST_MAX 16       /* bytes: up to 128-bit hashes */
#define HASH_HEX_MAX (2 * HASH_DIGEST_MAX + 1)

struct hash_impl {
	const char *name;        /* stable: part of the CLI and the JSON */
	const char *description; /* one line */
	const char *family;      /* implementations of one function share it */
	unsigned bits;           /* output width */
	const char *provenance;  /* "in-tree" or a library key of common/versions.h */
	uint32_t cpu_needs;      /* enum cpu_feature bits */
	unsigned len_multiple;   /* inputs must be a multiple of this many bytes */
	hash_fn fn;
	/* For hashes wider than 64 bits: the full digest, canonical big-endian. */
	void (*digest_wide)(const void *buf, size_t len, uint8_t out[HASH_DIGEST_MAX]);
	/* For aliases ("xxhash", "crc32c"): the implementation they stand for. */
	const struct hash_impl *(*alias_of)(void);
};

/* The registry, in display order. */
extern const struct hash_impl *const hash_registry[];
extern const unsigned hash_registry_count;

/* Looks a name up; NULL if unknown. */
const struct hash_impl *hash_find(const char *name);

/* The concrete implementation behind an alias (itself for non-aliases). */
const struct hash_impl *hash_resolve(const struct hash_impl *h);

/* Features h needs that this CPU lacks (0 when it can run). */
uint32_t hash_missing_features(const struct hash_impl *h);

/* Finds a hash by name and checks this CPU can run it; one clear error if not. */
const struct hash_impl *hash_select(const char *name, struct kb_err *err);

/* Checks an input length is acceptable for h (jhash2 takes whole 32-bit words). */
int hash_check_len(const struct hash_impl *h, size_t len, struct kb_err *err);

/* Provenance with the library version, e.g. "libxxhash 0.8.1". */
const char *hash_provenance(const struct hash_impl *h, char *buf, size_t size);

/* The digest of buf as lowercase hex, bits/4 digits, into hex[HASH_HEX_MAX]. */
void hash_hex(const struct hash_impl *h, const void *buf, size_t len, char hex[HASH_HEX_MAX]);

/* A comma-separated list of names ("all" for every available one) into an
 * array of selected, available implementations. Returns the count or -1. */
int hash_select_list(const char *list, const struct hash_impl **out, unsigned max, struct kb_err *err);

#endif
