/* Decompressing a batch of compressed pages (a kdump's: zlib, lzo, snappy
 * or zstd, page_codec.h) on two CPUs: the caller's thread takes one half
 * of the batch and a helper thread, started on first use, the other. Each
 * page is compressed alone, so the halves do not depend on each other;
 * only their order of delivery does, and the caller keeps that. */
#ifndef KB_PAGE_INFLATE_H
#define KB_PAGE_INFLATE_H

#include <stddef.h>
#include <stdint.h>

#include "page_codec.h"

/* One page: the size bytes at src decoded by codec (whose decode is built
 * in) into the block bytes at dst; src NULL for nothing to do (the caller
 * fills dst: a page stored uncompressed, or a copy of another). failed is
 * set when the data is corrupt or not exactly one block. */
struct inflate_job {
	const struct page_codec *codec;
	const unsigned char *src;
	unsigned char *dst;
	uint32_t size;
	int failed;
};

struct page_inflater;

/* An inflater of blocks of block bytes; NULL when out of memory. */
struct page_inflater *page_inflater_new(uint32_t block);

/* Runs the n jobs: on two threads when two_threads and enough of them are
 * pages to inflate to pay for the hand-over (else, or when no thread can be
 * started, on the caller's alone). Returns when all are done. */
void page_inflater_run(struct page_inflater *pi, struct inflate_job *jobs, size_t n, int two_threads);

/* Stops the helper thread, if any, and frees everything. */
void page_inflater_free(struct page_inflater *pi);

#endif
