/* A file's pages as benchmark content, read through dump_source_open() so
 * that every format the dump readers know works here too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "page_set.h"

int page_content_file(struct page_content *c, const char *path, uint32_t page_size,
		      const struct dump_options *opts, size_t max_bytes, struct kb_err *err)
{
	size_t max_pages = max_bytes / page_size ? max_bytes / page_size : 1;
	struct page pg;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	struct page_source *src = dump_source_open(path, page_size, opts, err);
	if (!src)
		return -1;
	c->bytes = malloc(max_pages * page_size);
	if (!c->bytes) {
		page_source_close(src);
		return kb_fail(err, "out of memory reading '%s'", path);
	}
	while (c->pages < max_pages && (rc = page_source_next(src, &pg, err)) == 1)
		memcpy(c->bytes + c->pages++ * page_size, pg.data, page_size);
	if (c->pages < max_pages && rc < 0) {
		page_source_close(src);
		page_content_release(c);
		return -1;
	}
	page_source_close(src);
	if (c->pages == 0) {
		page_content_release(c);
		return kb_fail(err, "'%s' holds no whole %u-byte page", path, page_size);
	}
	c->page_size = page_size;
	snprintf(c->data, sizeof(c->data), "file:%s", path);
	return 0;
}
