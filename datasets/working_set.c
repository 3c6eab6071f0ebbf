/* Laying pages out for a benchmark: hot sets reuse a few pages; cold sets
 * spread copies over a working set larger than the last-level cache and
 * visit them in a shuffled order (see page_set.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../common/meminfo.h"
#include "../common/prng.h"
#include "page_set.h"

/* Bytes between the starts of consecutive pages: room for the misalignment,
 * while keeping each page's 64-byte alignment phase the same. */
static size_t slot_bytes(uint32_t page_size, uint32_t misalign)
{
	return (size_t)page_size + ((misalign + 63u) & ~(size_t)63u);
}

static int layout(struct page_set *s, const struct page_content *c, size_t count, uint32_t misalign,
		  struct kb_err *err)
{
	size_t slot = slot_bytes(c->page_size, misalign);

	memset(s, 0, sizeof(*s));
	if (misalign >= c->page_size)
		return kb_fail(err, "misalignment %u must be smaller than the page size %u", misalign, c->page_size);
	if (count > SIZE_MAX / slot)
		return kb_fail(err, "working set too large");
	s->mem_bytes = (count * slot + 4095) & ~(size_t)4095;
	/* Every page of the set is written: one larger than the memory
	 * available would be built until the OOM killer ended the process. */
	long long avail = meminfo_available_bytes(MEMINFO_PATH);
	if (avail >= 0 && s->mem_bytes > (unsigned long long)avail)
		return kb_fail(err, "a %zu-byte working set is more than the memory available (%lld bytes, "
				    "MemAvailable in " MEMINFO_PATH ")", s->mem_bytes, avail);
	/* Anonymous memory with transparent huge pages where the kernel allows
	 * them: building a 2 GiB set then takes a thousand page faults instead
	 * of half a million, and guest RAM that ksmd scans is usually backed by
	 * huge pages too. */
	void *mem = mmap(NULL, s->mem_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	s->mem = mem == MAP_FAILED ? NULL : mem;
#ifdef MADV_HUGEPAGE
	if (s->mem && s->mem_bytes >= (4u << 20))
		madvise(s->mem, s->mem_bytes, MADV_HUGEPAGE);
#endif
	s->order = malloc(count * sizeof(*s->order));
	if (!s->mem || !s->order) {
		page_set_release(s);
		return kb_fail(err, "out of memory for a %zu-byte working set", count * (size_t)c->page_size);
	}
	s->count = count;
	s->page_size = c->page_size;
	s->misalign = misalign;
	s->working_set_bytes = (uint64_t)count * c->page_size;
	memcpy(s->data, c->data, sizeof(s->data));
	for (size_t i = 0; i < count; i++)
		s->order[i] = s->mem + i * slot + misalign;
	return 0;
}

int page_set_hot(struct page_set *s, const struct page_content *c, uint32_t misalign, struct kb_err *err)
{
	if (layout(s, c, c->pages, misalign, err))
		return -1;
	for (size_t i = 0; i < c->pages; i++)
		memcpy((unsigned char *)s->order[i], c->bytes + i * c->page_size, c->page_size);
	s->cache = "hot";
	return 0;
}

int page_set_cold(struct page_set *s, const struct page_content *c, uint64_t ws_bytes, uint32_t misalign,
		  uint64_t seed, struct kb_err *err)
{
	uint64_t want = ws_bytes / c->page_size;
	size_t count = want < 2 ? 2 : want > PAGE_SET_COLD_PAGES_MAX ? PAGE_SET_COLD_PAGES_MAX : (size_t)want;
	int random_content = strcmp(c->data, "random") == 0;
	uint64_t fill_state = seed;

	if (layout(s, c, count, misalign, err))
		return -1;
	/* Every page is written, so the kernel backs it with its own frame
	 * (reading untouched memory would map one shared zero page). */
	for (size_t i = 0; i < count; i++) {
		unsigned char *p = (unsigned char *)s->order[i];
		if (random_content)
			prng_fill(&fill_state, p, c->page_size);
		else
			memcpy(p, c->bytes + (i % c->pages) * c->page_size, c->page_size);
	}
	/* Fisher-Yates: a random permutation of the page order. */
	uint64_t order_state = seed ^ 0x5bd1e995u;
	for (size_t i = count - 1; i > 0; i--) {
		size_t j = (size_t)prng_below(&order_state, i + 1);
		const unsigned char *t = s->order[i];
		s->order[i] = s->order[j];
		s->order[j] = t;
	}
	s->cache = "cold";
	return 0;
}

void page_set_release(struct page_set *s)
{
	if (s->mem)
		munmap(s->mem, s->mem_bytes);
	free(s->order);
	memset(s, 0, sizeof(*s));
}

uint64_t page_set_cold_default_bytes(uint64_t llc_bytes)
{
	uint64_t ws = 4 * llc_bytes;

	if (ws < (64ull << 20))
		ws = 64ull << 20;
	if (ws > PAGE_SET_COLD_MAX_BYTES)
		ws = PAGE_SET_COLD_MAX_BYTES;
	return ws;
}
