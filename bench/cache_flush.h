/* Writing a range of memory back and out of every cache level, so that the
 * next read of it goes to memory: how the ksmd timer makes each cycle's
 * pages cold (a working set several times the cache would do it too, but
 * costs a gigabyte per process), and how the ceiling's cold-page probe
 * empties a page before reading it; and how the ksmd timer loads a cold
 * page's address translation without its data. */
#ifndef KB_CACHE_FLUSH_H
#define KB_CACHE_FLUSH_H

#include <stddef.h>

/* 1 where user code can flush cache lines (x86: clflush; arm64: dc civac,
 * which Linux lets user code run), 0 elsewhere. */
int cache_flush_available(void);

/* Flushes every line overlapping p[0..len) from every cache level and waits
 * until that is done; 0, or -1 (nothing done) where unavailable. */
int cache_flush(const void *p, size_t len);

/* Flushes the first line of each of the n pages and waits. The line was
 * flushed before and stays out of the caches, but the flush resolves its
 * address: each page's translation is in the TLB afterwards, and its
 * page-table entries in the caches, while its data stays cold. 0, or -1
 * (nothing done) where unavailable. */
int cache_warm_translations(const unsigned char *const *pages, size_t n);

#endif
