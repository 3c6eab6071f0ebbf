/* The LiME reader (see lime.h). Ranges are paged one after the other; in
 * the `lime` layout the headers are read as the file is walked, so memory
 * use does not depend on the number of ranges. */
#include "lime.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/arith.h"
#include "dump.h"
#include "segment_pager.h"

#define LIME_HEADER_BYTES 32u

enum lime_layout { LIME_HEADERS, LIME_RAW, LIME_PADDED };

struct lime_source {
	struct page_source base;
	struct kb_stream *s;
	struct segment_pager pager;
	enum lime_layout layout;
	struct lime_range *ranges;
	size_t nranges, next_range;
	uint64_t file_off; /* next header (lime) or next range's bytes (raw) */
	uint64_t prev_end; /* padded: first address after the previous range */
	uint64_t index;
	int ended; /* the pass is over: only fetches from here on */
	char what[64];
};

int lime_detect(const unsigned char *head, size_t len)
{
	return len >= 4 && kb_get32(head, 0) == LIME_MAGIC;
}

/* Starts the next range: 1, 0 at the end of the file, -1. */
static int lime_begin_next(struct lime_source *l, struct kb_err *err)
{
	struct page_stats *st = &l->base.stats;
	struct lime_range r;
	uint64_t data_off;

	if (l->layout == LIME_HEADERS) {
		unsigned char h[LIME_HEADER_BYTES];
		ssize_t n = kb_stream_read(l->s, l->file_off, h, sizeof(h), err);
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		if ((size_t)n < sizeof(h))
			return kb_fail(err, "'%s' is truncated: LiME header at offset %" PRIu64
					    " has %zd of 32 bytes", l->s->path, l->file_off, n);
		if (kb_get32(h, 0) != LIME_MAGIC)
			return kb_fail(err, "'%s' is corrupt: no LiME header at offset %" PRIu64,
				       l->s->path, l->file_off);
		if (kb_get32(h + 4, 0) != 1)
			return kb_fail(err, "'%s': LiME header version %u at offset %" PRIu64
					    " (only 1 is known)", l->s->path, kb_get32(h + 4, 0), l->file_off);
		r.start = kb_get64(h + 8, 0);
		r.end = kb_get64(h + 16, 0);
		if (r.end < r.start || (r.start == 0 && r.end == UINT64_MAX))
			return kb_fail(err, "'%s' is corrupt: LiME range %#" PRIx64 "-%#" PRIx64
					    " at offset %" PRIu64, l->s->path, r.start, r.end, l->file_off);
		data_off = l->file_off + LIME_HEADER_BYTES;
	} else {
		if (l->next_range == l->nranges)
			return 0;
		r = l->ranges[l->next_range];
		data_off = l->layout == LIME_PADDED ? r.start : l->file_off;
	}
	uint64_t len = r.end - r.start + 1;
	snprintf(l->what, sizeof(l->what), "range %zu (%#" PRIx64 "-%#" PRIx64 ")", l->next_range,
		 r.start, r.end);
	if (kb_stream_check_range(l->s, data_off, len, l->what, err))
		return -1;
	if (l->layout == LIME_PADDED) {
		st->holes += kb_div_up(r.start - l->prev_end, l->base.page_size);
		l->prev_end = r.end + 1;
	}
	l->next_range++;
	l->file_off = data_off + len;
	segment_pager_begin(&l->pager, st, r.start, data_off, len, len, 0, l->what);
	return 1;
}

/* The end of the pass: only what fetches need is kept (segment_pager_end). */
static int lime_end(struct lime_source *l, struct kb_err *err)
{
	l->ended = 1;
	free(l->ranges);
	l->ranges = NULL;
	l->nranges = l->next_range = 0;
	return segment_pager_end(&l->pager, &l->s, l->base.can_fetch, err);
}

static int lime_next(struct page_source *src, struct page *out, struct kb_err *err)
{
	struct lime_source *l = (struct lime_source *)src;

	if (l->ended)
		return 0;
	for (;;) {
		int rc = segment_pager_next(&l->pager, out, err);
		if (rc == 1) {
			out->index = l->index++;
			src->stats.pages++;
			return 1;
		}
		if (rc == 0 && (rc = lime_begin_next(l, err)) == 0)
			return lime_end(l, err);
		if (rc < 0)
			return -1;
	}
}

static void lime_close(struct page_source *src)
{
	struct lime_source *l = (struct lime_source *)src;

	segment_pager_free(&l->pager);
	kb_stream_close(l->s);
	free(l->ranges);
	free(l);
}

static int lime_fetch(struct page_source *src, uint64_t locator, void *buf, struct kb_err *err)
{
	return segment_pager_fetch(&((struct lime_source *)src)->pager, locator, buf, err);
}

/* Only before the first page: a segment already read in line has no digests. */
static int lime_set_digest(struct page_source *src, page_digest_fn fn, void *ctx)
{
	struct lime_source *l = (struct lime_source *)src;

	return l->index == 0 && !l->ended ? segment_pager_set_digest(&l->pager, fn, ctx) : 0;
}

static const struct page_source_ops lime_ops = { lime_next, lime_close, lime_fetch, lime_set_digest };

/* Takes a->stream and ranges (malloc'd, checked), whatever it returns. */
static struct page_source *lime_open(const struct dump_open *a, enum lime_layout layout,
				     struct lime_range *ranges, size_t nranges, struct kb_err *err)
{
	struct kb_stream *s = a->stream;
	struct lime_source *l = calloc(1, sizeof(*l));

	if (!l) {
		kb_stream_close(s);
		free(ranges);
		return kb_fail(err, "out of memory"), NULL;
	}
	l->ranges = ranges;
	l->nranges = nranges;
	l->s = s;
	l->layout = layout;
	l->base.ops = &lime_ops;
	l->base.format = a->format;
	l->base.page_size = a->page_size;
	l->base.can_fetch = s->random_access;
	segment_pager_init(&l->pager, s, a->page_size);
	return &l->base;
}

struct page_source *lime_open_headers(const struct dump_open *a, struct kb_err *err)
{
	return lime_open(a, LIME_HEADERS, NULL, 0, err);
}

/* A headerless layout: its ranges are the format's option (lime_parse_ranges
 * finds at least one or fails). */
static struct page_source *open_with_ranges(const struct dump_open *a, enum lime_layout layout,
					    struct kb_err *err)
{
	const char *spec = a->opts->lime.ranges;
	struct lime_range *ranges = NULL;
	size_t n;

	if (!spec) {
		kb_fail(err, "the %s format needs --lime-ranges START-END[,...] or @FILE", a->format);
		goto fail;
	}
	if (lime_parse_ranges(spec, &ranges, &n, err) < 0)
		goto fail;
	for (size_t i = 1; layout == LIME_PADDED && i < n; i++)
		if (ranges[i].start <= ranges[i - 1].end) {
			kb_fail(err, "padded LiME ranges must be ascending and disjoint "
				     "(range %zu starts at or before the end of range %zu)", i, i - 1);
			goto fail;
		}
	return lime_open(a, layout, ranges, n, err);
fail:
	free(ranges);
	kb_stream_close(a->stream);
	return NULL;
}

struct page_source *lime_open_raw(const struct dump_open *a, struct kb_err *err)
{
	return open_with_ranges(a, LIME_RAW, err);
}

struct page_source *lime_open_padded(const struct dump_open *a, struct kb_err *err)
{
	return open_with_ranges(a, LIME_PADDED, err);
}
