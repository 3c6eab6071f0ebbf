/* The kdump-compressed reader (see kdump.h). It walks the pfns in order:
 * two bitmap cursors say whether each pfn is memory (bitmap 1) and was
 * dumped (bitmap 2); a descriptor cursor reads the page descriptors of the
 * dumped pfns in order, and a data cursor their bytes. Memory use is a few
 * buffers of the dump's page size. */
#include "kdump.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "file_input.h"
#include "page_inflate.h"

#define KD_DESC_BYTES 24u
#define KD_DESC_BATCH 256u
#define KD_BITMAP_CHUNK 4096u
/* Page data is read through a window of this many bytes (or two blocks,
 * if more): the pages' data lie one after another, and a read per page was
 * a system call per page (131,072 of them for 512 MiB). */
#define KD_DATA_WINDOW (256u << 10)
/* Pages are decompressed in batches of at most this many bytes (128 pages
 * at most), half of each on a helper thread once a dump has shown itself
 * large (KD_THREAD_AFTER_BYTES): zlib's inflate was about half of a scan's
 * time, on one CPU. Small dumps never start the thread. */
#define KD_BATCH_BYTES (512u << 10)
#define KD_BATCH_PAGES 128u
#define KD_THREAD_AFTER_BYTES (4u << 20)

/* A batch's page beside its job: where it is, and its part in the copy of
 * a page read again (below). */
struct kdump_batch_page {
	uint64_t pfn;
	int from_repeat; /* the repeat page's bytes (its job does nothing) */
	int sets_repeat; /* its bytes become the repeat page's */
};

struct kdump_source {
	struct page_source base;
	struct kb_stream *hdr, *bm2, *desc, *data; /* hdr also reads bitmap 1 */
	int big;
	uint32_t block_size;
	uint64_t max_mapnr;
	uint64_t bitmap1_off, bitmap2_off, bitmap_half, desc_off;

	uint64_t pfn;          /* next pfn to look at */
	uint64_t chunk_first;  /* pfn of bitmap chunk bit 0 */
	size_t chunk_len;      /* bytes in the bitmap chunks */
	unsigned char *bm1, *bm2buf; /* KD_BITMAP_CHUNK bytes each */

	uint64_t desc_index;   /* next descriptor to read */
	unsigned char *descs;  /* KD_DESC_BATCH descriptors */
	uint64_t descs_first;  /* index of descs[0] */
	size_t descs_count;

	unsigned char *win_buf;       /* the data window's bytes, win_cap of them */
	struct kb_window win;
	size_t win_cap;

	/* The batch: its pages in out, one block each, yielded in order; a
	 * compressed page's data is staged (copied out of the window) and
	 * decoded into out with the batch's, a stored page copied there at
	 * once. */
	struct inflate_job *jobs;
	struct kdump_batch_page *bp;
	unsigned char *stage, *out;
	size_t batch_cap, batch_n, batch_next;
	struct page_inflater *inflater;
	uint64_t bytes_batched; /* of pages in the batches so far */
	struct kb_err pending; /* the error after the batch's last page */
	int has_pending;
	const unsigned char *page;    /* the block being yielded */

	uint64_t max_data_off;        /* highest page data offset read */
	uint64_t repeat_off;          /* a page read again (the shared zero page) */
	uint32_t repeat_size, repeat_flags;
	int have_repeat;
	unsigned char *repeat_page;

	uint64_t page_addr;    /* address of the page in `page` */
	uint32_t sub_next, sub_count; /* requested pages left in it */
	uint64_t index;
	int ended;             /* the pass is over and everything given back */
};

int kdump_detect(const unsigned char *head, size_t len)
{
	return len >= 8 && memcmp(head, "KDUMP   ", 8) == 0;
}

static int valid_block_size(uint32_t b)
{
	return b >= 512 && b <= (1u << 24) && (b & (b - 1)) == 0;
}

/* One reading of the fixed header: its 64- or 32-bit layout, in one byte
 * order, and the fields that layout gives. */
