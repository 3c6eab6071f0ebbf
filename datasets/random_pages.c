/* Pseudo-random pages, reproducible from --seed. */
#include <stdlib.h>
#include <string.h>

#include "../common/prng.h"
#include "page_set.h"

int page_content_random(struct page_content *c, uint32_t page_size, uint64_t seed, struct kb_err *err)
{
	memset(c, 0, sizeof(*c));
	c->bytes = malloc(page_size);
	if (!c->bytes)
		return kb_fail(err, "out of memory for a %u-byte page", page_size);
	prng_fill(&seed, c->bytes, page_size);
	c->pages = 1;
	c->page_size = page_size;
	strcpy(c->data, "random");
	return 0;
}
