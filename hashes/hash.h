/* The hash registry: the one list of page-hash implementations ksmbench knows. */
#ifndef KB_HASH_H
#define KB_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "../common/err.h"

/* How an implementation spends the CPU, for its ceiling (bench/ceiling.h):
 * the scheme names the resource that bounds it, vector_bytes its width. */
enum hash_scheme {
	HASH_SCHEME_NONE = 0,     /* not modelled (scalar multiply/rotate chains, tables) */
	HASH_SCHEME_CRC_1WAY,     /* one dependent crc32 stream */
	HASH_SCHEME_CRC_3WAY,     /* three crc32 streams, recombined by carry-less multiply */
	HASH_SCHEME_CLMUL_FOLD,   /* (v)pclmulqdq folding, vector_bytes wide */
	HASH_SCHEME_CRC_CLMUL,    /* folding and crc32 streams at once on parts of the input */
	HASH_SCHEME_XXH3_VECTOR,  /* XXH3's 32x32->64 multiply-accumulate, vector_bytes wide */
	HASH_SCHEME_DISPATCHED,   /* a library picks one of the above at run time (see hash_scheme_here) */
};

/* Where the Linux kernel runs this code, for the thread table and `list`. */
struct hash_kernel_use {
	const char *function; /* the kernel function, or NULL: not in the kernel */
	const char *since;    /* first release that runs it this way, e.g. "5.0" */
	const char *until;    /* last release, NULL while current */
	const char *note;     /* on which CPUs and inputs; or why it is not in the kernel */
};

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
	const char *provenance;  /* "ksmbench" (written here) or a library key of common/versions.h */
	uint32_t cpu_needs;      /* enum cpu_feature bits */
	unsigned len_multiple;   /* inputs must be a multiple of this many bytes */
	hash_fn fn;
	/* For hashes wider than 64 bits: the full digest, canonical big-endian. */
	void (*digest_wide)(const void *buf, size_t len, uint8_t out[HASH_DIGEST_MAX]);
	/* For aliases ("xxhash", "crc32c"): the implementation they stand for. */
	const struct hash_impl *(*alias_of)(void);
	struct hash_kernel_use kernel;
	enum hash_scheme scheme;
	unsigned vector_bytes;   /* register width of the scheme (16, 32, 64), 0 for scalar */
	size_t fused_min_bytes;  /* HASH_SCHEME_CRC_CLMUL: below this many bytes the code folds alone */
	/* HASH_SCHEME_CRC_3WAY, _CLMUL_FOLD, _CRC_CLMUL: below this many bytes
	 * the code runs one crc32 stream (0: its scheme at every length). */
	size_t one_stream_below;
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

/* 1 when this build and this CPU can run h (resolving aliases): the one
 * availability test every caller uses. */
int hash_available(const struct hash_impl *h);

/* Why h cannot run here, the one wording for `list`, `verify` and errors:
 * "needs avx512f,vpclmulqdq", "not built for this architecture" or
 * "not in this build (libisal was not found)". NULL when it is available. */
const char *hash_unavailable_reason(const struct hash_impl *h, char *buf, size_t size);

/* How h spends the CPU here, for its ceiling: its own scheme, or for a
 * HASH_SCHEME_DISPATCHED entry what its library picks on this CPU (ISA-L's
 * crc32_iscsi, libxxhash's XXH3 dispatch). Fields as in struct hash_impl. */
struct hash_scheme_use {
	enum hash_scheme scheme;
	unsigned vector_bytes;
	size_t fused_min_bytes;
	size_t one_stream_below;
};
struct hash_scheme_use hash_scheme_here(const struct hash_impl *h);

/* Finds a hash by name and checks this CPU can run it; one clear error if not. */
const struct hash_impl *hash_select(const char *name, struct kb_err *err);

/* Checks an input length is acceptable for h (jhash2 takes whole 32-bit words). */
int hash_check_len(const struct hash_impl *h, size_t len, struct kb_err *err);

/* Provenance with the library version, e.g. "libxxhash 0.8.1". */
const char *hash_provenance(const struct hash_impl *h, char *buf, size_t size);

/* The digest of buf as lowercase hex, bits/4 digits, into hex[HASH_HEX_MAX]. */
void hash_hex(const struct hash_impl *h, const void *buf, size_t len, char hex[HASH_HEX_MAX]);

/* v's low bits (at most 64, a multiple of 4) as bits/4 lowercase hex
 * digits; n bytes of a wide digest (at most HASH_DIGEST_MAX) as 2n, in
 * order. Both end the text with a terminator (digest_hex.c). */
void hash_hex_of(uint64_t v, unsigned bits, char hex[HASH_HEX_MAX]);
void hash_hex_of_bytes(const uint8_t *d, unsigned n, char hex[HASH_HEX_MAX]);

/* A comma-separated list of names ("all" for every available one) into an
 * array of selected, available implementations. An element with *, ? or
 * [ is a glob (fnmatch) over the names: every hash it matches that this
 * CPU can run, in registry order, each hash once; one that matches no name
 * is an error naming it. Returns the count or -1. */
int hash_select_list(const char *list, const struct hash_impl **out, unsigned max, struct kb_err *err);

#endif