struct kdump_layout {
	int is64, big;
	uint32_t block_size;
	uint64_t sub_blocks, bitmap_blocks, max_mapnr;
	int exact; /* the header is as makedumpfile and QEMU write it */
};

/* Reads the header h as l's layout says and checks what the reader needs
 * of it: 0, or -1 with err (the first check that fails). */
static int kdump_layout_read(struct kb_stream *s, const unsigned char *h, struct kdump_layout *l,
			     struct kb_err *err)
{
	const unsigned char *f = h + (l->is64 ? 428 : 416);
	uint32_t version = kb_get32(h + 8, l->big);
	uint32_t mapnr32 = kb_get32(f + 12, l->big);
	unsigned char sub[104];

	l->block_size = kb_get32(f, l->big);
	l->sub_blocks = kb_get32(f + 4, l->big);
	l->bitmap_blocks = kb_get32(f + 8, l->big);
	l->max_mapnr = mapnr32;
	if (version >= 6) {
		size_t sub_len = l->is64 ? 104 : 80;
		if (l->sub_blocks * l->block_size < sub_len)
			return kb_fail(err, "'%s' is corrupt: kdump sub-header of %" PRIu64
					    " blocks is too small", s->path, l->sub_blocks);
		if (kb_stream_read_exact(s, l->block_size, sub, sub_len, "the kdump sub-header", err))
			return -1;
		l->max_mapnr = kb_get64(sub + (l->is64 ? 96 : 72), l->big);
	}
	uint64_t half = l->bitmap_blocks * l->block_size / 2;
	/* One bit a pfn, the last byte possibly partly used: rounded up, so that
	 * every pfn below max_mapnr has its bit inside the bitmaps. */
	uint64_t bitmap_bytes = l->max_mapnr / 8 + (l->max_mapnr % 8 != 0);
	if (bitmap_bytes > half)
		return kb_fail(err, "'%s' is corrupt: %" PRIu64 " pfns do not fit in bitmaps of %"
				    PRIu64 " bytes", s->path, l->max_mapnr, half);
	if (l->max_mapnr > UINT64_MAX / l->block_size)
		return kb_fail(err, "'%s' is corrupt: %" PRIu64 " pfns of %u bytes exceed the 64-bit "
				    "address space", s->path, l->max_mapnr, l->block_size);
	if (kb_stream_check_range(s, (1 + l->sub_blocks) * l->block_size, 2 * half, "the kdump bitmaps", err))
		return -1;
	/* makedumpfile and QEMU write a sub-header, bitmaps of just the blocks
	 * max_mapnr needs, and (from version 6) the 64-bit max_mapnr capped in
	 * the 32-bit field: a layout misread from another's bytes hardly ever
	 * gives all of these. */
	l->exact = l->sub_blocks >= 1 && l->max_mapnr > 0 &&
		   half == (bitmap_bytes + l->block_size - 1) / l->block_size * l->block_size &&
		   (version < 6 || mapnr32 == (l->max_mapnr > UINT32_MAX ? UINT32_MAX : l->max_mapnr));
	return 0;
}

static int kdump_layout_same(const struct kdump_layout *a, const struct kdump_layout *b)
{
	return a->big == b->big && a->block_size == b->block_size && a->sub_blocks == b->sub_blocks &&
	       a->bitmap_blocks == b->bitmap_blocks && a->max_mapnr == b->max_mapnr;
}

/* The fixed header: which of the 64- and 32-bit layouts, which byte order.
 * A layout's block size alone does not tell: the 32-bit layout's max_mapnr
 * lies where the 64-bit one's block size does, and a power of two there
 * (a common max_mapnr) read as one. Every layout with a valid block size
 * and version is read and checked whole; the one the file fits best is
 * taken, and a file two different readings fit equally well is refused. */
