/* Plain-file and forward-only byte streams, and the checked reads (see
 * stream.h). */
#include "stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_input.h"

/* Bytes a forward-only stream keeps from its start: enough for every
 * format's headers to be read again after detection looked at them. */
#define SEQ_HEAD_BYTES (64u * 1024)

struct file_stream {
	struct kb_stream base;
	int fd;      /* -1 while parked and not reopened */
	int parked;
	dev_t dev;   /* the file read first: a reopen must find it again */
	ino_t ino;
	char *path;
};

/* Parked files reopened by a read, most recently used first (see
 * kb_stream_park). Only the thread that parks streams reads them again. */
static struct file_stream *reopened[KB_STREAM_REOPEN_MAX];
static size_t nreopened;

static void reopened_remove(struct file_stream *f)
{
	for (size_t i = 0; i < nreopened; i++)
		if (reopened[i] == f) {
			memmove(reopened + i, reopened + i + 1, (nreopened - i - 1) * sizeof(*reopened));
			nreopened--;
			return;
		}
}

static void reopened_push_front(struct file_stream *f)
{
	memmove(reopened + 1, reopened, nreopened * sizeof(*reopened));
	reopened[0] = f;
	nreopened++;
}

/* Opens a parked file again, closing the least recently used other one
 * when KB_STREAM_REOPEN_MAX are open. */
static int file_reopen(struct file_stream *f, struct kb_err *err)
{
	struct stat st;

	if (nreopened == KB_STREAM_REOPEN_MAX) {
		struct file_stream *old = reopened[--nreopened];
		close(old->fd);
		old->fd = -1;
	}
	int fd = file_input_open(f->path, err);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_dev != f->dev || st.st_ino != f->ino) {
		close(fd);
		return kb_fail(err, "'%s' was replaced since it was read: its pages cannot be read again",
			       f->path);
	}
	f->fd = fd;
	reopened_push_front(f);
	return 0;
}

struct seq_stream {
	struct kb_stream base;
	int fd;
	char *path;
	int at_end;
	uint64_t pos; /* bytes consumed from fd */
	size_t head_len;
	unsigned char head[SEQ_HEAD_BYTES];
};

static ssize_t file_read_at(struct kb_stream *s, uint64_t off, void *buf, size_t len,
			    struct kb_err *err)
{
	struct file_stream *f = (struct file_stream *)s;
	size_t got = 0;

