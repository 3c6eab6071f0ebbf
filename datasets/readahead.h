/* Reading a stream forward on a helper thread, two chunks in flight: the
 * next chunk is read (for a file in the page cache: copied out of it by
 * the kernel) while the caller works on the current one, so that on a
 * machine with a second CPU the copy costs the caller nothing. */
#ifndef KB_READAHEAD_H
#define KB_READAHEAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "stream.h"

struct readahead;

/* Starts reading s from off in chunks of cap bytes. The stream must not be
 * read by anyone else meanwhile, except with pread-safe random access. */
struct readahead *readahead_start(struct kb_stream *s, uint64_t off, size_t cap, struct kb_err *err);

/* The next chunk in *data: its length (less than cap only at the end of
 * the stream, then 0 on later calls), or -1 with err. The chunk stays valid
 * until the next call. */
ssize_t readahead_next(struct readahead *ra, unsigned char **data, struct kb_err *err);

/* Stops the thread and frees everything. */
void readahead_stop(struct readahead *ra);

#endif