static int kdump_read_header(struct kdump_source *k, struct kb_err *err)
{
	unsigned char h[464];
	static const struct {
		int is64, big;
	} layouts[] = { { 1, 0 }, { 1, 1 }, { 0, 0 }, { 0, 1 } };
	const char *path = k->hdr->path;
	struct kdump_layout best = { 0 };
	int best_score = -1, tied = 0;

	if (kb_stream_read_exact(k->hdr, 0, h, sizeof(h), "the kdump header", err))
		return -1;
	if (!kdump_detect(h, sizeof(h)))
		return kb_fail(err, "'%s' is not a kdump-compressed file", path);
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		struct kdump_layout l = { .is64 = layouts[i].is64, .big = layouts[i].big };
		uint32_t bs = kb_get32(h + (l.is64 ? 428 : 416), l.big);
		uint32_t ver = kb_get32(h + 8, l.big);
		struct kb_err e;
		if (!valid_block_size(bs) || ver < 1 || ver >= 64)
			continue;
		/* 0: the file does not fit the layout, 1: it does, 2: exactly. */
		int score = kdump_layout_read(k->hdr, h, &l, &e) ? 0 : 1 + l.exact;
		if (best_score < 0 && score == 0)
			*err = e;
		if (score > best_score) {
			best = l;
			best_score = score;
			tied = 0;
		} else if (score == best_score && score > 0 && !kdump_layout_same(&best, &l)) {
			tied = 1;
		}
	}
	if (best_score < 0)
		return kb_fail(err, "'%s' is corrupt: no valid block size and header version (1 to 63) in the kdump "
				    "header", path);
	/* No layout fits: the error of the first one tried (in err) says why. */
	if (best_score == 0)
		return -1;
	if (tied)
		return kb_fail(err, "'%s' is corrupt: its kdump header reads as more than one layout "
				    "(32- or 64-bit, byte order), and none fits the file better", path);
	k->big = best.big;
	k->block_size = best.block_size;
	k->max_mapnr = best.max_mapnr;
	k->bitmap1_off = (1 + best.sub_blocks) * k->block_size;
	k->bitmap_half = best.bitmap_blocks * k->block_size / 2;
	k->bitmap2_off = k->bitmap1_off + k->bitmap_half;
	k->desc_off = (1 + best.sub_blocks + best.bitmap_blocks) * k->block_size;
	return 0;
}

static int bitmap_load(struct kdump_source *k, struct kb_err *err)
{
	uint64_t byte = k->pfn / 8;
	uint64_t left = k->bitmap_half - byte;

	k->chunk_len = left < KD_BITMAP_CHUNK ? (size_t)left : KD_BITMAP_CHUNK;
	k->chunk_first = byte * 8;
	if (kb_stream_read_exact(k->hdr, k->bitmap1_off + byte, k->bm1, k->chunk_len, "bitmap 1", err) ||
	    kb_stream_read_exact(k->bm2, k->bitmap2_off + byte, k->bm2buf, k->chunk_len, "bitmap 2", err))
		return -1;
	return 0;
}

/* The next descriptor: fills offset/size/flags. */
static int desc_next(struct kdump_source *k, uint64_t *off, uint32_t *size, uint32_t *flags,
		     struct kb_err *err)
{
	uint64_t i = k->desc_index++;

	if (i < k->descs_first || i >= k->descs_first + k->descs_count) {
		uint64_t at = k->desc_off + i * KD_DESC_BYTES;
		ssize_t n = kb_stream_read(k->desc, at, k->descs, KD_DESC_BATCH * KD_DESC_BYTES, err);
		if (n < 0)
			return -1;
		if ((size_t)n < KD_DESC_BYTES)
			return kb_fail(err, "'%s' is truncated: page descriptor %" PRIu64 " at offset %"
					    PRIu64 " is missing", k->desc->path, i, at);
		k->descs_first = i;
		k->descs_count = (size_t)n / KD_DESC_BYTES;
	}
	const unsigned char *d = k->descs + (i - k->descs_first) * KD_DESC_BYTES;
	*off = kb_get64(d, k->big);
	*size = kb_get32(d + 8, k->big);
	*flags = kb_get32(d + 12, k->big);
	return 0;
}

