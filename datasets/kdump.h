/* kdump-compressed dumps (makedumpfile, QEMU dump-guest-memory with
 * kdump-zlib/-lzo/-snappy formats), plain ("KDUMP   ") or flattened (the
 * dump_input layer undoes that): 32- or 64-bit headers, either byte order.
 * Pages stored raw or zlib-compressed are yielded; lzo, snappy and zstd
 * pages are an "unsupported compression" error; pages the dump tool left
 * out (in the first bitmap, not the second) are counted as excluded. */
#ifndef KB_KDUMP_H
#define KB_KDUMP_H

#include "dump_input.h"
#include "page_source.h"

/* 1 when the first bytes are the "KDUMP   " signature. */
int kdump_detect(const unsigned char *head, size_t len);

/* The dump table's entry (dump.h): takes over a->stream (a cursor of
 * a->in) and opens three more cursors. The dump's page size (its block
 * size) must be a multiple of a->page_size: a larger dump page is yielded
 * as several pages. */
struct dump_open;
struct page_source *kdump_open(const struct dump_open *a, struct kb_err *err);

#endif
