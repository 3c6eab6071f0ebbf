/* Reading a stream forward on a helper thread, a ring of chunks in
 * flight: the next chunks are read (for a file in the page cache: copied
 * out of it by the kernel) while the caller works on the current one, so
 * that on a machine with a second CPU the copy costs the caller nothing.
 * Given a page digest (page_source.h), the thread also digests every page
 * of a chunk while its bytes are still in its cache, taking that pass off
 * the caller's CPU too, except when the caller is already waiting for the
 * chunk (its digests' keys are then 0: the caller has the time). */
#ifndef KB_READAHEAD_H
#define KB_READAHEAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "page_source.h"
#include "stream.h"

struct readahead;

/* Chunks of 256 KiB in a ring of eight: the copy's destination and the
 * pages the caller is on stay in the caches (1 MiB chunks measured slower
 * in make bench-scan: 0.45-0.67 s against 0.42-0.54 s for the whole scan of
 * 2 GiB). */
#define READAHEAD_CHUNK_BYTES (1u << 18)
/* The chunk size for pages of page_size: whole pages. */
static inline size_t readahead_chunk_bytes(uint32_t page_size)
{
	return READAHEAD_CHUNK_BYTES > page_size ? READAHEAD_CHUNK_BYTES / page_size * page_size : page_size;
}

/* A thread is worth starting for this many bytes to read, not fewer. */
#define READAHEAD_MIN_BYTES (4u << 20)
/* end for a read to the end of the stream. */
#define READAHEAD_TO_END UINT64_MAX

/* What the thread digests a chunk's pages with; fn NULL for none. */
struct readahead_digest {
	page_digest_fn fn;
	void *ctx;
	uint32_t page_size; /* cap is a multiple of it */
};

/* Starts reading s from off up to end (or READAHEAD_TO_END) in chunks of
 * cap bytes. The stream must not be read by anyone else meanwhile, except
 * with pread-safe random access. */
struct readahead *readahead_start(struct kb_stream *s, uint64_t off, uint64_t end, size_t cap,
				  const struct readahead_digest *dg, struct kb_err *err);

/* The next chunk in *data: its length (less than cap only at end or the
 * end of the stream, then 0 on later calls), or -1 with err. With a digest,
 * *digests holds one per whole page of the chunk (else it is NULL), all
 * with key 0 where the thread left them to the caller. Both
 * stay valid until the next call. */
ssize_t readahead_next(struct readahead *ra, unsigned char **data, const struct page_digest **digests,
		       struct kb_err *err);

/* Stops the thread (the stream is the caller's again) and keeps the
 * buffers for readahead_restart. */
void readahead_halt(struct readahead *ra);

/* Reads [off, end) of the same stream with the same buffers and digest:
 * a dump's next segment without allocating (and, in a VM, faulting in)
 * the ring again. 0, or -1 with err (then only readahead_stop). */
int readahead_restart(struct readahead *ra, uint64_t off, uint64_t end, struct kb_err *err);

/* Stops the thread and frees everything. */
void readahead_stop(struct readahead *ra);

#endif
