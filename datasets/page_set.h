/* Page sets: the pages a benchmark hashes, laid out in memory, and the order
 * it visits them in. A hot set is small and reused (one page, or a file's
 * first pages); a cold set is a working set several times the last-level
 * cache, visited in a random page order so the prefetcher cannot hide the
 * misses. */
#ifndef KB_PAGE_SET_H
#define KB_PAGE_SET_H

#include <stddef.h>
#include <stdint.h>

#include "../common/err.h"
#include "dump.h"

#define PAGE_SET_DATA_MAX 300              /* bytes of a set's name, "file:PATH" included */
#define PAGE_SET_HOT_FILE_MAX (256u << 10) /* bytes of a file kept in a hot set */
#define PAGE_SET_COLD_PAGES_MAX (1u << 22) /* pages in a cold set, whatever their size */

struct page_set {
	unsigned char *mem;          /* the allocation holding every page */
	size_t mem_bytes;
	const unsigned char **order; /* the visiting order: count page addresses */
	size_t count;
	uint32_t page_size;
	uint32_t misalign;           /* each page starts this many bytes past a 64-byte boundary */
	char data[PAGE_SET_DATA_MAX]; /* "zero", "random", "file:PATH" */
	const char *cache;           /* "hot" or "cold" */
	uint64_t working_set_bytes;  /* count * page_size */
	int flushed;                 /* cold by flushing: see page_set_request.flushed */
};

/* Whether a set's data names a file: anything but "zero" and "random". */
int page_set_data_is_file(const char *data);

/* The content of the pages before they are laid out: whole pages, packed. */
struct page_content {
	unsigned char *bytes;
	size_t mapped_bytes; /* bytes is a mapping of this length (a page store's), else 0: allocated */
	size_t pages;
	uint32_t page_size;
	char data[PAGE_SET_DATA_MAX];
};

/* One page of zeros (zero_page.c). */
int page_content_zero(struct page_content *c, uint32_t page_size, struct kb_err *err);

/* One page from the PRNG seeded with seed (random_pages.c). For cold sets the
 * working set is filled from the same stream, so every page differs. */
int page_content_random(struct page_content *c, uint32_t page_size, uint64_t seed, struct kb_err *err);

/* The whole pages of a file, in any format dump_source_open() reads (opts:
 * NULL to detect it), up to max_bytes (file_pages.c). */
int page_content_file(struct page_content *c, const char *path, uint32_t page_size,
		      const struct dump_options *opts, size_t max_bytes, struct kb_err *err);

void page_content_release(struct page_content *c);

/* A hot set: the content's pages, in order (working_set.c). */
int page_set_hot(struct page_set *s, const struct page_content *c, uint32_t misalign, struct kb_err *err);

/* A cold set of about ws_bytes: the content repeated page by page (random
 * content: a fresh PRNG stream from seed), in a random order from seed. */
int page_set_cold(struct page_set *s, const struct page_content *c, uint64_t ws_bytes, uint32_t misalign,
		  uint64_t seed, struct kb_err *err);

void page_set_release(struct page_set *s);

/* The largest default cold set: 2 GiB, room for 4x a server's 260 MiB L3
 * (Emerald Rapids) in a 64-bit address space; 1 GiB in a 32-bit one. */
#define PAGE_SET_COLD_MAX_BYTES (sizeof(void *) >= 8 ? 2ull << 30 : 1ull << 30)

/* The default cold working set for a last-level cache of llc_bytes (0 if
 * unknown): four times it, at least 64 MiB, at most PAGE_SET_COLD_MAX_BYTES. */
uint64_t page_set_cold_default_bytes(uint64_t llc_bytes);

/* What a benchmark hashes, as the command line names it: the content
 * ("zero", "random" or a file's pages), laid out hot or cold. */
struct page_set_request {
	const char *data;           /* "zero", "random" or a path */
	struct dump_options dump;   /* a file's format and that format's options */
	uint32_t page_size;
	uint32_t misalign;
	uint64_t seed;              /* random content and the cold visiting order */
	int cold;
	/* cold: the pages are made cold by the timer flushing them from the
	 * caches before it visits them (the ksmd timer does), not by the set's
	 * size, so the default set is PAGE_SET_FLUSHED_DEFAULT_BYTES. */
	int flushed;
	uint64_t working_set_bytes; /* cold: 0 for the default from llc_bytes */
	uint64_t llc_bytes;
};

/* The default cold set when its pages are flushed before each visit: the
 * smallest size-cold default, room for the pages a process visits. */
#define PAGE_SET_FLUSHED_DEFAULT_BYTES (64ull << 20)

/* The cold working set a request asks for (its own, or the default). */
uint64_t page_set_request_ws_bytes(const struct page_set_request *req);

/* How a request's set is labelled: "hot"; "cold" when its pages are flushed,
 * or its working set is at least PAGE_SET_COLD_LLC_FACTOR times the
 * last-level cache (or that cache is unknown); else "warm": much of it may
 * stay in the cache. */
const char *page_set_cache_label(const struct page_set_request *req);

#define PAGE_SET_COLD_LLC_FACTOR 4u

/* What makes a cold set cold: "flush" (its pages are flushed before each
 * visit) or "size" (4x the last-level cache, or that cache unknown); NULL
 * for a hot or warm set. */
const char *page_set_cold_by(const struct page_set_request *req);

/* The bytes of a file a request's set is built from: its working set when
 * cold, PAGE_SET_HOT_FILE_MAX when hot. */
size_t page_set_request_file_bytes(const struct page_set_request *req);

/* The set a request names, laid out from content read before (a page
 * store's). */
int page_set_lay_out(const struct page_set_request *req, const struct page_content *content, struct page_set *set,
		     struct kb_err *err);

/* The page set a request names (page_set_build.c): its content, then
 * page_set_lay_out(). */
int page_set_build(const struct page_set_request *req, struct page_set *set, struct kb_err *err);

#endif