/* The size bytes of page data at off, through the window (read from off
 * when they are not all in it: a whole window ahead, only the page behind
 * it, where data shared or out of order would read a window a page);
 * NULL with err. */
static const unsigned char *data_at(struct kdump_source *k, uint64_t off, uint32_t size, const char *what,
				    struct kb_err *err)
{
	if (!kb_window_holds(&k->win, off, size, 1) &&
	    kb_window_read(&k->win, k->data, off, k->win_buf, size, off < k->win.off ? size : k->win_cap, what, err))
		return NULL;
	return k->win_buf + (off - k->win.off);
}

/* Adds the page of one descriptor to the batch: checked, and its data
 * copied out of the window (compressed data to be decoded later, with the
 * batch's). */
static int stage_page(struct kdump_source *k, uint64_t pfn, uint64_t off, uint32_t size, uint32_t flags,
		      struct kb_err *err)
{
	const char *path = k->desc->path;
	uint32_t unknown;
	const struct page_codec *codec = page_codec_for_kdump(flags, &unknown);
	size_t i = k->batch_n;
	struct inflate_job *j = &k->jobs[i];
	struct kdump_batch_page *b = &k->bp[i];
	char what[64];

	if (unknown)
		return kb_fail(err, "'%s' is corrupt: page at pfn %#" PRIx64 " has unknown flags %#x",
			       path, pfn, flags);
	if (codec && !codec->decode)
		return kb_fail(err, "'%s': page at pfn %#" PRIx64 " uses %s compression, which this ksmbench was "
				    "built without (install %s and rebuild)", path, pfn, codec->name, codec->package);
	if (size > k->block_size || (!codec && size != k->block_size))
		return kb_fail(err, "'%s' is corrupt: page at pfn %#" PRIx64 " has %u bytes of data "
				    "(the page size is %u)", path, pfn, size, k->block_size);
	/* makedumpfile and QEMU write every page's data after the descriptors:
	 * data in the headers or bitmaps is a corrupt descriptor, which read
	 * them as a page. */
	if (off < k->desc_off)
		return kb_fail(err, "'%s' is corrupt: the data of the page at pfn %#" PRIx64 " (offset %" PRIu64
				    ") lies before the page descriptors (offset %" PRIu64 ")",
			       path, pfn, off, k->desc_off);
	*b = (struct kdump_batch_page){ .pfn = pfn };
	*j = (struct inflate_job){ .codec = codec, .dst = k->out + i * k->block_size, .size = size };
	if (k->have_repeat && off == k->repeat_off && size == k->repeat_size && flags == k->repeat_flags) {
		b->from_repeat = 1;
		return 0;
	}
	snprintf(what, sizeof(what), "the data of the page at pfn %#" PRIx64, pfn);
	const unsigned char *src = data_at(k, off, size, what, err);
	if (!src)
		return -1;
	if (codec) { /* decoded with the batch */
		memcpy(k->stage + i * k->block_size, src, size);
		j->src = k->stage + i * k->block_size;
	} else {
		memcpy(j->dst, src, size);
	}
	/* A page read again (every zero page shares one copy) is kept, so that
	 * a forward-only layer (gzip, flattened) does not go back each time. */
	if (off < k->max_data_off) {
		b->sets_repeat = 1;
		k->repeat_off = off;
		k->repeat_size = size;
		k->repeat_flags = flags;
		k->have_repeat = 1;
	} else {
		k->max_data_off = off;
	}
	return 0;
}

/* The next dumped pfn and its descriptor: 1, 0 at the end, -1. */
static int next_dumped(struct kdump_source *k, uint64_t *pfn_out, uint64_t *off, uint32_t *size, uint32_t *flags,
		       struct kb_err *err)
{
	uint32_t sub = k->block_size / k->base.page_size;

