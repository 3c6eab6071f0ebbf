/* Opening input files ("-" is standard input) with one clear error each. */
#ifndef KB_FILE_INPUT_H
#define KB_FILE_INPUT_H

#include <stddef.h>
#include <sys/types.h>

#include "../common/err.h"

/* Opens path for reading; refuses directories. Returns an fd or -1. */
int file_input_open(const char *path, struct kb_err *err);

struct stat;

/* Whether path ('-': the file standard input reads) is a file that can be
 * read again and told apart by its inode: a regular file or a block device,
 * not a pipe, a FIFO or nothing at all. st holds its stat either way. */
int file_input_rereadable(const char *path, struct stat *st);

/* A buffer for large reads (free() it), 64-byte aligned: the kernel copies
 * a read's data out of the page cache with rep movsb, which on the Zen 3
 * VM ran 3.3 times slower into a destination 16 bytes past a line, where
 * malloc puts a large block (sum of a 2 GiB cached file: 1.02 s against
 * 0.31). NULL when out of memory. */
void *file_input_buffer(size_t len);

/* Reads up to len bytes, retrying short reads and EINTR; returns bytes read
 * (less than len only at end of file) or -1. */
ssize_t file_input_read_full(int fd, void *buf, size_t len, const char *path, struct kb_err *err);

/* A whole file in memory, read (not mapped: a file cut while mapped would
 * end the process with SIGBUS at the first byte past its new end). */
struct file_blob {
	const unsigned char *data;
	size_t len;
};

/* max_bytes: a file larger than that is refused (0: no limit). */
int file_blob_load(const char *path, size_t max_bytes, struct file_blob *blob, struct kb_err *err);
void file_blob_release(struct file_blob *blob);

#endif
