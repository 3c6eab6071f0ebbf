/* The raw page source: page k of a file at offset k * page_size (pmemsave
 * output, /dev/mem-style images, any file). */
#ifndef KB_RAW_H
#define KB_RAW_H

#include "page_source.h"
#include "stream.h"

/* The dump table's entry (dump.h): streams a->stream (taken over) in pages;
 * memory use is one read chunk (past 4 MiB of file, the read-ahead's ring
 * of them instead). A trailing piece shorter than a page is counted in
 * stats, not yielded. */
struct dump_open;
struct page_source *raw_open(const struct dump_open *a, struct kb_err *err);

#endif
