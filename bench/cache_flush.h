/* Writing a range of memory back and out of every cache level, so that the
 * next read of it goes to memory: how the ksmd timer makes each cycle's
 * pages cold (a working set several times the cache would do it too, but
 * costs a gigabyte per process), and how the ceiling's cold-page probe
 * empties a page before reading it. */
#ifndef KB_CACHE_FLUSH_H
#define KB_CACHE_FLUSH_H

#include <stddef.h>

/* 1 where user code can flush cache lines (x86: clflush; arm64: dc civac,
 * which Linux lets user code run), 0 elsewhere. */
int cache_flush_available(void);

/* Flushes every line overlapping p[0..len) from every cache level and waits
 * until that is done; 0, or -1 (nothing done) where unavailable. */
int cache_flush(const void *p, size_t len);

#endif
