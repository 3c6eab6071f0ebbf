/* The page census behind `ksmbench scan`: which contents a set of pages
 * holds and how often, decided by full content. A fast 64-bit key (any
 * hash) only finds candidates in an open-addressing table; a candidate
 * counts as the same content only after a byte compare with the page
 * that first brought that content (its representative), read again
 * through a locator. Zero pages are recognised by their bytes and only
 * counted. For every checksum asked for, the 32-bit value KSM would
 * store is kept per distinct content, to count collisions afterwards. */
#ifndef KB_CENSUS_H
#define KB_CENSUS_H

#include <stddef.h>
#include <stdint.h>

#include "../common/err.h"
#include "../datasets/page_source.h"
#include "../hashes/hash.h"

#define CENSUS_SUMS_MAX 32
/* The content census_add reports for a zero page. */
#define CENSUS_CONTENT_ZERO UINT64_MAX
/* Dumps told apart (census_add's dump): the key's low 16 bits hold the last
 * dump a content was seen in; the upper 48 bits find candidates, and a
 * byte compare decides anyway. */
#define CENSUS_DUMPS_MAX 65536u
/* Locators with this bit are the census's own copies (see census_add). */
#define CENSUS_LOCATOR_SPILLED (1ull << 63)

/* Reads the page at locator (one the caller gave census_add) into buf. */
typedef int (*census_fetch_fn)(void *ctx, uint64_t locator, void *buf, struct kb_err *err);

struct census_config {
	uint32_t page_size;
	hash_fn key_fn;                   /* candidate key: fast, 64-bit */
	hash_fn sum_fns[CENSUS_SUMS_MAX]; /* checksums kept as u32 per distinct content */
	unsigned nsums;
	uint64_t expected_pages; /* sizes the table; 0 if unknown (it grows) */
	size_t cache_bytes;      /* recently compared representatives kept in memory */
	census_fetch_fn fetch;
	void *fetch_ctx;
};

struct census_counts {
	uint64_t pages;          /* added */
	uint64_t zero_pages;
	uint64_t distinct;       /* distinct non-zero contents */
	uint64_t compares;       /* full compares against a representative */
	uint64_t key_collisions; /* compares that found a different content */
	uint64_t fetches;        /* representatives read again (cache misses) */
	uint64_t spilled;        /* representatives copied to the spill file */
	uint64_t table_slots;    /* capacity of the table at the end */
	uint64_t table_bytes;
	/* Non-zero pages whose content an earlier page of the same dump has
	 * (within), or only earlier dumps have (across: the first copy in this
	 * dump of a content seen before). Their sum is the surplus copies. */
	uint64_t within_dump_duplicates, across_dump_duplicates;
};

/* One distinct non-zero content. */
struct census_entry {
	uint64_t key;     /* upper 48 bits: the key; low 16: the last dump it was seen in */
	uint64_t locator;
	uint32_t count;
	uint32_t sum0; /* the first checksum's 32-bit value */
};

struct census;

struct census *census_new(const struct census_config *cfg, struct kb_err *err);
void census_free(struct census *c);

/* Adds one page of dump (< CENSUS_DUMPS_MAX; the dumps one after another).
 * locator says where the caller's fetch can read it again;
 * PAGE_LOCATOR_NONE (UINT64_MAX) when it cannot: the census then keeps a
 * copy of each new content in an unlinked temporary file (the spill file)
 * and reads that instead. Caller locators must not have bit 63 set.
 * *content (if not NULL) names the page's content: its representative's
 * locator (census_entry.locator), or CENSUS_CONTENT_ZERO. */
int census_add(struct census *c, const unsigned char *data, uint64_t locator, unsigned dump, uint64_t *content,
	       struct kb_err *err);

/* The page's digest for census_add_digested: the zero test and the key in
 * one value, never 0, and, if spare and the page is not zero, its first
 * checksum (cfg.sum_fns[0]), which census_add_digested otherwise computes
 * itself for the distinct pages. A page_digest_fn, for a source that
 * digests ahead on its own thread (a pure function of the bytes); ctx is
 * the census. */
