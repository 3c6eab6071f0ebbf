/* The kernel's rules and the captures' page words (see ksm_model.h). */
#include "ksm_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "../common/grow.h"
#include "../common/kernel_release.h"
#include "../common/kernel_timer.h"
#include "../common/quote.h"
#include "../datasets/capture_note.h"
#include "../hashes/impls.h"

/* KSM's sysfs counters that came after KSM itself (2.6.32). */
static const struct {
	const char *name, *since;
} later_counters[] = {
	{ "stable_node_chains", "4.13" }, /* with max_page_sharing */
	{ "stable_node_dups", "4.13" },
	{ "general_profit", "6.4" },
	{ "ksm_zero_pages", "6.6" }, /* and general_profit counts them from then on */
};

const char *ksm_counter_missing(const struct ksm_rules *r, const char *name)
{
	for (unsigned i = 0; i < sizeof(later_counters) / sizeof(later_counters[0]); i++)
		if (strcmp(later_counters[i].name, name) == 0)
			return r->missing & 1u << i ? later_counters[i].since : NULL;
	return NULL;
}

/* The running kernel's word size: uname's machine (a 32-bit ksmbench on a
 * 64-bit kernel reads the kernel's), else this build's. */
static void bits_running(struct ksm_rules *r)
{
	struct utsname u;
	unsigned bits = uname(&u) == 0 ? ksm_machine_bits(u.machine) : 0;

	ksm_rules_set_bits(r, bits ? bits : KSM_BUILD_BITS, bits ? "this machine" : "this ksmbench");
}

int ksm_rules_for(const char *release, const char *source, struct ksm_rules *r, struct kb_err *err)
{
	struct kernel_release parsed;
	const struct kernel_release *v = NULL; /* the newest kernel (kernel_release_at_least) */
	char q[KB_QUOTE_SIZE];

	memset(r, 0, sizeof(*r));
	r->source = "assumed (the newest rules)";
	if (release && *release) {
		/* Before a release goes into a report: printed as it is there, a
		 * control character in KSMBENCH_KERNEL_RELEASE reached the
		 * terminal, and a newline broke list's and thread's lines. */
		if (!kernel_release_plausible(release))
			return kb_fail(err, "kernel release '%s' is not one uname could show (at most %d printable "
					    "ASCII characters, no space)", kb_quote(release, q), KERNEL_RELEASE_MAX);
		if (kernel_release_parse(release, &parsed))
			return kb_fail(err, "kernel release '%s' does not start with MAJOR.MINOR (numbers of up to 6 "
					    "digits)", kb_quote(release, q));
		if (!kernel_release_at_least(&parsed, "2.6.32"))
			return kb_fail(err, "kernel release '%s' has no KSM (it came in 2.6.32)", kb_quote(release, q));
		snprintf(r->release, sizeof(r->release), "%s", release);
		r->source = source;
		v = &parsed;
	}
	r->thp_split_zero_remap = kernel_release_at_least(v, "6.12");
	r->max_page_sharing = kernel_release_at_least(v, "4.13");
	r->use_zero_pages = kernel_release_at_least(v, "4.11");
	r->smart_scan = kernel_release_at_least(v, "6.7");
	r->timer_wheel_rounds_up = kernel_release_at_least(v, KERNEL_TIMER_WHEEL_ROUNDS_UP_SINCE);
	r->zero_sleep_skips = kernel_release_at_least(v, KERNEL_KSMD_ZERO_SLEEP_SKIPS_SINCE);
	for (unsigned i = 0; i < sizeof(later_counters) / sizeof(later_counters[0]); i++)
		if (!kernel_release_at_least(v, later_counters[i].since))
			r->missing |= 1u << i;
	/* ksm: replace jhash2 with xxhash, merged for 5.0; jhash.h's jhash2
	 * was lookup2 before 2.6.38. */
	if (kernel_release_at_least(v, "5.0"))
		r->checksum = &hash_xxhash;
	else if (!kernel_release_at_least(v, "2.6.38"))
		r->checksum = &hash_jhash2_lookup2;
	else
		r->checksum = &hash_jhash2;
	bits_running(r);
	return 0;
}

void ksm_rules_set_bits(struct ksm_rules *r, unsigned bits, const char *from)
{
	r->kernel_bits = bits;
	r->bits_from = from;
	if (hash_resolve(r->checksum) == &hash_xxh64 || hash_resolve(r->checksum) == &hash_xxh32)
		r->checksum = bits == KSM_BUILD_BITS ? &hash_xxhash : bits == 32 ? &hash_xxh32 : &hash_xxh64;
}

