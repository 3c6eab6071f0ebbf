/* Opening and reading input files (see file_input.h). */
#include "file_input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/grow.h"

int file_input_open(const char *path, struct kb_err *err)
{
	struct stat st;
	int fd;

	if (strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kb_fail_errno(err, errno, "cannot open '%s'", path);
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return kb_fail_errno(err, e, "cannot stat '%s'", path);
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return kb_fail(err, "'%s' is a directory", path);
	}
	return fd;
}

int file_input_rereadable(const char *path, struct stat *st)
{
	int got = strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, st) : stat(path, st);

	return got == 0 && (S_ISREG(st->st_mode) || S_ISBLK(st->st_mode));
}

void *file_input_buffer(size_t len)
{
	const size_t line = 64;

	return len > SIZE_MAX - line ? NULL : aligned_alloc(line, (len + line - 1) / line * line);
}

ssize_t file_input_read_full(int fd, void *buf, size_t len, const char *path, struct kb_err *err)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return kb_fail_errno(err, errno, "cannot read '%s'", path);
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static int too_large(const char *path, size_t max_bytes, struct kb_err *err)
{
	return kb_fail(err, "'%s' is larger than %zu bytes, the most this input may hold", path, max_bytes);
}

static int read_all(int fd, const char *path, size_t max_bytes, struct file_blob *blob, struct kb_err *err)
{
	size_t cap = 0, len = 0;
	unsigned char *buf = NULL;

	for (;;) {
		unsigned char *bigger = kb_grow(buf, &cap, len + 1, 1, 1 << 16);
		if (!bigger) {
			free(buf);
			return kb_fail(err, "out of memory reading '%s'", path);
		}
		buf = bigger;
		size_t want = cap - len;
		ssize_t n = file_input_read_full(fd, buf + len, want, path, err);
		if (n < 0) {
			free(buf);
			return -1;
		}
		len += (size_t)n;
		if (max_bytes && len > max_bytes) {
			free(buf);
			return too_large(path, max_bytes, err);
		}
		if ((size_t)n < want)
			break;
	}
	blob->data = buf;
	blob->len = len;
	return 0;
}

int file_blob_load(const char *path, size_t max_bytes, struct file_blob *blob, struct kb_err *err)
{
	struct stat st;
	int fd = file_input_open(path, err);

	memset(blob, 0, sizeof(*blob));
	if (fd < 0)
		return -1;
	/* A regular file past the limit is refused before it is read. */
	if (max_bytes && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > max_bytes) {
		close(fd);
		return too_large(path, max_bytes, err);
	}
	int rc = read_all(fd, path, max_bytes, blob, err);
	close(fd);
	return rc;
}

void file_blob_release(struct file_blob *blob)
{
	free((void *)blob->data);
	memset(blob, 0, sizeof(*blob));
}