void census_digest(void *ctx, const unsigned char *data, int spare, struct page_digest *out);

/* Starts loading the table slot a page with this census_digest will probe
 * (a hint: nothing changes; 0, no digest, is no hint). The table is larger
 * than the caches and its slots random, so each page's probe is a miss
 * unless started early. */
void census_prefetch(const struct census *c, uint64_t digest);

/* census_add with the page's census_digest already computed (NULL, or key
 * 0: not). */
int census_add_digested(struct census *c, const unsigned char *data, const struct page_digest *digest,
			uint64_t locator, unsigned dump, uint64_t *content, struct kb_err *err);

/* The table: *nslots entries, those with a count in use. */
const struct census_entry *census_slots(const struct census *c, uint64_t *nslots);

const struct census_counts *census_counts(const struct census *c);

/* 1 if the page is all zero bytes (a word-OR loop that stops early). */
int census_page_is_zero(const unsigned char *data, size_t len);

/* The representative's bytes of a content. */
int census_read(struct census *c, const struct census_entry *e, void *buf, struct kb_err *err);

/* The n contents with the highest counts, highest first (ties: first seen
 * first is not guaranteed; by key). Returns how many were written. */
size_t census_top(const struct census *c, struct census_entry *out, size_t n);

/* What KSM would do with these pages once every one was scanned twice
 * unchanged: max_page_sharing (0: no limit) mappings per KSM page (a
 * content needing more KSM pages is a stable node chain of that many
 * dups), zero pages merged into the zero page with use_zero_pages. The
 * census fills the counts from pages_shared to pages_saved; the scan's
 * kernel model (scan/ksm_model.h) the rest. */
struct census_ksm {
	uint64_t pages_shared;   /* KSM pages */
	uint64_t pages_sharing;  /* mappings of KSM pages beyond the first of each */
	uint64_t pages_unshared; /* pages left alone: unique, or the odd one over a full KSM page */
	uint64_t ksm_zero_pages; /* use_zero_pages: pages mapped to the zero page */
	uint64_t stable_node_chains, stable_node_dups;
	uint64_t pages_saved;    /* pages_sharing + ksm_zero_pages */
	uint64_t pages_volatile; /* changed between a capture's two snapshots: never merged */
	uint64_t thp_zero_subpages; /* zero subpages of split THPs: mapped to the zero page by the split */
	uint64_t rmap_items;     /* shared + sharing + unshared + volatile */
	int64_t general_profit_bytes; /* the kernel's: saved pages * page size - rmap_items * rmap_item size */
	uint64_t pages_already_shared; /* merged mappings that shared a PFN already (fork, earlier KSM) */
	uint64_t pages_really_saved;   /* pages_saved - pages_already_shared */
};

/* zero_pages: the zero pages KSM sees (the census's, less those that vanish). */
void census_ksm_model(const struct census *c, unsigned max_page_sharing, int use_zero_pages, uint64_t zero_pages,
		      struct census_ksm *out);

/* 32-bit checksum collisions of checksum i among all distinct contents
 * (the zero page's content included when there were zero pages). */
struct census_collisions {
	uint64_t contents;           /* n: distinct contents checked */
	uint64_t colliding_pairs;    /* pairs of different contents with equal checksums */
	uint64_t colliding_contents; /* contents that share their checksum with another */
	double expected_pairs;       /* ideal 32-bit hash: n(n-1)/2 / 2^32 */
	double expected_contents;    /* ideal: n (1 - (1 - 2^-32)^(n-1)) */
	uint32_t zero_checksum;      /* of a zero page of the page size */
	uint64_t zero_checksum_matches; /* non-zero contents whose checksum equals it */
};

int census_collisions(const struct census *c, unsigned i, struct census_collisions *out, struct kb_err *err);

/* The ideal-hash expectations for n contents and a 2^bits range. */
double census_expected_pairs(uint64_t n, unsigned bits);
double census_expected_contents(uint64_t n, unsigned bits);

#endif