	while (k->pfn < k->max_mapnr) {
		if (k->pfn < k->chunk_first || k->pfn - k->chunk_first >= (uint64_t)k->chunk_len * 8) {
			if (bitmap_load(k, err))
				return -1;
		}
		size_t byte = (size_t)((k->pfn - k->chunk_first) / 8);
		unsigned bit = (unsigned)(k->pfn % 8);
		if (bit == 0 && k->bm1[byte] == 0 && k->bm2buf[byte] == 0) {
			k->pfn += 8;
			continue;
		}
		uint64_t pfn = k->pfn++;
		int in_memory = k->bm1[byte] >> bit & 1, dumped = k->bm2buf[byte] >> bit & 1;
		if (!dumped) {
			if (in_memory)
				k->base.stats.excluded += sub;
			continue;
		}
		if (desc_next(k, off, size, flags, err))
			return -1;
		if (*size == 0) { /* an incomplete dump: this page was never written */
			k->base.stats.excluded += sub;
			continue;
		}
		*pfn_out = pfn;
		return 1;
	}
	return 0;
}

/* The next batch: its pages found, staged and decompressed, and the error
 * that stopped it (a bad descriptor, unreadable data, or compressed data
 * that is not one page) kept for after its last good page. */
static void fill_batch(struct kdump_source *k)
{
	struct kb_err err;

	k->batch_n = k->batch_next = 0;
	while (k->batch_n < k->batch_cap) {
		uint64_t pfn = 0, off = 0;
		uint32_t size = 0, flags = 0;
		int rc = next_dumped(k, &pfn, &off, &size, &flags, &err);
		if (rc == 0)
			break;
		if (rc < 0 || stage_page(k, pfn, off, size, flags, &err)) {
			k->pending = err;
			k->has_pending = 1;
			break;
		}
		k->batch_n++;
	}
	page_inflater_run(k->inflater, k->jobs, k->batch_n, k->bytes_batched >= KD_THREAD_AFTER_BYTES);
	k->bytes_batched += (uint64_t)k->batch_n * k->block_size;
	for (size_t i = 0; i < k->batch_n; i++) {
		unsigned char *page = k->out + i * k->block_size;
		if (k->jobs[i].failed) {
			kb_fail(&k->pending, "'%s' is corrupt: the %s data of the page at pfn %#" PRIx64
					     " does not decompress to one page", k->desc->path, k->jobs[i].codec->name,
				k->bp[i].pfn);
			k->has_pending = 1;
			k->batch_n = i;
			break;
		}
		if (k->bp[i].sets_repeat)
			memcpy(k->repeat_page, page, k->block_size);
		else if (k->bp[i].from_repeat)
			memcpy(page, k->repeat_page, k->block_size);
	}
}

/* Streams and buffers: allocated by kdump_open, given back at the end of
 * the pass (a kdump source cannot fetch, so nothing is needed after it). */
static void kdump_release(struct kdump_source *k)
{
	kb_stream_close(k->hdr);
	kb_stream_close(k->bm2);
	kb_stream_close(k->desc);
	kb_stream_close(k->data);
	k->hdr = k->bm2 = k->desc = k->data = NULL;
	page_inflater_free(k->inflater);
	k->inflater = NULL;
	free(k->win_buf);
	free(k->jobs);
	free(k->bp);
	free(k->stage);
	free(k->out);
	free(k->repeat_page);
	free(k->bm1);
	k->win_buf = k->stage = k->out = k->repeat_page = k->bm1 = k->bm2buf = k->descs = NULL;
	k->jobs = NULL;
	k->bp = NULL;
	k->page = NULL;
	k->win.len = k->batch_n = k->batch_next = 0;
}

/* The end: the rest of the file checked through the data cursor (the one
 * furthest on), then everything given back. */
static int kdump_end(struct kdump_source *k, struct kb_err *err)
{
	int rc = kb_stream_finish(k->data, err);

	k->ended = 1;
	kdump_release(k);
	return rc;
}

