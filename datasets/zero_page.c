/* The zero page: what the v2 patch's self-test hashed, "because it's cheap". */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "page_set.h"

int page_content_zero(struct page_content *c, uint32_t page_size, struct kb_err *err)
{
	memset(c, 0, sizeof(*c));
	c->bytes = calloc(1, page_size);
	if (!c->bytes)
		return kb_fail(err, "out of memory for a %u-byte page", page_size);
	c->pages = 1;
	c->page_size = page_size;
	strcpy(c->data, "zero");
	return 0;
}

void page_content_release(struct page_content *c)
{
	if (c->mapped_bytes)
		munmap(c->bytes, c->mapped_bytes);
	else
		free(c->bytes);
	memset(c, 0, sizeof(*c));
}
