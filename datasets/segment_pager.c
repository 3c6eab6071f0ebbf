/* Chunked paging of dump segments (see segment_pager.h): small segments
 * read in line, large ones ahead on a helper thread. */
#include "segment_pager.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../common/arith.h"
#include "file_input.h"

#define PAGER_CHUNK_BYTES (1u << 20)

void segment_pager_init(struct segment_pager *p, struct kb_stream *s, uint32_t page_size)
{
	memset(p, 0, sizeof(*p));
	p->s = s;
	p->page_size = page_size;
	p->buf_cap = PAGER_CHUNK_BYTES > page_size ? PAGER_CHUNK_BYTES / page_size * page_size : page_size;
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
	return file_input_buffer(len);
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
	p->win.len = 0;
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

int segment_pager_set_digest(struct segment_pager *p, page_digest_fn fn, void *ctx)
{
	if (p->s->size != KB_STREAM_SIZE_UNKNOWN && p->s->size < READAHEAD_MIN_BYTES)
		return 0;
	p->dg = (struct readahead_digest){ fn, ctx, p->page_size };
	return 1;
}

/* The stream is read by this thread again from here on; the read-ahead's
 * ring stays for the next large segment. */
static void pager_halt_read_ahead(struct segment_pager *p)
{
	readahead_halt(p->ra);
	p->read_ahead = p->ahead = 0;
	p->digests = NULL;
}

static void pager_stop_read_ahead(struct segment_pager *p)
{
	pager_halt_read_ahead(p);
	readahead_stop(p->ra);
	p->ra = NULL;
}

void segment_pager_free(struct segment_pager *p)
{
	pager_stop_read_ahead(p);
	pager_buf_free(p);
	p->chunk = NULL;
	p->buf_len = p->buf_pos = 0;
	p->remaining = 0;
}

int segment_pager_end(struct segment_pager *p, struct kb_stream **s, int can_fetch, struct kb_err *err)
{
	pager_stop_read_ahead(p);
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
	pager_halt_read_ahead(p);
	p->read_ahead = yield >= READAHEAD_MIN_BYTES / ps;
}

/* The thread for this segment: the ring of an earlier one restarted, or a
 * new one. Where none can be had the segment is read in line. */
static void pager_start_read_ahead(struct segment_pager *p, uint64_t want)
{
	struct kb_err ignored;
	uint64_t end = p->file_off + want;

	p->read_ahead = 0;
	if (p->ra && readahead_restart(p->ra, p->file_off, end, &ignored))
		pager_stop_read_ahead(p);
	else if (!p->ra)
		p->ra = readahead_start(p->s, p->file_off, end, readahead_chunk_bytes(p->page_size), &p->dg, &ignored);
	p->ahead = p->ra != NULL;
}

/* The segment's next chunk from the thread, checked as a read in line
 * would be. */
static int chunk_ahead(struct segment_pager *p, uint64_t want, struct kb_err *err)
{
	size_t cap = readahead_chunk_bytes(p->page_size), len = want < cap ? (size_t)want : cap;
	unsigned char *data;

	if (kb_stream_check_range(p->s, p->file_off, len, p->what, err))
		return -1;
	ssize_t n = readahead_next(p->ra, &data, &p->digests, err);
	if (n < 0)
		return -1;
	if ((size_t)n < len)
		return kb_stream_fail_short(p->s, p->file_off, len, (size_t)n, p->what, err);
	p->chunk = data;
	p->buf_len = len;
	return 0;
}

/* From a plain file the read takes in up to buf_cap bytes from the
 * segment's start on, the next segments' too: a capture has thousands of
 * segments of a few pages each, one after another in the file, and a
 * system call per segment cost a scan of a 355 MiB capture 43,849 of them.
 * The window serves the segments until one starts outside it. */
static int chunk_in_line(struct segment_pager *p, uint64_t want, struct kb_err *err)
{
	size_t len = want < p->buf_cap ? (size_t)want : p->buf_cap;

	/* 64-byte aligned where a read of its own would put it. */
	if (!kb_window_holds(&p->win, p->file_off, len, 64)) {
		size_t span = len; /* a range past the end fails in kb_window_read */
		if (p->s->random_access) {
			uint64_t size = p->s->size, left = size == KB_STREAM_SIZE_UNKNOWN ? UINT64_MAX
							: size > p->file_off ? size - p->file_off : 0;
			span = left < len ? len : left < p->buf_cap ? (size_t)left : p->buf_cap;
		}
		if (pager_reserve(p, span, err) ||
		    kb_window_read(&p->win, p->s, p->file_off, p->buf, len, span, p->what, err))
			return -1;
	}
	p->chunk = p->buf + (p->file_off - p->win.off);
	p->digests = NULL;
	p->buf_len = len;
	if (!p->s->random_access) /* a stream read forward: nothing to keep */
		p->win.len = 0;
	return 0;
}

int segment_pager_next(struct segment_pager *p, struct page *out, struct kb_err *err)
{
	if (p->buf_pos == p->buf_len) {
		if (p->remaining == 0) {
			pager_halt_read_ahead(p);
			return 0;
		}
		uint64_t want = p->remaining * p->page_size;
		if (p->read_ahead)
			pager_start_read_ahead(p, want);
		if (p->ahead ? chunk_ahead(p, want, err) : chunk_in_line(p, want, err))
			return -1;
		p->buf_pos = 0;
		p->file_off += p->buf_len;
	}
	out->addr = p->addr;
	out->data = p->chunk + p->buf_pos;
	out->locator = p->s->random_access ? p->file_off - p->buf_len + p->buf_pos : PAGE_LOCATOR_NONE;
	if (p->digests)
		page_take_digests(out, p->digests, p->buf_pos / p->page_size, p->buf_len / p->page_size);
	p->buf_pos += p->page_size;
	p->addr += p->page_size;
	p->remaining--;
	return 1;
}

int segment_pager_fetch(struct segment_pager *p, uint64_t locator, void *buf, struct kb_err *err)
{
	return kb_stream_read_exact(p->s, locator, buf, p->page_size, "a page read again", err);
}
