/* The raw page source (see raw.h). */
#include "raw.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file_input.h"

struct raw_source {
	struct page_source base;
	int fd;
	char *path;
	uint64_t index;
	unsigned char *page;
};

static int raw_next(struct page_source *src, struct page *out, struct kb_err *err)
{
	struct raw_source *r = (struct raw_source *)src;

	if (r->fd < 0)
		return 0;
	ssize_t n = file_input_read_full(r->fd, r->page, src->page_size, r->path, err);
	if (n < 0)
		return -1;
	if ((size_t)n < src->page_size) {
		if (n > 0) {
			src->stats.partial_pages++;
			src->stats.partial_bytes += (uint64_t)n;
		}
		close(r->fd);
		r->fd = -1;
		return 0;
	}
	out->index = r->index++;
	out->addr = out->index * src->page_size;
	out->data = r->page;
	src->stats.pages++;
	return 1;
}

static void raw_close(struct page_source *src)
{
	struct raw_source *r = (struct raw_source *)src;

	if (r->fd >= 0)
		close(r->fd);
	free(r->page);
	free(r->path);
	free(r);
}

static const struct page_source_ops raw_ops = { raw_next, raw_close };

struct page_source *raw_source_open(const char *path, uint32_t page_size, struct kb_err *err)
{
	struct raw_source *r = calloc(1, sizeof(*r));

	if (!r || !(r->path = strdup(path)) || !(r->page = aligned_alloc(64, page_size))) {
		if (r) {
			free(r->path);
			free(r);
		}
		return kb_fail(err, "out of memory opening '%s'", path), NULL;
	}
	r->fd = file_input_open(path, err);
	if (r->fd < 0) {
		free(r->page);
		free(r->path);
		free(r);
		return NULL;
	}
	r->base.ops = &raw_ops;
	r->base.format = "raw";
	r->base.page_size = page_size;
	return &r->base;
}