unsigned ksm_machine_bits(const char *machine)
{
	if (!machine || !*machine)
		return 0;
	/* 64-bit machines say so in their name, but for two old ones. */
	return strstr(machine, "64") || strcmp(machine, "s390x") == 0 || strcmp(machine, "alpha") == 0 ? 64 : 32;
}

unsigned ksm_rmap_item_bytes(const struct ksm_rules *r)
{
	/* Five words (rmap_list, anon_vma/nid, mm, address, oldchecksum's
	 * unsigned int and, since 6.7, age and remaining_skips padded to a
	 * word) and an rb_node of three: 64 bytes either way on 64-bit. */
	if (r->kernel_bits == 64)
		return 64;
	return r->smart_scan ? 36 : 32;
}

const struct hash_impl *ksm_checksum_in(const char *release)
{
	struct ksm_rules r;
	struct kb_err err;

	return release && ksm_rules_for(release, "", &r, &err) == 0 ? r.checksum : &hash_xxhash;
}

const struct hash_impl *ksm_checksum_running(void)
{
	char buf[128];

	return ksm_checksum_in(kernel_release_running(buf, sizeof(buf)));
}

/* A record's zero subpage that leaves KSM's view (a split THP's, 6.12+):
 * set by vanishing_zero_subpages for one ksm_model_apply, in a bit of the
 * word no page word uses (ksm_model_add clears it). */
#define REC_VANISHED (1ull << 63)

void ksm_model_next_dump(struct ksm_model *m)
{
	m->last_word = 0;
}

/* The folio of the page with this word (0: not in a THP), every page of a
 * dump in turn, volatile ones too: a THP is a run of consecutive PFNs from
 * its head page, whichever of its pages are recorded. */
static uint32_t folio_of(struct ksm_model *m, uint64_t word)
{
	uint32_t folio = 0;

	if (word & KB_PAGE_THP) {
		uint64_t pfn = word & KB_PAGE_PFN_MASK, last = m->last_word & KB_PAGE_PFN_MASK;
		int continues = (m->last_word & KB_PAGE_THP) && !(word & KB_PAGE_THP_HEAD) && pfn == last + 1;
		folio = continues ? m->last_folio : ++m->folios;
	}
	m->last_word = word;
	m->last_folio = folio;
	return folio;
}

void ksm_model_add_volatile(struct ksm_model *m, uint64_t word)
{
	folio_of(m, word);
	m->pages_volatile++;
}

int ksm_model_add(struct ksm_model *m, uint64_t content, uint64_t word, struct kb_err *err)
{
	uint32_t folio = folio_of(m, word);

	struct ksm_page_rec *recs = kb_grow(m->recs, &m->cap, m->n + 1, sizeof(*recs), 4096);
	if (!recs)
		return kb_fail(err, "out of memory for the page words of %zu captured pages", m->n + 1);
	m->recs = recs;
	m->recs[m->n++] = (struct ksm_page_rec){ content, word & ~REC_VANISHED, folio, 0 };
	return 0;
}

struct ksm_steady_scan ksm_steady_scan(const struct census_ksm *k, int smart_scan)
{
	double unmerged = (double)(k->pages_unshared + k->pages_volatile);
	struct ksm_steady_scan s;

	s.checksummed = unmerged / (smart_scan ? KSM_SMART_SCAN_VISIT_EVERY : 1);
	s.visited = (double)(k->pages_shared + k->pages_sharing) + s.checksummed;
	s.skipped = unmerged - s.checksummed;
	return s;
}

void ksm_model_free(struct ksm_model *m)
{
	free(m->recs);
	memset(m, 0, sizeof(*m));
}

static int by_content_pfn(const void *a, const void *b)
{
	const struct ksm_page_rec *x = a, *y = b;
	uint64_t px = x->word & KB_PAGE_PFN_MASK, py = y->word & KB_PAGE_PFN_MASK;

	if (x->content != y->content)
		return x->content < y->content ? -1 : 1;
	return px < py ? -1 : px > py;
}

static int by_folio(const void *a, const void *b)
{
	const struct ksm_page_rec *x = a, *y = b;

	return x->folio < y->folio ? -1 : x->folio > y->folio;
}

