/* Page sources: anything that yields pages (zero, random, a file, a dump). */
#ifndef KB_PAGE_SOURCE_H
#define KB_PAGE_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "../common/err.h"

/* A consumer's digest of one page, computed ahead on a source's thread:
 * a key (never 0) and a 32-bit value the consumer may also want of the page
 * (the census: its first checksum), valid where the key says so: the
 * thread asks for it only while it is ahead of the consumer. */
struct page_digest {
	uint64_t key;
	uint32_t sum;
};

/* Fills *out for one page's bytes, with the sum if spare (the thread has
 * time to spare); given to a source that can compute it ahead on another
 * thread (page_source_set_digest). It must be a pure function of the bytes:
 * it runs on that thread. */
typedef void (*page_digest_fn)(void *ctx, const unsigned char *data, int spare, struct page_digest *out);

/* What a source yields: a page's address (in the dumped address space; the
 * file offset for raw files), its index in the source, and its bytes. The
 * bytes stay valid until the next call on the source. locator says where
 * the page can be read again with page_source_fetch(), or is
 * PAGE_LOCATOR_NONE when the source cannot fetch. */
struct page {
	uint64_t addr;
	uint64_t index;
	const unsigned char *data;
	uint64_t locator;
	uint64_t info; /* a ksmbench capture's page word (capture_note.h), else 0 */
	struct page_digest digest; /* the consumer's digest of data, computed ahead, or key 0 */
	uint64_t digest_ahead; /* digest key of the page PAGE_DIGEST_AHEAD on, where known, or 0 */
};

#define PAGE_LOCATOR_NONE UINT64_MAX
/* How far ahead page.digest_ahead looks: a source that digests a chunk at
 * a time passes on the digest of the page this many after the current one
 * (in the same chunk), so that the consumer can start the cache misses that
 * page will cost (scan: its census slot) several pages of work early. */
#define PAGE_DIGEST_AHEAD 8

/* A page's digests from its chunk's (one per page, computed ahead): its
 * own, the i-th of n, and the one PAGE_DIGEST_AHEAD on where the chunk
 * has it. */
static inline void page_take_digests(struct page *out, const struct page_digest *digests, size_t i, size_t n)
{
	out->digest = digests[i];
	out->digest_ahead = i + PAGE_DIGEST_AHEAD < n ? digests[i + PAGE_DIGEST_AHEAD].key : 0;
}

/* What a source held but could not hash. */
struct page_stats {
	uint64_t pages;         /* yielded */
	uint64_t holes;         /* pages absent from the file (padding, sparse ranges) */
	uint64_t excluded;      /* pages a dump tool left out */
	uint64_t partial_pages; /* trailing pieces shorter than a page */
	uint64_t partial_bytes;
	uint64_t overlap;       /* pages whose bytes an earlier segment already yielded */
};

struct page_source;
struct capture_note;

struct page_source_ops {
	/* 1 and *out filled, 0 at the end, -1 with err. */
	int (*next)(struct page_source *src, struct page *out, struct kb_err *err);
	void (*close)(struct page_source *src);
	/* Reads the page at locator (from an earlier next()) into buf, without
	 * disturbing the iteration: 0 or -1 with err. NULL for a source that
	 * cannot do it cheaply. */
	int (*fetch)(struct page_source *src, uint64_t locator, void *buf, struct kb_err *err);
	/* Takes a digest to fill page.digest with, before the first next():
	 * 1, or 0 if it will not (then pages carry 0; so may some after 1,
	 * should the source fall back to reading without its thread). NULL:
	 * never. */
	int (*set_digest)(struct page_source *src, page_digest_fn fn, void *ctx);
};

struct page_source {
	const struct page_source_ops *ops;
	const char *format;  /* "raw", "elf", ... */
	uint32_t page_size;
	int can_fetch; /* fetch() works and pages carry locators */
	struct page_stats stats;
	/* A ksmbench capture's notes (an ELF core's), else NULL. Its page
	 * entries are only there during the pass (then page.info has them). */
	const struct capture_note *note;
};

static inline int page_source_next(struct page_source *src, struct page *out, struct kb_err *err)
{
	out->info = 0;
	out->digest.key = 0;
	out->digest_ahead = 0;
	return src->ops->next(src, out, err);
}

/* Asks the source to digest its pages ahead (1 if it will). A source that
 * reads on a helper thread does it there; the others leave it to the
 * caller. */
static inline int page_source_set_digest(struct page_source *src, page_digest_fn fn, void *ctx)
{
	return src->ops->set_digest ? src->ops->set_digest(src, fn, ctx) : 0;
}

/* Random access to pages already yielded. A source can fetch when its
 * pages lie whole and uncompressed at known offsets of a file read with
 * pread (raw, ELF, LiME on a plain file): the locator is then the page's
 * byte offset and a fetch is one pread, served from the page cache after
 * the first pass. Through gzip, the flattened layout or a pipe a read
 * backwards means decompressing or reading again from the start, and a
 * kdump page needs its descriptor and decompression: those sources yield
 * PAGE_LOCATOR_NONE and callers keep their own copy of what they need. */
static inline int page_source_can_fetch(const struct page_source *src)
{
	return src->can_fetch;
}

static inline int page_source_fetch(struct page_source *src, uint64_t locator, void *buf,
				    struct kb_err *err)
{
	if (!src->can_fetch || locator == PAGE_LOCATOR_NONE)
		return kb_fail(err, "this %s source cannot read a page again", src->format);
	return src->ops->fetch(src, locator, buf, err);
}

static inline void page_source_close(struct page_source *src)
{
	if (src)
		src->ops->close(src);
}

#endif
