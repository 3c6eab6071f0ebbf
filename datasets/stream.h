/* Byte streams that dump readers read through: a plain file (pread), a pipe
 * or standard input (forward only), and layers stacked on them (gzip, the
 * flattened makedumpfile layout). Every read names what it reads and checks
 * its offset and length once, here, so the readers cannot overrun. */
#ifndef KB_STREAM_H
#define KB_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../common/err.h"

#define KB_STREAM_SIZE_UNKNOWN UINT64_MAX

struct kb_stream;

struct kb_stream_ops {
	/* Reads up to len bytes at off; returns the count (less than len only
	 * at the end of the stream) or -1 with err. */
	ssize_t (*read_at)(struct kb_stream *s, uint64_t off, void *buf, size_t len,
			   struct kb_err *err);
	void (*close)(struct kb_stream *s);
	/* Reads what is left to the end and checks it (a gzip layer: its CRC
	 * and length): 0 or -1 with err. NULL: nothing to check. */
	int (*finish)(struct kb_stream *s, struct kb_err *err);
	/* Gives back what the stream holds while nobody reads it (a plain
	 * file: its descriptor, reopened by the next read). NULL: nothing. */
	void (*park)(struct kb_stream *s);
};

struct kb_stream {
	const struct kb_stream_ops *ops;
	uint64_t size;    /* bytes in the stream, or KB_STREAM_SIZE_UNKNOWN */
	const char *path; /* for messages; the file layer owns it, layers share it */
	int random_access; /* read_at anywhere is one pread (a plain file, no layer) */
};

/* A regular file read with pread, or (not seekable: pipes, standard input
 * as "-") a forward-only stream that keeps its first bytes so that format
 * detection can look at them and readers can read them again. */
struct kb_stream *kb_stream_open_file(const char *path, struct kb_err *err);

static inline void kb_stream_close(struct kb_stream *s)
{
	if (s)
		s->ops->close(s);
}

/* Checks the rest of the stream (see finish above): a reader calls it when
 * it reaches the end of what it reads, so that a damaged gzip file is an
 * error even when the damage lies past the last byte the format needs. */
static inline int kb_stream_finish(struct kb_stream *s, struct kb_err *err)
{
	return s->ops->finish ? s->ops->finish(s, err) : 0;
}

/* A reader that is done with its pass but may read again later (a scan
 * fetches pages of dumps it read earlier) parks its stream: a plain file's
 * descriptor is closed, and reopened on demand, with at most
 * KB_STREAM_REOPEN_MAX of them open at once, so that many dumps read one
 * after another hold a bounded number of descriptors. */
#define KB_STREAM_REOPEN_MAX 8
static inline void kb_stream_park(struct kb_stream *s)
{
	if (s->ops->park)
		s->ops->park(s);
}

/* Reads up to len bytes at off: the count, or -1. */
ssize_t kb_stream_read(struct kb_stream *s, uint64_t off, void *buf, size_t len, struct kb_err *err);

/* Reads exactly len bytes at off, or fails naming what was read ("program
 * header 3") and where the file ends. */
int kb_stream_read_exact(struct kb_stream *s, uint64_t off, void *buf, size_t len, const char *what,
			 struct kb_err *err);

/* A stream's bytes [off, off + len), kept in a buffer of the caller's: a
 * window read ahead, so that small reads one after another (a dump's
 * segments or pages) cost one system call. len 0: empty. */
struct kb_window {
	uint64_t off;
	size_t len;
};

/* Whether the window holds [off, off + n) at a multiple of align bytes
 * from its start (1: anywhere). */
static inline int kb_window_holds(const struct kb_window *w, uint64_t off, size_t n, size_t align)
{
	return off >= w->off && off - w->off <= w->len && n <= w->len - (off - w->off) && (off - w->off) % align == 0;
}

/* Reads span bytes at off into buf (kb_stream_read_least: the first len
 * must be there) and makes them the window: 0, or -1 with err and the
 * window empty. buf is the buffer the window was read into before: what
 * it holds from off on is kept, and only the rest read. */
int kb_window_read(struct kb_window *w, struct kb_stream *s, uint64_t off, void *buf, size_t len, size_t span,
		   const char *what, struct kb_err *err);

/* The failure of a read of len bytes at off that gave only got: the data
 * ends there. Returns -1. */
int kb_stream_fail_short(const struct kb_stream *s, uint64_t off, size_t len, size_t got, const char *what,
			 struct kb_err *err);

/* Fails unless [off, off + len) lies inside the stream as far as its size
 * is known (an unknown size is checked by the reads themselves). */
int kb_stream_check_range(const struct kb_stream *s, uint64_t off, uint64_t len, const char *what,
			  struct kb_err *err);

/* Little- or big-endian fields from a header in memory. */
static inline uint16_t kb_get16(const unsigned char *p, int big)
{
	return big ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static inline uint32_t kb_get32(const unsigned char *p, int big)
{
	return big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
		   : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static inline uint64_t kb_get64(const unsigned char *p, int big)
{
	uint64_t hi = kb_get32(p + (big ? 0 : 4), big), lo = kb_get32(p + (big ? 4 : 0), big);
	return hi << 32 | lo;
}

#endif
