/* The raw page source (see raw.h): the stream read forward in chunks of
 * whole pages; files past READAHEAD_MIN_BYTES are read ahead, and their
 * pages digested if the consumer asks, on a helper thread (readahead.h). */
#include "raw.h"

#include <stdlib.h>

#include "dump.h"
#include "file_input.h"
#include "readahead.h"

struct raw_source {
	struct page_source base;
	struct kb_stream *s;
	uint64_t off; /* stream offset of the next chunk */
	uint64_t chunk_off; /* stream offset of buf[0] */
	unsigned char *buf;   /* the current chunk (owned, or the read-ahead's) */
	unsigned char *own;   /* the buffer without read-ahead */
	struct readahead *ra; /* or NULL */
	const struct page_digest *digests; /* the current chunk's, or NULL */
	struct readahead_digest dg;
	int read_ahead; /* worth a thread, not yet tried (it starts at the first next()) */
	size_t cap, len, pos;
	int at_end;
	int ended; /* raw_end() ran */
	uint64_t index;
};

/* At the end the rest of the stream is checked, and the buffers, the
 * read-ahead thread and the descriptor go: a scan keeps every dump to
 * fetch pages again, and must not keep what reading it took
 * (kb_stream_park). */
static int raw_end(struct raw_source *r, struct kb_err *err)
{
	if (r->ended)
		return 0;
	readahead_stop(r->ra);
	r->ra = NULL;
	free(r->own);
	r->own = r->buf = NULL;
	r->digests = NULL;
	r->len = r->pos = 0;
	r->at_end = r->ended = 1;
	int rc = kb_stream_finish(r->s, err);
	if (r->base.can_fetch) {
		kb_stream_park(r->s);
	} else {
		kb_stream_close(r->s);
		r->s = NULL;
	}
	return rc;
}

static int raw_next(struct page_source *src, struct page *out, struct kb_err *err)
{
	struct raw_source *r = (struct raw_source *)src;

	if (r->pos + src->page_size > r->len) {
		if (r->at_end)
			return raw_end(r, err);
		/* Without a thread (none to be had, or no memory for its ring) the
		 * chunks are read here, the pages digested by the consumer. */
		if (r->read_ahead) {
			struct kb_err ignored;
			r->read_ahead = 0;
			r->ra = readahead_start(r->s, 0, READAHEAD_TO_END, r->cap, &r->dg, &ignored);
		}
		ssize_t n = r->ra ? readahead_next(r->ra, &r->buf, &r->digests, err)
				  : kb_stream_read(r->s, r->off, r->buf, r->cap, err);
		if (n < 0)
			return -1;
		r->chunk_off = r->off;
		r->off += (uint64_t)n;
		r->len = (size_t)n;
		r->pos = 0;
		if ((size_t)n < r->cap && r->s->size != KB_STREAM_SIZE_UNKNOWN && r->off < r->s->size)
			return kb_fail(err, "'%s' shrank while it was read: it ends at %llu bytes, %llu "
					    "when it was opened", r->s->path, (unsigned long long)r->off,
				       (unsigned long long)r->s->size);
		if ((size_t)n < r->cap) {
			r->at_end = 1;
			size_t tail = (size_t)n % src->page_size;
			if (tail) {
				src->stats.partial_pages++;
				src->stats.partial_bytes += tail;
				r->len -= tail;
			}
			if (r->len == 0)
				return raw_end(r, err);
		}
	}
	out->index = r->index++;
	out->addr = out->index * src->page_size;
	out->data = r->buf + r->pos;
	out->locator = src->can_fetch ? r->chunk_off + r->pos : PAGE_LOCATOR_NONE;
	if (r->digests)
		page_take_digests(out, r->digests, r->pos / src->page_size, r->len / src->page_size);
	r->pos += src->page_size;
	src->stats.pages++;
	return 1;
}

static void raw_close(struct page_source *src)
{
	struct raw_source *r = (struct raw_source *)src;

	readahead_stop(r->ra);
	kb_stream_close(r->s);
	free(r->own);
	free(r);
}

static int raw_fetch(struct page_source *src, uint64_t locator, void *buf, struct kb_err *err)
{
	return kb_stream_read_exact(((struct raw_source *)src)->s, locator, buf, src->page_size,
				    "a page read again", err);
}

static int raw_set_digest(struct page_source *src, page_digest_fn fn, void *ctx)
{
	struct raw_source *r = (struct raw_source *)src;

	if (!r->read_ahead || r->index)
		return 0;
	r->dg = (struct readahead_digest){ fn, ctx, src->page_size };
	return 1;
}

static const struct page_source_ops raw_ops = { raw_next, raw_close, raw_fetch, raw_set_digest };

struct page_source *raw_open(const struct dump_open *a, struct kb_err *err)
{
	struct kb_stream *s = a->stream;
	uint32_t page_size = a->page_size;
	struct raw_source *r = calloc(1, sizeof(*r));
	size_t cap = readahead_chunk_bytes(page_size);

	if (!r || !(r->own = r->buf = file_input_buffer(cap))) {
		free(r);
		kb_fail(err, "out of memory opening '%s'", s->path); /* before the stream, and its path, go */
		kb_stream_close(s);
		return NULL;
	}
	r->s = s;
	r->cap = cap;
	r->base.ops = &raw_ops;
	r->base.format = a->format;
	r->base.page_size = page_size;
	r->base.can_fetch = s->random_access;
	/* Read ahead only past a few MiB: a thread is not worth it for small
	 * files. */
	r->read_ahead = s->size != KB_STREAM_SIZE_UNKNOWN && s->size > READAHEAD_MIN_BYTES;
	return &r->base;
}
