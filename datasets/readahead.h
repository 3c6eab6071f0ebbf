/* Reading a stream forward on a helper thread, a ring of chunks in
 * flight: the next chunks are read (for a file in the page cache: copied
 * out of it by the kernel) while the caller works on the current one, so
 * that on a machine with a second CPU the copy costs the caller nothing.
 * Given a page digest (page_source.h), the thread also digests every page
 * of a chunk while its bytes are still in its cache, taking that pass off
 * the caller's CPU too. */
#ifndef KB_READAHEAD_H
#define KB_READAHEAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "page_source.h"
#include "stream.h"

struct readahead;

/* What the thread digests a chunk's pages with; fn NULL for none. */
struct readahead_digest {
	page_digest_fn fn;
	void *ctx;
	uint32_t page_size; /* cap is a multiple of it */
};

/* Starts reading s from off in chunks of cap bytes. The stream must not be
 * read by anyone else meanwhile, except with pread-safe random access. */
struct readahead *readahead_start(struct kb_stream *s, uint64_t off, size_t cap, const struct readahead_digest *dg,
				  struct kb_err *err);

/* The next chunk in *data: its length (less than cap only at the end of
 * the stream, then 0 on later calls), or -1 with err. With a digest,
 * *digests holds one per whole page of the chunk (else it is NULL). Both
 * stay valid until the next call. */
ssize_t readahead_next(struct readahead *ra, unsigned char **data, const uint64_t **digests, struct kb_err *err);

/* Stops the thread and frees everything. */
void readahead_stop(struct readahead *ra);

#endif
