/* Page sources: anything that yields pages (zero, random, a file, a dump). */
#ifndef KB_PAGE_SOURCE_H
#define KB_PAGE_SOURCE_H

#include <stdint.h>

#include "../common/err.h"

/* What a source yields: a page's address (in the dumped address space; the
 * file offset for raw files), its index in the source, and its bytes. The
 * bytes stay valid until the next call on the source. */
struct page {
	uint64_t addr;
	uint64_t index;
	const unsigned char *data;
};

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

struct page_source_ops {
	/* 1 and *out filled, 0 at the end, -1 with err. */
	int (*next)(struct page_source *src, struct page *out, struct kb_err *err);
	void (*close)(struct page_source *src);
};

struct page_source {
	const struct page_source_ops *ops;
	const char *format;  /* "raw", "elf", ... */
	uint32_t page_size;
	struct page_stats stats;
};

static inline int page_source_next(struct page_source *src, struct page *out, struct kb_err *err)
{
	return src->ops->next(src, out, err);
}

static inline void page_source_close(struct page_source *src)
{
	if (src)
		src->ops->close(src);
}

#endif
