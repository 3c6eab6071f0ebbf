/* Chunked paging of dump segments (see segment_pager.h). */
#include "segment_pager.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../common/arith.h"

#define PAGER_CHUNK_BYTES (1u << 20)

int segment_pager_init(struct segment_pager *p, struct kb_stream *s, uint32_t page_size,
		       struct kb_err *err)
{
	memset(p, 0, sizeof(*p));
	p->s = s;
	p->page_size = page_size;
	p->buf_cap = PAGER_CHUNK_BYTES > page_size ? PAGER_CHUNK_BYTES / page_size * page_size : page_size;
	(void)err; /* the buffer is allocated on first use, as large as needed */
	return 0;
}

/* The read buffer is mapped, not taken from the heap: a scan reads
 * hundreds of dumps one after another, and a 1 MiB heap block freed at the
 * end of each pass was left as a hole that the next block, placed a few
 * bytes differently, did not fit in (300 dumps held 300 MiB of freed heap).
 * Mapped memory goes back to the system at once. Under AddressSanitizer
 * the heap is kept, so that a read past the buffer is still caught. */
#if defined(__SANITIZE_ADDRESS__)
#define PAGER_BUF_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PAGER_BUF_HEAP 1
#endif
#endif

static void *pager_buf_alloc(size_t len)
{
#ifdef PAGER_BUF_HEAP
	return aligned_alloc(64, len);
#else
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
#endif
}

static void pager_buf_free(struct segment_pager *p)
{
#ifdef PAGER_BUF_HEAP
	free(p->buf);
#else
	if (p->buf)
		munmap(p->buf, p->buf_alloc);
#endif
	p->buf = NULL;
	p->buf_alloc = 0;
}

/* Grows the buffer to len bytes (at most buf_cap), so that small dumps and
 * fuzzing inputs do not pay for a full chunk. */
static int pager_reserve(struct segment_pager *p, size_t len, struct kb_err *err)
{
	if (len <= p->buf_alloc)
		return 0;
	size_t want = p->buf_alloc ? p->buf_alloc : p->page_size;
	while (want < len)
		want *= 2;
	if (want > p->buf_cap)
		want = p->buf_cap;
	pager_buf_free(p);
	if (!(p->buf = pager_buf_alloc(want)))
		return kb_fail(err, "out of memory for a %zu-byte read buffer", want);
	p->buf_alloc = want;
	return 0;
}

void segment_pager_free(struct segment_pager *p)
{
	pager_buf_free(p);
	p->buf_len = p->buf_pos = 0;
	p->remaining = 0;
}

int segment_pager_end(struct segment_pager *p, struct kb_stream **s, int can_fetch, struct kb_err *err)
{
	int rc = kb_stream_finish(*s, err);

	segment_pager_free(p);
	if (can_fetch) {
		kb_stream_park(*s);
	} else {
		kb_stream_close(*s);
		*s = p->s = NULL;
	}
	return rc;
}

void segment_pager_begin(struct segment_pager *p, struct page_stats *stats, uint64_t addr,
			 uint64_t file_off, uint64_t file_len, uint64_t mem_len, uint64_t skip_len,
			 const char *what)
{
	uint64_t ps = p->page_size;
	uint64_t with_data = kb_div_up(file_len, ps);
	uint64_t slots = kb_div_up(mem_len > file_len ? mem_len : file_len, ps);
	uint64_t skip = skip_len < file_len ? skip_len : file_len;
	uint64_t overlap = skip == file_len ? with_data : skip / ps;
	uint64_t first = kb_div_up(skip, ps), full = file_len / ps;
	uint64_t yield = skip < file_len && full > first ? full - first : 0;
	uint64_t partial = with_data - overlap - yield;

	stats->holes += slots - with_data;
	stats->overlap += overlap;
	stats->partial_pages += partial;
	stats->partial_bytes += (file_len - skip) - yield * ps;
	p->addr = addr + first * ps;
	p->file_off = file_off + first * ps;
	p->remaining = yield;
	p->buf_len = p->buf_pos = 0;
	p->what = what;
}

int segment_pager_next(struct segment_pager *p, struct page *out, struct kb_err *err)
{
	if (p->buf_pos == p->buf_len) {
		if (p->remaining == 0)
			return 0;
		uint64_t want = p->remaining * p->page_size;
		size_t len = want < p->buf_cap ? (size_t)want : p->buf_cap;
		if (pager_reserve(p, len, err))
			return -1;
		if (kb_stream_read_exact(p->s, p->file_off, p->buf, len, p->what, err))
			return -1;
		p->buf_len = len;
		p->buf_pos = 0;
		p->file_off += len;
	}
	out->addr = p->addr;
	out->data = p->buf + p->buf_pos;
	out->locator = p->s->random_access ? p->file_off - p->buf_len + p->buf_pos : PAGE_LOCATOR_NONE;
	p->buf_pos += p->page_size;
	p->addr += p->page_size;
	p->remaining--;
	return 1;
}

int segment_pager_fetch(struct segment_pager *p, uint64_t locator, void *buf, struct kb_err *err)
{
	return kb_stream_read_exact(p->s, locator, buf, p->page_size, "a page read again", err);
}