/* Each record's content count, from the census (records sorted by content). */
static void fill_counts(struct ksm_model *m, const struct census *c)
{
	uint64_t nslots;
	const struct census_entry *slots = census_slots(c, &nslots);
	uint32_t zeros = census_counts(c)->zero_pages > UINT32_MAX ? UINT32_MAX : (uint32_t)census_counts(c)->zero_pages;

	for (uint64_t i = 0; i < nslots; i++) {
		if (!slots[i].count)
			continue;
		size_t lo = 0, hi = m->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (m->recs[mid].content < slots[i].locator)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < m->n && m->recs[lo].content == slots[i].locator; lo++)
			m->recs[lo].count = slots[i].count;
	}
	for (size_t i = 0; i < m->n; i++)
		if (m->recs[i].content == CENSUS_CONTENT_ZERO)
			m->recs[i].count = zeros;
}

/* Zero subpages of THPs that KSM splits: a THP is split when any subpage
 * is merged (a content of two copies or more, or a zero page with
 * use_zero_pages). Records sorted by folio; those zero subpages are marked
 * REC_VANISHED. */
static uint64_t vanishing_zero_subpages(struct ksm_model *m, int use_zero_pages)
{
	uint64_t vanished = 0;

	for (size_t i = 0; i < m->n;) {
		size_t j = i;
		int split = 0;
		for (; j < m->n && m->recs[j].folio == m->recs[i].folio; j++)
			split |= m->recs[j].count >= 2 || (m->recs[j].content == CENSUS_CONTENT_ZERO && use_zero_pages);
		if (m->recs[i].folio && split)
			for (size_t k = i; k < j; k++)
				if (m->recs[k].content == CENSUS_CONTENT_ZERO) {
					m->recs[k].word |= REC_VANISHED;
					vanished++;
				}
		i = j;
	}
	return vanished;
}

/* Merged mappings of a content that share a PFN with another of them
 * (records sorted by content and PFN; PFN 0: unknown, never shared). The
 * zero subpages that left KSM's view are no mappings of it (counted
 * nowhere, as in the kernel), and the zero pages left are merged with
 * use_zero_pages, else when at least two are left (zeros_left). */
static uint64_t already_shared(const struct ksm_model *m, int use_zero_pages, uint64_t zeros_left)
{
	const struct ksm_page_rec *a = NULL;
	uint64_t shared = 0;

	for (size_t i = 0; i < m->n; i++) {
		const struct ksm_page_rec *b = &m->recs[i];
		if (b->word & REC_VANISHED)
			continue;
		uint64_t pfn = b->word & KB_PAGE_PFN_MASK;
		int zero = b->content == CENSUS_CONTENT_ZERO;
		int merged = zero ? use_zero_pages || zeros_left >= 2 : b->count >= 2;
		if (a && merged && pfn && a->content == b->content && (a->word & KB_PAGE_PFN_MASK) == pfn)
			shared++;
		a = b;
	}
	return shared;
}

void ksm_model_apply(struct ksm_model *m, const struct census *c, const struct ksm_rules *rules,
		     unsigned max_page_sharing, int use_zero_pages, uint32_t page_size, struct census_ksm *out)
{
	uint64_t vanished = 0, shared = 0, zeros = census_counts(c)->zero_pages;

	if (m->n) {
		qsort(m->recs, m->n, sizeof(*m->recs), by_content_pfn);
		fill_counts(m, c);
		for (size_t i = 0; i < m->n; i++)
			m->recs[i].word &= ~REC_VANISHED; /* an earlier apply's, at the other use_zero_pages */
		if (rules->thp_split_zero_remap) {
			qsort(m->recs, m->n, sizeof(*m->recs), by_folio);
			vanished = vanishing_zero_subpages(m, use_zero_pages);
			/* Their mappings gone, they are not already shared either
			 * (a fork-shared THP's zero subpages were until 2026-12-08). */
			qsort(m->recs, m->n, sizeof(*m->recs), by_content_pfn);
		}
		shared = already_shared(m, use_zero_pages, zeros - vanished);
	}
	census_ksm_model(c, max_page_sharing, use_zero_pages, zeros - vanished, out);
	out->thp_zero_subpages = vanished;
	out->pages_volatile = m->pages_volatile;
	out->rmap_items = out->pages_shared + out->pages_sharing + out->pages_unshared + out->pages_volatile;
	/* general_profit counts ksm_zero_pages where they are counted at all */
	out->general_profit_bytes =
		(int64_t)((out->pages_sharing + (ksm_counter_missing(rules, "ksm_zero_pages") ? 0 : out->ksm_zero_pages)) *
			  page_size) -
		(int64_t)(out->rmap_items * ksm_rmap_item_bytes(rules));
	out->pages_already_shared = shared < out->pages_saved ? shared : out->pages_saved;
	out->pages_really_saved = out->pages_saved - out->pages_already_shared;
}

double ksm_scan_batches(double visited, unsigned pages_to_scan)
{
	return floor(visited / pages_to_scan) + 1;
}
