/* Paging one segment of a dump: pages at addr + k * page_size whose bytes
 * are at a file offset (any alignment), read in large chunks. Shared by the
 * ELF and LiME readers. How a segment's pages are counted:
 *   - a page wholly in the file is yielded;
 *   - a page with only some of its bytes in the file (the segment's file
 *     part ends inside it, or it is shorter than a page) is partial;
 *   - a page with none of its bytes in the file (beyond p_filesz, padding)
 *     is a hole;
 *   - a page whose file bytes an earlier segment already yielded is
 *     overlap; one that straddles that boundary is partial. */
#ifndef KB_SEGMENT_PAGER_H
#define KB_SEGMENT_PAGER_H

#include "page_source.h"
#include "stream.h"

struct segment_pager {
	struct kb_stream *s;
	uint32_t page_size;
	unsigned char *buf;
	size_t buf_cap;   /* the largest read: a multiple of page_size */
	size_t buf_alloc; /* bytes allocated at buf so far */
	size_t buf_len, buf_pos;
	uint64_t addr;      /* address of the next page to yield */
	uint64_t file_off;  /* its bytes */
	uint64_t remaining; /* pages still to yield in this segment */
	const char *what;   /* "segment 3", for messages */
};

int segment_pager_init(struct segment_pager *p, struct kb_stream *s, uint32_t page_size,
		       struct kb_err *err);
/* Frees the read buffer (the end of a pass; fetches still work). */
void segment_pager_free(struct segment_pager *p);

/* The end of a reader's pass over *s: the rest of the stream checked
 * (kb_stream_finish), the buffer freed, and the stream parked when the
 * source can fetch (kb_stream_park), else closed and *s set to NULL. */
int segment_pager_end(struct segment_pager *p, struct kb_stream **s, int can_fetch, struct kb_err *err);

/* Starts a segment at addr whose first file_len bytes are at file_off
 * (mem_len >= file_len bytes in all), the first skip_len of them already
 * yielded. Counts its partial, hole and overlap pages in stats now. */
void segment_pager_begin(struct segment_pager *p, struct page_stats *stats, uint64_t addr,
			 uint64_t file_off, uint64_t file_len, uint64_t mem_len, uint64_t skip_len,
			 const char *what);

/* The next page of the segment: 1 (out->addr, out->data), 0 when done, -1. */
int segment_pager_next(struct segment_pager *p, struct page *out, struct kb_err *err);

/* Reads again the page whose out->locator (its file offset) next() gave:
 * only for a random-access stream (otherwise locators are PAGE_LOCATOR_NONE). */
int segment_pager_fetch(struct segment_pager *p, uint64_t locator, void *buf, struct kb_err *err);

#endif
