/* The page census (see census.h): an open-addressing table with linear
 * probing of 24-byte entries {key, locator, count, first checksum}, a
 * direct-mapped cache of representatives, and a spill file for sources
 * that cannot read a page again. */
#include "census.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "../common/temp_file.h"

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

struct census {
	struct census_config cfg;
	struct census_entry *slots;
	uint32_t *sums[CENSUS_SUMS_MAX]; /* checksums 1.. per slot (0 is in the entry) */
	uint64_t nslots;
	struct census_counts counts;
	/* representative cache: sets of CACHE_WAYS, least recently used out */
	uint64_t *cache_tags, *cache_used;
	unsigned char *cache_data;
	size_t cache_slots, cache_ways;
	uint64_t cache_clock;
	unsigned char *scratch; /* one page */
	FILE *spill;
	uint64_t spill_bytes;
};

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

/* Whether 256 bytes are all zero. SSE2 (every x86-64) where built in:
 * four independent 16-byte ors a line; the one 64-bit or chain GCC makes of
 * the portable loop took 3.5x as long on a page in L1 (450 against 130 TSC
 * cycles, Emerald Rapids), a tenth of the read-ahead thread's time in a
 * scan. */
static int zero_256(const unsigned char *p)
{
#if defined(__SSE2__)
	__m128i a = _mm_setzero_si128(), b = a, c = a, d = a;

	for (size_t j = 0; j < 256; j += 64) {
		a = _mm_or_si128(a, _mm_loadu_si128((const __m128i *)(const void *)(p + j)));
		b = _mm_or_si128(b, _mm_loadu_si128((const __m128i *)(const void *)(p + j + 16)));
		c = _mm_or_si128(c, _mm_loadu_si128((const __m128i *)(const void *)(p + j + 32)));
		d = _mm_or_si128(d, _mm_loadu_si128((const __m128i *)(const void *)(p + j + 48)));
	}
	a = _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d));
	return _mm_movemask_epi8(_mm_cmpeq_epi8(a, _mm_setzero_si128())) == 0xffff;
#else
	uint64_t acc[4] = { 0 }, w;

	for (size_t j = 0; j < 256; j += 8) {
		memcpy(&w, p + j, 8);
		acc[(j >> 3) & 3] |= w;
	}
	return (acc[0] | acc[1] | acc[2] | acc[3]) == 0;
#endif
}

