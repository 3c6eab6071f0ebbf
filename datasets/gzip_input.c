/* The gzip stream layer (see gzip_input.h): zlib's inflate, member after
 * member, over any inner stream. */
#include "gzip_input.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define GZ_HEAD_BYTES (64u * 1024)
#define GZ_IN_BYTES (128u * 1024)
#define GZ_MAX_REWINDS 16

struct gzip_stream {
	struct kb_stream base;
	struct kb_stream *inner;
	z_stream z;
	uint64_t in_off; /* next compressed byte to fetch from inner */
	uint64_t pos;    /* decompressed bytes produced so far */
	int at_end;
	unsigned rewinds;
	size_t head_len;
	unsigned char head[GZ_HEAD_BYTES];
	unsigned char in[GZ_IN_BYTES];
};

int gzip_input_detect(const unsigned char *head, size_t len)
{
	return len >= 3 && head[0] == 0x1f && head[1] == 0x8b && head[2] == 8;
}

/* Reads more compressed bytes after those not yet consumed (moved to the
 * front): a member's end may leave a byte of the next one's magic. */
static int gz_fill(struct gzip_stream *g, struct kb_err *err)
{
	size_t kept = g->z.avail_in;

	if (kept)
		memmove(g->in, g->z.next_in, kept);
	ssize_t n = kb_stream_read(g->inner, g->in_off, g->in + kept, sizeof(g->in) - kept, err);
	if (n < 0)
		return -1;
	g->in_off += (uint64_t)n;
	g->z.next_in = g->in;
	g->z.avail_in = (uInt)(kept + (size_t)n);
	return (int)(n > 0);
}

/* After one member ends: another member follows, or the data ends. */
static int gz_next_member(struct gzip_stream *g, struct kb_err *err)
{
	/* The magic may be cut by the end of the buffer: fewer than its two
	 * bytes is the end of the data only where the input has no more. */
	while (g->z.avail_in < 2) {
		int got = gz_fill(g, err);
		if (got < 0)
			return -1;
		if (!got)
			break;
	}
	/* Anything but another gzip member (zero padding, say) ends the data,
	 * as gzip itself treats trailing garbage. */
	if (g->z.avail_in < 2 || g->z.next_in[0] != 0x1f || g->z.next_in[1] != 0x8b) {
		g->at_end = 1;
		return 0;
	}
	if (inflateReset(&g->z) != Z_OK)
		return kb_fail(err, "'%s': cannot restart gzip decompression", g->base.path);
	return 0;
}

/* Produces up to want decompressed bytes into dst (or discards them when
 * dst is NULL), keeping the first GZ_HEAD_BYTES. Returns the count. */
static int64_t gz_produce(struct gzip_stream *g, unsigned char *dst, uint64_t want, struct kb_err *err)
{
	unsigned char scratch[16384];
	uint64_t got = 0;

	while (got < want && !g->at_end) {
		if (g->z.avail_in == 0) {
			int more = gz_fill(g, err);
			if (more < 0)
				return -1;
			if (!more)
				return kb_fail(err, "'%s': the gzip data is truncated (ends inside a "
						    "compressed stream after %llu bytes)", g->base.path,
					       (unsigned long long)g->pos);
		}
		unsigned char *out = dst ? dst + got : scratch;
		uint64_t room = want - got;
		if (!dst && room > sizeof(scratch))
			room = sizeof(scratch);
		if (room > UINT32_MAX / 2)
			room = UINT32_MAX / 2;
		g->z.next_out = out;
		g->z.avail_out = (uInt)room;
		int rc = inflate(&g->z, Z_NO_FLUSH);
		size_t made = (size_t)room - g->z.avail_out;
		if (g->pos < GZ_HEAD_BYTES && made) {
			size_t keep = GZ_HEAD_BYTES - (size_t)g->pos < made ? GZ_HEAD_BYTES - (size_t)g->pos : made;
			memcpy(g->head + g->pos, out, keep);
			g->head_len = (size_t)g->pos + keep;
		}
		g->pos += made;
		got += made;
		if (rc == Z_STREAM_END) {
			if (gz_next_member(g, err))
				return -1;
		} else if (rc != Z_OK && !(rc == Z_BUF_ERROR && g->z.avail_in == 0)) {
			return kb_fail(err, "'%s': corrupt gzip data after %llu bytes (%s)", g->base.path,
				       (unsigned long long)g->pos, g->z.msg ? g->z.msg : "inflate failed");
		}
	}
	return (int64_t)got;
}

static int gz_rewind(struct gzip_stream *g, struct kb_err *err)
{
	if (++g->rewinds > GZ_MAX_REWINDS)
		return kb_fail(err, "'%s': reading this gzip-compressed dump needs to go back more "
				    "than %d times; decompress it first (gunzip)", g->base.path,
			       GZ_MAX_REWINDS);
	if (inflateReset(&g->z) != Z_OK)
		return kb_fail(err, "'%s': cannot restart gzip decompression", g->base.path);
	g->z.avail_in = 0;
	g->in_off = 0;
	g->pos = 0;
	g->at_end = 0;
	return 0;
}

static ssize_t gz_read_at(struct kb_stream *s, uint64_t off, void *buf, size_t len, struct kb_err *err)
{
	struct gzip_stream *g = (struct gzip_stream *)s;
	size_t done = 0;

	if (off < g->head_len && g->pos >= g->head_len) {
		size_t n = g->head_len - (size_t)off < len ? g->head_len - (size_t)off : len;
		memcpy(buf, g->head + off, n);
		done = n;
		off += n;
		if (done == len)
			return (ssize_t)done;
	}
	if (off < g->pos && gz_rewind(g, err))
		return -1;
	if (off > g->pos && gz_produce(g, NULL, off - g->pos, err) < 0)
		return -1;
	if (off != g->pos)
		return (ssize_t)done;
	int64_t n = gz_produce(g, (unsigned char *)buf + done, len - done, err);
	return n < 0 ? -1 : (ssize_t)(done + (size_t)n);
}

/* Decompresses the rest: inflate checks each member's CRC-32 and length
 * when it reaches the member's end, and a missing trailer is truncation. */
static int gz_finish(struct kb_stream *s, struct kb_err *err)
{
	struct gzip_stream *g = (struct gzip_stream *)s;

	while (!g->at_end)
		if (gz_produce(g, NULL, UINT64_MAX, err) < 0)
			return -1;
	return kb_stream_finish(g->inner, err);
}

static void gz_close(struct kb_stream *s)
{
	struct gzip_stream *g = (struct gzip_stream *)s;

	inflateEnd(&g->z);
	kb_stream_close(g->inner);
	free(g);
}

static const struct kb_stream_ops gz_ops = { gz_read_at, gz_close, gz_finish, NULL };

struct kb_stream *gzip_input_open(struct kb_stream *inner, struct kb_err *err)
{
	struct gzip_stream *g = calloc(1, sizeof(*g));

	if (!g) {
		kb_stream_close(inner);
		return kb_fail(err, "out of memory"), NULL;
	}
	/* 15 + 16: a 32 KiB window, gzip framing only. */
	if (inflateInit2(&g->z, 15 + 16) != Z_OK) {
		kb_stream_close(inner);
		free(g);
		return kb_fail(err, "cannot start gzip decompression"), NULL;
	}
	g->base.ops = &gz_ops;
	g->base.size = KB_STREAM_SIZE_UNKNOWN;
	g->base.path = inner->path;
	g->inner = inner;
	return &g->base;
}
