/* Unit tests: the raw page source. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../datasets/file_input.h"
#include "../../datasets/raw.h"
#include "check.h"
#include "groups.h"

static char *temp_file(const void *data, size_t len)
{
	static char path[64];
	strcpy(path, "/tmp/ksmbench-unit-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	if (write(fd, data, len) != (ssize_t)len) {
		close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

void test_raw_source(void)
{
	struct kb_err err;
	struct page pg;
	size_t len = 3 * 256 + 100;
	unsigned char *data = malloc(len);

	for (size_t i = 0; i < len; i++)
		data[i] = (unsigned char)(i / 256 + 1);
	char *path = temp_file(data, len);
	CHECK(path != NULL);

	struct page_source *src = raw_source_open(path, 256, &err);
	CHECK(src != NULL);
	unsigned n = 0;
	int rc;
	while (src && (rc = page_source_next(src, &pg, &err)) == 1) {
		CHECK(pg.index == n && pg.addr == n * 256u);
		CHECK(pg.data[0] == n + 1 && pg.data[255] == n + 1);
		n++;
	}
	CHECK(n == 3);
	if (src) {
		CHECK(src->stats.pages == 3 && src->stats.partial_pages == 1 && src->stats.partial_bytes == 100);
		CHECK(page_source_next(src, &pg, &err) == 0); /* stays at the end */
		page_source_close(src);
	}

	struct file_blob blob;
	CHECK(file_blob_load(path, &blob, &err) == 0 && blob.len == len && blob.data[len - 1] == 4);
	file_blob_release(&blob);
	unlink(path);

	CHECK(raw_source_open("/nonexistent/x", 4096, &err) == NULL && strstr(err.msg, "No such file"));
	CHECK(file_input_open("/tmp", &err) == -1 && strstr(err.msg, "is a directory"));
	free(data);
}