static int kdump_next(struct page_source *src, struct page *out, struct kb_err *err)
{
	struct kdump_source *k = (struct kdump_source *)src;

	if (k->ended)
		return 0;
	if (k->sub_next == k->sub_count) {
		if (k->batch_next == k->batch_n) {
			/* An error stopped the last batch: it comes after its pages. */
			if (!k->has_pending)
				fill_batch(k);
			if (k->has_pending && k->batch_next == k->batch_n) {
				*err = k->pending;
				return -1;
			}
			if (k->batch_n == 0)
				return kdump_end(k, err);
		}
		size_t i = k->batch_next++;
		k->page = k->out + i * k->block_size;
		k->page_addr = k->bp[i].pfn * k->block_size;
		k->sub_next = 0;
		k->sub_count = k->block_size / src->page_size;
	}
	uint64_t delta = (uint64_t)k->sub_next * src->page_size;
	out->addr = k->page_addr + delta;
	out->data = k->page + delta;
	out->locator = PAGE_LOCATOR_NONE;
	out->index = k->index++;
	k->sub_next++;
	src->stats.pages++;
	return 1;
}

static void kdump_close(struct page_source *src)
{
	struct kdump_source *k = (struct kdump_source *)src;

	kdump_release(k);
	free(k);
}

/* No fetch: a page needs its descriptor and decompression (see page_source.h). */
static const struct page_source_ops kdump_ops = { kdump_next, kdump_close, NULL, NULL };

struct page_source *kdump_open(const struct dump_open *a, struct kb_err *err)
{
	const struct dump_input *in = a->in;
	struct kb_stream *first = a->stream;
	uint32_t page_size = a->page_size;
	struct kdump_source *k = calloc(1, sizeof(*k));

	if (!k) {
		kb_stream_close(first);
		return kb_fail(err, "out of memory"), NULL;
	}
	k->hdr = first;
	k->base.ops = &kdump_ops;
	k->base.format = in->flat ? "kdump-flat" : "kdump";
	k->base.page_size = page_size;
	if (kdump_read_header(k, err))
		goto fail;
	if (k->block_size % page_size) {
		kb_fail(err, "'%s' holds %u-byte pages: use a page size that divides it "
			     "(--page-size %u)", first->path, k->block_size, k->block_size);
		goto fail;
	}
	k->win_cap = 2 * (size_t)k->block_size > KD_DATA_WINDOW ? 2 * (size_t)k->block_size : KD_DATA_WINDOW;
	k->batch_cap = KD_BATCH_BYTES / k->block_size;
	k->batch_cap = k->batch_cap < 1 ? 1 : k->batch_cap > KD_BATCH_PAGES ? KD_BATCH_PAGES : k->batch_cap;
	k->win_buf = file_input_buffer(k->win_cap);
	k->jobs = malloc(k->batch_cap * sizeof(*k->jobs));
	k->bp = malloc(k->batch_cap * sizeof(*k->bp));
	k->stage = malloc(k->batch_cap * k->block_size);
	k->out = aligned_alloc(64, k->batch_cap * k->block_size);
	k->inflater = page_inflater_new(k->block_size);
	k->repeat_page = malloc(k->block_size);
	k->bm1 = malloc(2 * KD_BITMAP_CHUNK + KD_DESC_BATCH * KD_DESC_BYTES);
	if (!k->win_buf || !k->jobs || !k->bp || !k->stage || !k->out || !k->inflater || !k->repeat_page || !k->bm1) {
		kb_fail(err, "out of memory for %u-byte pages", k->block_size);
		goto fail;
	}
	if (!(k->bm2 = dump_input_cursor(in, err)) || !(k->desc = dump_input_cursor(in, err)) ||
	    !(k->data = dump_input_cursor(in, err)))
		goto fail;
	k->bm2buf = k->bm1 + KD_BITMAP_CHUNK;
	k->descs = k->bm2buf + KD_BITMAP_CHUNK;
	k->chunk_first = UINT64_MAX;
	return &k->base;
fail:
	kdump_close(&k->base);
	return NULL;
}
