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
#include <zlib.h>

#include "dump.h"

#define KD_ZLIB 0x1u
#define KD_LZO 0x2u
#define KD_SNAPPY 0x4u
#define KD_ZSTD 0x20u
#define KD_DESC_BYTES 24u
#define KD_DESC_BATCH 256u
#define KD_BITMAP_CHUNK 4096u
/* Page data is read through a window of this many bytes (or two blocks,
 * if more): the pages' data lie one after another, and a read per page was
 * a system call per page (131,072 of them for 512 MiB). */
#define KD_DATA_WINDOW (256u << 10)

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

	unsigned char *page;          /* one dump page, plain */
	unsigned char *win;           /* the data window: file bytes [win_off, win_off + win_len) */
	uint64_t win_off;
	size_t win_len, win_cap;
	z_stream z;                   /* reset for each page, not set up again */
	int z_ready;
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

/* The fixed header: which of the 64- and 32-bit layouts, which byte order. */
static int kdump_read_header(struct kdump_source *k, struct kb_err *err)
{
	unsigned char h[464], sub[104];
	static const struct {
		int is64, big;
	} layouts[] = { { 1, 0 }, { 1, 1 }, { 0, 0 }, { 0, 1 } };
	const char *path = k->hdr->path;
	int is64 = -1;

	if (kb_stream_read_exact(k->hdr, 0, h, sizeof(h), "the kdump header", err))
		return -1;
	if (!kdump_detect(h, sizeof(h)))
		return kb_fail(err, "'%s' is not a kdump-compressed file", path);
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]) && is64 < 0; i++) {
		uint32_t bs = kb_get32(h + (layouts[i].is64 ? 428 : 416), layouts[i].big);
		uint32_t ver = kb_get32(h + 8, layouts[i].big);
		if (valid_block_size(bs) && ver >= 1 && ver < 64) {
			is64 = layouts[i].is64;
			k->big = layouts[i].big;
		}
	}
	if (is64 < 0)
		return kb_fail(err, "'%s' is corrupt: no valid block size in the kdump header", path);
	const unsigned char *f = h + (is64 ? 428 : 416);
	uint32_t version = kb_get32(h + 8, k->big);
	k->block_size = kb_get32(f, k->big);
	uint64_t sub_blocks = kb_get32(f + 4, k->big);
	uint64_t bitmap_blocks = kb_get32(f + 8, k->big);
	k->max_mapnr = kb_get32(f + 12, k->big);
	if (version >= 6) {
		size_t sub_len = is64 ? 104 : 80;
		if (sub_blocks * k->block_size < sub_len)
			return kb_fail(err, "'%s' is corrupt: kdump sub-header of %" PRIu64
					    " blocks is too small", path, sub_blocks);
		if (kb_stream_read_exact(k->hdr, k->block_size, sub, sub_len, "the kdump sub-header", err))
			return -1;
		k->max_mapnr = kb_get64(sub + (is64 ? 96 : 72), k->big);
	}
	k->bitmap1_off = (1 + sub_blocks) * k->block_size;
	k->bitmap_half = bitmap_blocks * k->block_size / 2;
	k->bitmap2_off = k->bitmap1_off + k->bitmap_half;
	k->desc_off = (1 + sub_blocks + bitmap_blocks) * k->block_size;
	/* One bit a pfn, the last byte possibly partly used: rounded up, so that
	 * every pfn below max_mapnr has its bit inside the bitmaps. */
	if (k->max_mapnr / 8 + (k->max_mapnr % 8 != 0) > k->bitmap_half)
		return kb_fail(err, "'%s' is corrupt: %" PRIu64 " pfns do not fit in bitmaps of %"
				    PRIu64 " bytes", path, k->max_mapnr, k->bitmap_half);
	if (k->max_mapnr > UINT64_MAX / k->block_size)
		return kb_fail(err, "'%s' is corrupt: %" PRIu64 " pfns of %u bytes exceed the 64-bit "
				    "address space", path, k->max_mapnr, k->block_size);
	return kb_stream_check_range(k->hdr, k->bitmap1_off, 2 * k->bitmap_half, "the kdump bitmaps", err);
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

static const char *compression_name(uint32_t flags)
{
	return flags & KD_LZO ? "lzo" : flags & KD_SNAPPY ? "snappy" : flags & KD_ZSTD ? "zstd" : NULL;
}

/* The size bytes of page data at off, through the window (read again from
 * off when they are not all in it); NULL with err. */