	if (off > (uint64_t)INT64_MAX)
		return 0;
	if (f->parked && f->fd < 0) {
		if (file_reopen(f, err))
			return -1;
	} else if (f->parked && reopened[0] != f) {
		reopened_remove(f);
		reopened_push_front(f);
	}
	while (got < len) {
		ssize_t n = pread(f->fd, (char *)buf + got, len - got, (off_t)(off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return kb_fail_errno(err, errno, "cannot read '%s'", s->path);
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static void file_close(struct kb_stream *s)
{
	struct file_stream *f = (struct file_stream *)s;

	reopened_remove(f);
	if (f->fd >= 0)
		close(f->fd);
	free(f->path);
	free(f);
}

static void file_park(struct kb_stream *s)
{
	struct file_stream *f = (struct file_stream *)s;

	if (f->parked)
		return;
	close(f->fd);
	f->fd = -1;
	f->parked = 1;
}

static const struct kb_stream_ops file_ops = { file_read_at, file_close, NULL, file_park };

/* Reads from the fd into buf (NULL: discard) until want bytes or the end. */
static int64_t seq_pull(struct seq_stream *q, unsigned char *buf, uint64_t want, struct kb_err *err)
{
	unsigned char scratch[4096];
	uint64_t got = 0;

	while (got < want && !q->at_end) {
		size_t chunk = want - got > SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)(want - got);
		unsigned char *dst = buf ? buf + got : scratch;
		if (!buf && chunk > sizeof(scratch))
			chunk = sizeof(scratch);
		ssize_t n = file_input_read_full(q->fd, dst, chunk, q->base.path, err);
		if (n < 0)
			return -1;
		if ((size_t)n < chunk)
			q->at_end = 1;
		got += (uint64_t)n;
		q->pos += (uint64_t)n;
	}
	return (int64_t)got;
}

static ssize_t seq_read_at(struct kb_stream *s, uint64_t off, void *buf, size_t len,
			   struct kb_err *err)
{
	struct seq_stream *q = (struct seq_stream *)s;
	size_t done = 0;

	/* Fill the head first, so every byte of it stays available. */
	if (q->head_len < SEQ_HEAD_BYTES && q->pos == q->head_len && off + len > q->head_len) {
		int64_t n = seq_pull(q, q->head + q->head_len, SEQ_HEAD_BYTES - q->head_len, err);
		if (n < 0)
			return -1;
		q->head_len += (size_t)n;
	}
	if (off < q->head_len) {
		size_t n = q->head_len - (size_t)off < len ? q->head_len - (size_t)off : len;
		memcpy(buf, q->head + off, n);
		done = n;
		off += n;
	}
	if (done == len || (q->at_end && off >= q->pos))
		return (ssize_t)done;
	if (off < q->pos)
		return kb_fail(err, "'%s' is not seekable and the reader needs offset %llu again: "
				    "give it as a file", s->path, (unsigned long long)off);
	if (off > q->pos && seq_pull(q, NULL, off - q->pos, err) < 0)
		return -1;
	if (off != q->pos)
		return (ssize_t)done;
	int64_t n = seq_pull(q, (unsigned char *)buf + done, len - done, err);
	return n < 0 ? -1 : (ssize_t)(done + (size_t)n);
}

static void seq_close(struct kb_stream *s)
{
	struct seq_stream *q = (struct seq_stream *)s;

	close(q->fd);
	free(q->path);
	free(q);
}

static const struct kb_stream_ops seq_ops = { seq_read_at, seq_close, NULL, NULL };

struct kb_stream *kb_stream_open_file(const char *path, struct kb_err *err)
{
	struct stat st;
	int fd = file_input_open(path, err);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		struct file_stream *f = calloc(1, sizeof(*f));
		if (!f || !(f->path = strdup(path))) {
			free(f);
			close(fd);
			return kb_fail(err, "out of memory opening '%s'", path), NULL;
		}
		f->base.ops = &file_ops;
		f->base.size = (uint64_t)st.st_size;
		f->base.path = f->path;
		f->base.random_access = 1;
		f->fd = fd;
		f->dev = st.st_dev;
		f->ino = st.st_ino;
		return &f->base;
	}
	struct seq_stream *q = calloc(1, sizeof(*q));
	if (!q || !(q->path = strdup(path))) {
		free(q);
		close(fd);
		return kb_fail(err, "out of memory opening '%s'", path), NULL;
	}
	q->base.ops = &seq_ops;
	q->base.size = KB_STREAM_SIZE_UNKNOWN;
	q->base.path = q->path;
	q->fd = fd;
	return &q->base;
}

ssize_t kb_stream_read(struct kb_stream *s, uint64_t off, void *buf, size_t len, struct kb_err *err)
{
	if (len == 0)
		return 0;
	if (off > UINT64_MAX - len)
		return 0;
	return s->ops->read_at(s, off, buf, len, err);
}

/* Reads up to span bytes at off into buf, of which the first len (at most
 * span) must be there, failing as kb_stream_read_exact does: the count
 * read, or -1. */
static ssize_t kb_stream_read_least(struct kb_stream *s, uint64_t off, void *buf, size_t len, size_t span,
				    const char *what, struct kb_err *err)
{
	if (kb_stream_check_range(s, off, len, what, err))
		return -1;
	ssize_t n = kb_stream_read(s, off, buf, span, err);
	if (n < 0)
		return -1;
	return (size_t)n < len ? kb_stream_fail_short(s, off, len, (size_t)n, what, err) : n;
}

int kb_stream_read_exact(struct kb_stream *s, uint64_t off, void *buf, size_t len, const char *what,
			 struct kb_err *err)
{
	return kb_stream_read_least(s, off, buf, len, len, what, err) < 0 ? -1 : 0;
}

int kb_window_read(struct kb_window *w, struct kb_stream *s, uint64_t off, void *buf, size_t len, size_t span,
		   const char *what, struct kb_err *err)
{
	unsigned char *b = buf;
	size_t keep = 0;
	ssize_t n;

	/* From inside the window: what it holds from off on is kept and the
	 * rest read from its end, forward. Read again from off, a stream that
	 * cannot seek (gzip, a flattened dump) went back for it: a restart or
	 * a rescan at nearly every window's end. */
	if (w->len && off >= w->off && off - w->off < w->len && span > w->len - (size_t)(off - w->off)) {
		keep = w->len - (size_t)(off - w->off);
		memmove(b, b + (off - w->off), keep);
	}
	if (kb_stream_check_range(s, off, len, what, err))
		n = -1;
	else if ((n = kb_stream_read(s, off + keep, b + keep, span - keep, err)) >= 0 && (size_t)n + keep < len)
		n = kb_stream_fail_short(s, off, len, (size_t)n + keep, what, err);
	w->off = off;
	w->len = n < 0 ? 0 : keep + (size_t)n;
	return n < 0 ? -1 : 0;
}

int kb_stream_fail_short(const struct kb_stream *s, uint64_t off, size_t len, size_t got, const char *what,
			 struct kb_err *err)
{
	return kb_fail(err, "'%s' is truncated: %s (%zu bytes at offset %llu) ends past the end of the data at %llu",
		       s->path, what, len, (unsigned long long)off, (unsigned long long)(off + got));
}

int kb_stream_check_range(const struct kb_stream *s, uint64_t off, uint64_t len, const char *what,
			  struct kb_err *err)
{
	if (off > UINT64_MAX - len)
		return kb_fail(err, "'%s': %s: offset %llu + size %llu overflows", s->path, what,
			       (unsigned long long)off, (unsigned long long)len);
	if (s->size != KB_STREAM_SIZE_UNKNOWN && off + len > s->size)
		return kb_fail(err, "'%s' is truncated or corrupt: %s (%llu bytes at offset %llu) "
				    "extends past the end of the data (%llu bytes)", s->path, what,
			       (unsigned long long)len, (unsigned long long)off,
			       (unsigned long long)s->size);
	return 0;
}
