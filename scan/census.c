/* The page census's table (see census.h): an open-addressing table with
 * linear probing of 24-byte entries {key, locator, count, first checksum},
 * its size and growth, and each page added to it. The representatives it
 * compares with are read through census_representatives.c; the finished
 * table is read out by census_top.c, census_ksm.c and census_collisions.c. */
#include "census_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Grow (double) past this load; sized from expected_pages it never does. */
#define LOAD_MAX_NUM 9
#define LOAD_MAX_DEN 10
#define SLOTS_MIN 1024u
/* Spare slots beyond the expected page count: half as many, at most 2^18
 * (6 MiB). The load stays below 2/3 for dumps up to 2 GiB of 4 KiB pages
 * even when every page is unique and non-zero (0.8 at 4 GiB, 0.94 at
 * 16 GiB), and the table costs at most 24 bytes per page plus 6 MiB. */
#define SLOTS_SPARE_MAX (1u << 18)
/* Representatives a set holds. A miss is a read of the page again (a
 * pread, a system call); a direct-mapped cache thrashed on two hot contents
 * in one slot. With as many hot contents as slots (make bench-scan: 4096
 * in 16 MiB, 126976 compares, 4096 first reads) 4 ways missed 25192 times,
 * 8 18295, 16 14020, 32 11144, 64 9221; 16 took the scan from 0.39 to 0.36
 * s (docs/scan-model.md), scanning its 16 tags costing nothing seen. */
#define CACHE_WAYS 16u

/* From the key's upper 48 bits only: the low 16 hold the last dump (census.h),
 * which must not move a content's slot. */
static uint64_t slot_of(uint64_t key, uint64_t nslots)
{
	key &= ~0xffffull;
#if defined(__SIZEOF_INT128__)
	return (uint64_t)(((unsigned __int128)key * nslots) >> 64);
#else
	/* The top 32 bits times the count, as above with all 48: a remainder
	 * sees the low bits, and the 16 cleared put every key in one slot of a
	 * power-of-two table (i386: a census of a dump grew quadratic). */
	return nslots <= UINT32_MAX ? ((key >> 32) * nslots) >> 32 : (key >> 16) % nslots;
#endif
}

/* The table is probed at random: huge pages (where the kernel gives them
 * on request) spare a TLB miss on most probes. Zeroed, like calloc. */
static void *table_alloc(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	if (bytes >= (2u << 20))
		madvise(p, bytes, MADV_HUGEPAGE);
#endif
	return p;
}

static void table_free(void *p, uint64_t nslots)
{
	if (p)
		munmap(p, (size_t)nslots * sizeof(struct census_entry));
}

static int alloc_table(struct census *c, uint64_t nslots, struct census_entry **slots, uint32_t **sums,
		       struct kb_err *err)
{
	if (nslots > SIZE_MAX / sizeof(**slots))
		return kb_fail(err, "the census table of %llu slots does not fit in memory",
			       (unsigned long long)nslots);
	int ok = (*slots = table_alloc((size_t)nslots * sizeof(**slots))) != NULL;
	for (unsigned i = 1; ok && i < c->cfg.nsums; i++)
		ok = (sums[i] = malloc((size_t)nslots * sizeof(uint32_t))) != NULL;
	if (ok)
		return 0;
	for (unsigned j = 1; j < c->cfg.nsums; j++)
		free(sums[j]);
	table_free(*slots, nslots);
	return kb_fail(err, "out of memory for a census table of %llu slots", (unsigned long long)nslots);
}

static void note_table_size(struct census *c);

struct census *census_new(const struct census_config *cfg, struct kb_err *err)
{
	struct census *c = calloc(1, sizeof(*c));