static const unsigned char *data_at(struct kdump_source *k, uint64_t off, uint32_t size, const char *what,
				    struct kb_err *err)
{
	if (off >= k->win_off && off - k->win_off <= k->win_len && size <= k->win_len - (off - k->win_off))
		return k->win + (off - k->win_off);
	if (kb_stream_check_range(k->data, off, size, what, err))
		return NULL;
	ssize_t n = kb_stream_read(k->data, off, k->win, k->win_cap, err);
	if (n < 0)
		return NULL;
	k->win_off = off;
	k->win_len = (size_t)n;
	if ((size_t)n < size)
		return kb_stream_fail_short(k->data, off, size, (size_t)n, what, err), NULL;
	return k->win;
}

/* One page's zlib data into k->page: 0, or -1 unless it is one whole page
 * with its check value. */
static int inflate_page(struct kdump_source *k, const unsigned char *src, uint32_t size)
{
	z_stream *z = &k->z;

	if (!k->z_ready) {
		if (inflateInit(z) != Z_OK)
			return -1;
		k->z_ready = 1;
	} else if (inflateReset(z) != Z_OK) {
		return -1;
	}
	z->next_in = (unsigned char *)(uintptr_t)src;
	z->avail_in = size;
	z->next_out = k->page;
	z->avail_out = k->block_size;
	return inflate(z, Z_FINISH) == Z_STREAM_END && z->avail_out == 0 ? 0 : -1;
}

/* Reads and decompresses the page of one descriptor into k->page. */
static int page_load(struct kdump_source *k, uint64_t pfn, uint64_t off, uint32_t size,
		     uint32_t flags, struct kb_err *err)
{
	const char *path = k->desc->path;
	const char *comp = compression_name(flags);
	char what[64];

	if (comp)
		return kb_fail(err, "'%s': page at pfn %#" PRIx64 " uses %s compression: unsupported "
				    "compression (only zlib and uncompressed pages can be read)", path, pfn, comp);
	if (flags & ~KD_ZLIB)
		return kb_fail(err, "'%s' is corrupt: page at pfn %#" PRIx64 " has unknown flags %#x",
			       path, pfn, flags);
	if (size > k->block_size || (!(flags & KD_ZLIB) && size != k->block_size))
		return kb_fail(err, "'%s' is corrupt: page at pfn %#" PRIx64 " has %u bytes of data "
				    "(the page size is %u)", path, pfn, size, k->block_size);
	if (k->have_repeat && off == k->repeat_off && size == k->repeat_size && flags == k->repeat_flags) {
		memcpy(k->page, k->repeat_page, k->block_size);
		return 0;
	}
	snprintf(what, sizeof(what), "the data of the page at pfn %#" PRIx64, pfn);
	const unsigned char *src = data_at(k, off, size, what, err);
	if (!src)
		return -1;
	if (!(flags & KD_ZLIB))
		memcpy(k->page, src, size);
	else if (inflate_page(k, src, size))
		return kb_fail(err, "'%s' is corrupt: the zlib data of the page at pfn %#" PRIx64
				    " does not decompress to one page", path, pfn);
	/* A page read again (every zero page shares one copy) is kept, so that
	 * a forward-only layer (gzip, flattened) does not go back each time. */
	if (off < k->max_data_off) {
		memcpy(k->repeat_page, k->page, k->block_size);
		k->repeat_off = off;
		k->repeat_size = size;
		k->repeat_flags = flags;
		k->have_repeat = 1;
	} else {
		k->max_data_off = off;
	}
	return 0;
}

/* Finds the next dumped pfn and loads its page: 1, 0 at the end, -1. */
static int kdump_advance(struct kdump_source *k, struct kb_err *err)
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
		uint64_t off = 0;
		uint32_t size = 0, flags = 0;
		if (desc_next(k, &off, &size, &flags, err))
			return -1;
		if (size == 0) { /* an incomplete dump: this page was never written */
			k->base.stats.excluded += sub;
			continue;
		}
		if (page_load(k, pfn, off, size, flags, err))
			return -1;
		k->page_addr = pfn * k->block_size;
		k->sub_next = 0;
		k->sub_count = sub;
		return 1;
	}
	return 0;
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
	if (k->z_ready)
		inflateEnd(&k->z);
	k->z_ready = 0;
	free(k->win);
	free(k->page);
	free(k->repeat_page);
	free(k->bm1);
	k->win = k->page = k->repeat_page = k->bm1 = k->bm2buf = k->descs = NULL;
	k->win_len = 0;
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
		int rc = kdump_advance(k, err);
		if (rc == 0)
			return kdump_end(k, err);
		if (rc < 0)
			return -1;
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
	k->win = malloc(k->win_cap);
	k->page = aligned_alloc(64, k->block_size);
	k->repeat_page = malloc(k->block_size);
	k->bm1 = malloc(2 * KD_BITMAP_CHUNK + KD_DESC_BATCH * KD_DESC_BYTES);
	if (!k->win || !k->page || !k->repeat_page || !k->bm1) {
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
