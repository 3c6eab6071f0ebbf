/* The census's representatives read again (see census.h): a set-associative
 * cache of recently compared ones in memory (the least recently used way
 * of a set out), the spill file that keeps a copy of each new content for
 * a source that cannot read a page again, and the caller's fetch for the
 * others. */
#include "census_state.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "../common/quote.h"
#include "../common/temp_file.h"

/* The spill: an unnamed temporary file (common/temp_file.h). */
static FILE *spill_open(void)
{
	int fd = temp_file_unnamed();
	FILE *f = fd >= 0 ? fdopen(fd, "w+b") : NULL;

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

int census_spill_write(struct census *c, const unsigned char *data, uint64_t *locator, struct kb_err *err)
{
	char where[KB_QUOTE_SIZE + 16];

	if (!c->spill && !(c->spill = spill_open())) {
		int e = errno;
		return kb_fail_errno(err, e, "cannot create a temporary file in %s for pages of a compressed or "
					     "streamed dump", temp_file_where(where, sizeof(where)));
	}
	ssize_t n = pwrite(fileno(c->spill), data, c->cfg.page_size, (off_t)c->spill_bytes);
	if (n != (ssize_t)c->cfg.page_size)
		return kb_fail_errno(err, n < 0 ? errno : ENOSPC, "cannot write the temporary copy of a page");
	*locator = CENSUS_LOCATOR_SPILLED | c->spill_bytes;
	c->spill_bytes += c->cfg.page_size;
	c->counts.spilled++;
	return 0;
}

static int read_locator(struct census *c, uint64_t locator, void *buf, struct kb_err *err)
{
	c->counts.fetches++;
	if (locator & CENSUS_LOCATOR_SPILLED) {
		ssize_t n = pread(fileno(c->spill), buf, c->cfg.page_size, (off_t)(locator & ~CENSUS_LOCATOR_SPILLED));
		if (n != (ssize_t)c->cfg.page_size)
			return kb_fail_errno(err, n < 0 ? errno : EIO, "cannot read the temporary copy of a page");
		return 0;
	}
	if (!c->cfg.fetch)
		return kb_fail(err, "the census cannot read pages again");
	return c->cfg.fetch(c->cfg.fetch_ctx, locator, buf, err);
}

/* The representative's bytes: from the cache, else read and cached in
 * its set's least recently used way. */
const unsigned char *census_representative(struct census *c, uint64_t locator, struct kb_err *err)
{
	if (c->cache_slots == 0)
		return read_locator(c, locator, c->scratch, err) ? NULL : c->scratch;
	size_t sets = c->cache_slots / c->cache_ways;
	size_t first = (size_t)((locator * 0x9e3779b97f4a7c15ull) >> 20) % sets * c->cache_ways, i = first;
	for (size_t w = 0; w < c->cache_ways; w++) {
		if (c->cache_tags[first + w] == locator) {
			c->cache_used[first + w] = ++c->cache_clock;
			return c->cache_data + (first + w) * c->cfg.page_size;
		}
		if (c->cache_used[first + w] < c->cache_used[i])
			i = first + w;
	}
	unsigned char *p = c->cache_data + i * c->cfg.page_size;
	c->cache_tags[i] = UINT64_MAX;
	if (read_locator(c, locator, p, err))
		return NULL;
	c->cache_tags[i] = locator;
	c->cache_used[i] = ++c->cache_clock;
	return p;
}

int census_read(struct census *c, const struct census_entry *e, void *buf, struct kb_err *err)
{
	return read_locator(c, e->locator, buf, err);
}