	if (!c)
		return kb_fail(err, "out of memory"), NULL;
	c->cfg = *cfg;
	if (cfg->nsums > CENSUS_SUMS_MAX || !cfg->key_fn || cfg->page_size == 0) {
		free(c);
		return kb_fail(err, "bad census configuration"), NULL;
	}
	uint64_t spare = cfg->expected_pages / 2 < SLOTS_SPARE_MAX ? cfg->expected_pages / 2 : SLOTS_SPARE_MAX;
	uint64_t want = cfg->expected_pages + spare;
	c->nslots = want < SLOTS_MIN ? SLOTS_MIN : want;
	c->cache_slots = cfg->cache_bytes / cfg->page_size;
	c->cache_ways = c->cache_slots < CACHE_WAYS ? c->cache_slots : CACHE_WAYS;
	if (c->cache_ways)
		c->cache_slots -= c->cache_slots % c->cache_ways;
	if (alloc_table(c, c->nslots, &c->slots, c->sums, err)) {
		free(c);
		return NULL;
	}
	c->scratch = aligned_alloc(64, cfg->page_size);
	if (c->cache_slots) {
		c->cache_tags = malloc(c->cache_slots * sizeof(uint64_t));
		c->cache_used = calloc(c->cache_slots, sizeof(uint64_t));
		c->cache_data = aligned_alloc(64, c->cache_slots * cfg->page_size);
	}
	if (!c->scratch || (c->cache_slots && (!c->cache_tags || !c->cache_used || !c->cache_data))) {
		census_free(c);
		return kb_fail(err, "out of memory for the census cache"), NULL;
	}
	for (size_t i = 0; i < c->cache_slots; i++)
		c->cache_tags[i] = UINT64_MAX;
	note_table_size(c);
	return c;
}

void census_free(struct census *c)
{
	if (!c)
		return;
	table_free(c->slots, c->nslots);
	for (unsigned i = 1; i < c->cfg.nsums; i++)
		free(c->sums[i]);
	free(c->cache_tags);
	free(c->cache_used);
	free(c->cache_data);
	free(c->scratch);
	if (c->spill)
		fclose(c->spill);
	free(c);
}

const struct census_counts *census_counts(const struct census *c)
{
	return &c->counts;
}

static void note_table_size(struct census *c)
{
	c->counts.table_slots = c->nslots;
	c->counts.table_bytes = c->nslots * (sizeof(struct census_entry) +
					     (c->cfg.nsums > 1 ? 4u * (c->cfg.nsums - 1) : 0));
}

static int grow(struct census *c, struct kb_err *err)
{
	uint64_t nslots = c->nslots * 2;
	struct census_entry *slots;
	uint32_t *sums[CENSUS_SUMS_MAX] = { 0 };

	if (alloc_table(c, nslots, &slots, sums, err))
		return -1;
	for (uint64_t i = 0; i < c->nslots; i++) {
		if (c->slots[i].count == 0)
			continue;
		uint64_t s = slot_of(c->slots[i].key, nslots);
		while (slots[s].count)
			s = s + 1 == nslots ? 0 : s + 1;
		slots[s] = c->slots[i];
		for (unsigned k = 1; k < c->cfg.nsums; k++)
			sums[k][s] = c->sums[k][i];
	}
	table_free(c->slots, c->nslots);
	for (unsigned k = 1; k < c->cfg.nsums; k++) {
		free(c->sums[k]);
		c->sums[k] = sums[k];
	}
	c->slots = slots;
	c->nslots = nslots;
	note_table_size(c);
	return 0;
}

const struct census_entry *census_slots(const struct census *c, uint64_t *nslots)
{
	*nslots = c->nslots;
	return c->slots;
}

/* One more copy of e's content, from dump. */
static int count_copy(struct census *c, struct census_entry *e, unsigned dump, struct kb_err *err)
{
	if (e->count == UINT32_MAX)
		return kb_fail(err, "more than %u copies of one page", UINT32_MAX);
	e->count++;
	if ((e->key & 0xffff) == dump) {
		c->counts.within_dump_duplicates++;
	} else {
		c->counts.across_dump_duplicates++;
		e->key = (e->key & ~0xffffull) | dump;
	}
	return 0;
}