int census_page_is_zero(const unsigned char *data, size_t len)
{
	size_t i = 0;

	/* 256 bytes a step, stopping at the first non-zero step: most
	 * non-zero pages stop in the first one. */
	for (; i + 256 <= len; i += 256)
		if (!zero_256(data + i))
			return 0;
	for (; i < len; i++)
		if (data[i])
			return 0;
	return 1;
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

/* The spill: an unnamed temporary file (common/temp_file.h). */
static FILE *spill_open(void)
{
	char dir[4096];
	int fd = temp_file_unnamed(dir, sizeof(dir));
	FILE *f = fd >= 0 ? fdopen(fd, "w+b") : NULL;

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

static int spill_write(struct census *c, const unsigned char *data, uint64_t *locator, struct kb_err *err)
{
	if (!c->spill && !(c->spill = spill_open()))
		return kb_fail_errno(err, errno, "cannot create a temporary file in $TMPDIR (or /tmp) for pages of "
						 "a compressed or streamed dump");
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
static const unsigned char *representative(struct census *c, uint64_t locator, struct kb_err *err)
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
			const unsigned char *rep = representative(c, e->locator, err);
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
	if (locator == UINT64_MAX && spill_write(c, data, &locator, err))
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

/* A min-heap of the n best entries by count. */
static int entry_less(const struct census_entry *a, const struct census_entry *b)
{
	return a->count != b->count ? a->count < b->count : a->key > b->key;
}

static void sift_down(struct census_entry *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && entry_less(&h[l], &h[m]))
			m = l;
		if (r < n && entry_less(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		struct census_entry t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

size_t census_top(const struct census *c, struct census_entry *out, size_t n)
{
	size_t k = 0;

	if (n == 0)
		return 0;
	for (uint64_t i = 0; i < c->nslots; i++) {
		const struct census_entry *e = &c->slots[i];
		if (e->count == 0)
			continue;
		if (k < n) {
			out[k++] = *e;
			if (k == n)
				for (size_t j = n / 2; j-- > 0;)
					sift_down(out, n, j);
		} else if (entry_less(&out[0], e)) {
			out[0] = *e;
			sift_down(out, n, 0);
		}
	}
	if (k < n)
		for (size_t j = k / 2; j-- > 0;)
			sift_down(out, k, j);
	/* Heap order to descending: pop the smallest to the end. */
	for (size_t m = k; m > 1; m--) {
		struct census_entry t = out[0];
		out[0] = out[m - 1];
		out[m - 1] = t;
		sift_down(out, m - 1, 0);
	}
	return k;
}

/* One content of count copies under max_page_sharing m. */
static void ksm_content(uint64_t count, unsigned m, struct census_ksm *out)
{
	uint64_t ksm_pages, mapped;

	if (count < 2) {
		out->pages_unshared += count;
		return;
	}
	if (m < 2) {
		ksm_pages = 1;
		mapped = count;
	} else {
		/* Full KSM pages of m mappings, then one for the rest if at least
		 * two are left: a single page has nothing to merge with. */
		uint64_t full = count / m, rest = count % m;
		ksm_pages = full + (rest >= 2);
		mapped = full * m + (rest >= 2 ? rest : 0);
	}
	out->pages_shared += ksm_pages;
	out->pages_sharing += mapped - ksm_pages;
	out->pages_unshared += count - mapped;
	/* Past max_page_sharing a stable node becomes a chain of dups. */
	if (ksm_pages > 1) {
		out->stable_node_chains++;
		out->stable_node_dups += ksm_pages;
	}
}

void census_ksm_model(const struct census *c, unsigned max_page_sharing, int use_zero_pages, uint64_t zero_pages,
		      struct census_ksm *out)
{
	memset(out, 0, sizeof(*out));
	for (uint64_t i = 0; i < c->nslots; i++)
		if (c->slots[i].count)
			ksm_content(c->slots[i].count, max_page_sharing, out);
	if (use_zero_pages)
		out->ksm_zero_pages = zero_pages;
	else
		ksm_content(zero_pages, max_page_sharing, out);
	out->pages_saved = out->pages_sharing + out->ksm_zero_pages;
}

double census_expected_pairs(uint64_t n, unsigned bits)
{
	return n < 2 ? 0 : (double)n * (double)(n - 1) / 2.0 / ldexp(1.0, (int)bits);
}

double census_expected_contents(uint64_t n, unsigned bits)
{
	/* 1 - (1 - 2^-bits)^(n-1), without losing the small term. */
	return n < 2 ? 0 : (double)n * -expm1((double)(n - 1) * log1p(-ldexp(1.0, -(int)bits)));
}

/* LSD radix sort of 32-bit values, 8 bits a pass. */
static void radix_sort_u32(uint32_t *v, uint32_t *tmp, size_t n)
{
	for (unsigned shift = 0; shift < 32; shift += 8) {
		size_t count[257] = { 0 };
		for (size_t i = 0; i < n; i++)
			count[(v[i] >> shift & 0xff) + 1]++;
		for (unsigned b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (size_t i = 0; i < n; i++)
			tmp[count[v[i] >> shift & 0xff]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
}

int census_collisions(const struct census *c, unsigned k, struct census_collisions *out, struct kb_err *err)
{
	uint64_t n = c->counts.distinct + (c->counts.zero_pages > 0);
	uint32_t *v, *tmp;

	memset(out, 0, sizeof(*out));
	if (k >= c->cfg.nsums)
		return kb_fail(err, "no checksum %u in the census", k);
	unsigned char *zero = calloc(1, c->cfg.page_size);
	if (!zero)
		return kb_fail(err, "out of memory");
	out->zero_checksum = (uint32_t)c->cfg.sum_fns[k](zero, c->cfg.page_size);
	free(zero);
	v = malloc((n ? n : 1) * sizeof(*v));
	tmp = malloc((n ? n : 1) * sizeof(*tmp));
	if (!v || !tmp) {
		free(v);
		free(tmp);
		return kb_fail(err, "out of memory for %llu checksums", (unsigned long long)n);
	}
	size_t m = 0;
	for (uint64_t i = 0; i < c->nslots; i++) {
		if (c->slots[i].count == 0)
			continue;
		uint32_t s = k == 0 ? c->slots[i].sum0 : c->sums[k][i];
		out->zero_checksum_matches += s == out->zero_checksum;
		v[m++] = s;
	}
	if (c->counts.zero_pages)
		v[m++] = out->zero_checksum;
	radix_sort_u32(v, tmp, m);
	for (size_t i = 0; i < m;) {
		size_t j = i + 1;
		while (j < m && v[j] == v[i])
			j++;
		uint64_t run = j - i;
		if (run > 1) {
			out->colliding_pairs += run * (run - 1) / 2;
			out->colliding_contents += run;
		}
		i = j;
	}
	free(v);
	free(tmp);
	out->contents = m;
	out->expected_pairs = census_expected_pairs(m, 32);
	out->expected_contents = census_expected_contents(m, 32);
	return 0;
}
