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
#include "readahead.h"
#include "stream.h"

struct segment_pager {
	struct kb_stream *s;
	uint32_t page_size;
	unsigned char *buf;
	size_t buf_cap;   /* the largest read: a multiple of page_size */
	size_t buf_alloc; /* bytes allocated at buf so far */
	const unsigned char *chunk; /* the current chunk: buf, or the read-ahead's */
	const struct page_digest *digests; /* its pages' digests (read ahead with one), or NULL */
	size_t buf_len, buf_pos;    /* the current chunk's length and next page */
	struct kb_window win;       /* a plain file's bytes at buf */
	struct readahead *ra;       /* the read-ahead's ring (kept between segments), or NULL */
	struct readahead_digest dg; /* what it digests pages with */
	int read_ahead;             /* the segment is worth a thread, not yet tried */
	int ahead;                  /* the segment is read by the thread */
	uint64_t addr;      /* address of the next page to yield */
	uint64_t file_off;  /* its bytes */
	uint64_t remaining; /* pages still to yield in this segment */
	const char *what;   /* "segment 3", for messages */
};

/* Cannot fail: the buffer is allocated on first use, as large as needed. */
void segment_pager_init(struct segment_pager *p, struct kb_stream *s, uint32_t page_size);
/* Asks for pages digested ahead (page_source_set_digest): 1 if segments
 * may be large enough to be read ahead on a thread, which then digests
 * them; pages of the others carry no digest. */
int segment_pager_set_digest(struct segment_pager *p, page_digest_fn fn, void *ctx);

/* Frees the read buffer and stops a read-ahead (the end of a pass;
 * fetches still work). */
void segment_pager_free(struct segment_pager *p);

/* The end of a reader's pass over *s: the rest of the stream checked
 * (kb_stream_finish), the buffer freed, and the stream parked when the
 * source can fetch (kb_stream_park), else closed and *s set to NULL. */
int segment_pager_end(struct segment_pager *p, struct kb_stream **s, int can_fetch, struct kb_err *err);

/* Starts a segment at addr whose first file_len bytes are at file_off
 * (mem_len >= file_len bytes in all), the first skip_len of them already
 * yielded. Counts its partial, hole and overlap pages in stats now. A
 * segment of READAHEAD_MIN_BYTES or more is read ahead on a helper thread
 * (readahead.h), as a raw file is; the others in line. */
void segment_pager_begin(struct segment_pager *p, struct page_stats *stats, uint64_t addr,
			 uint64_t file_off, uint64_t file_len, uint64_t mem_len, uint64_t skip_len,
			 const char *what);

/* The next page of the segment: 1 (out->addr, out->data), 0 when done, -1. */
int segment_pager_next(struct segment_pager *p, struct page *out, struct kb_err *err);

/* Reads again the page whose out->locator (its file offset) next() gave:
 * only for a random-access stream (otherwise locators are PAGE_LOCATOR_NONE). */
int segment_pager_fetch(struct segment_pager *p, uint64_t locator, void *buf, struct kb_err *err);

#endif