/* A digest key's low 16 bits (where census_add puts the dump): it is
 * there, whether the page is zero, and whether the digest's sum holds the
 * page's first checksum. */
#define DIGEST_PRESENT 1u
#define DIGEST_ZERO 2u
#define DIGEST_SUM 4u

static uint64_t digest_key(const struct census *c, const unsigned char *data)
{
	uint32_t ps = c->cfg.page_size;

	if (census_page_is_zero(data, ps))
		return DIGEST_PRESENT | DIGEST_ZERO;
	return (c->cfg.key_fn(data, ps) & ~0xffffull) | DIGEST_PRESENT;
}

void census_digest(void *ctx, const unsigned char *data, int spare, struct page_digest *out)
{
	const struct census *c = ctx;

	out->key = digest_key(c, data);
	out->sum = 0;
	if (spare && !(out->key & DIGEST_ZERO) && c->cfg.nsums) {
		out->sum = (uint32_t)c->cfg.sum_fns[0](data, c->cfg.page_size);
		out->key |= DIGEST_SUM;
	}
}

void census_prefetch(const struct census *c, uint64_t digest)
{
	if ((digest & (DIGEST_PRESENT | DIGEST_ZERO)) == DIGEST_PRESENT)
		__builtin_prefetch(&c->slots[slot_of(digest, c->nslots)]);
}

int census_add(struct census *c, const unsigned char *data, uint64_t locator, unsigned dump, uint64_t *content,
	       struct kb_err *err)
{
	return census_add_digested(c, data, NULL, locator, dump, content, err);
}

int census_add_digested(struct census *c, const unsigned char *data, const struct page_digest *dg,
			uint64_t locator, unsigned dump, uint64_t *content, struct kb_err *err)
{
	uint32_t ps = c->cfg.page_size;
	uint64_t digest = dg ? dg->key : 0;

	if (dump >= CENSUS_DUMPS_MAX)
		return kb_fail(err, "more than %u dumps in one census", CENSUS_DUMPS_MAX);
	if (!(digest & DIGEST_PRESENT))
		digest = digest_key(c, data);
	c->counts.pages++;
	if (digest & DIGEST_ZERO) {
		c->counts.zero_pages++;
		if (content)
			*content = CENSUS_CONTENT_ZERO;
		return 0;
	}
	uint64_t key = (digest & ~0xffffull) | dump;
	uint64_t s = slot_of(key, c->nslots);
	for (;;) {
		struct census_entry *e = &c->slots[s];
		if (e->count == 0)
			break;
		if ((e->key ^ key) >> 16 == 0) {
			const unsigned char *rep = census_representative(c, e->locator, err);
			if (!rep)
				return -1;
			c->counts.compares++;
			if (memcmp(rep, data, ps) == 0) {
				if (content)
					*content = e->locator;
				return count_copy(c, e, dump, err);
			}
			c->counts.key_collisions++;
		}
		s = s + 1 == c->nslots ? 0 : s + 1;
	}
	if (locator == UINT64_MAX && census_spill_write(c, data, &locator, err))
		return -1;
	if (content)
		*content = locator;
	struct census_entry *e = &c->slots[s];
	e->key = key;
	e->locator = locator;
	e->count = 1;
	e->sum0 = (digest & DIGEST_SUM) ? dg->sum : c->cfg.nsums ? (uint32_t)c->cfg.sum_fns[0](data, ps) : 0;
	for (unsigned k = 1; k < c->cfg.nsums; k++)
		c->sums[k][s] = (uint32_t)c->cfg.sum_fns[k](data, ps);
	c->counts.distinct++;
	if (c->counts.distinct * LOAD_MAX_DEN > c->nslots * LOAD_MAX_NUM)
		return grow(c, err);
	return 0;
}
