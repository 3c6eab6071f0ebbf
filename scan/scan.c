/* The scan (see scan.h): the census pass over every dump with a reservoir
 * sample of its pages, the KSM model, collisions, the most duplicated
 * contents, then the cold timing of the sample. */
#include "scan.h"
#include "scan_top.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../bench/clock.h"
#include "../bench/pin.h"
#include "../common/arith.h"
#include "../common/kernel_timer.h"
#include "../common/prng.h"
#include "../datasets/capture_note.h"
#include "../datasets/file_input.h"
#include "../datasets/page_set.h"

/* Caller locators: the dump's index above the page's file offset. */
#define LOC_SHIFT 48
#define LOC_OFFSET_MASK ((1ull << LOC_SHIFT) - 1)
#define PROGRESS_PAGES 4096u

struct scan_state {
	struct page_source **srcs;
	size_t nsrcs;
	unsigned char *sample;
	size_t sample_cap, sample_len;
	uint64_t sample_seen, prng;
	struct ksm_model model;
	int zeros_seen; /* an earlier dump had zero pages */
};

static int scan_fetch(void *ctx, uint64_t locator, void *buf, struct kb_err *err)
{
	struct scan_state *st = ctx;
	size_t i = (size_t)(locator >> LOC_SHIFT);

	if (i >= st->nsrcs)
		return kb_fail(err, "bad page locator %#llx", (unsigned long long)locator);
	return page_source_fetch(st->srcs[i], locator & LOC_OFFSET_MASK, buf, err);
}

struct ksmd_schedule scan_schedule(const struct scan_result *r)
{
	return (struct ksmd_schedule){ r->pages_to_scan, r->sleep_ms, r->hz, r->rules.timer_wheel_rounds_up,
				       r->rules.zero_sleep_skips };
}

/* A full scan of visited pages, work_ns of checksums spread evenly over
 * its batches. */
static double scan_seconds(const struct ksmd_schedule *k, double visited, double work_ns)
{
	double batches = ksm_scan_batches(visited, k->pages_to_scan);

	return batches * ksmd_batch_period_ns(k, work_ns / batches) / 1e9;
}

/* Algorithm R: every page has the same chance to be in the sample. */
static void sample_page(struct scan_state *st, const unsigned char *data, uint32_t ps)
{
	uint64_t t = st->sample_seen++;

	if (st->sample_cap == 0)
		return;
	if (st->sample_len < st->sample_cap) {
		memcpy(st->sample + st->sample_len++ * ps, data, ps);
		return;
	}
	uint64_t j = prng_below(&st->prng, t + 1);
	if (j < st->sample_cap)
		memcpy(st->sample + j * ps, data, ps);
}

static uint64_t expected_pages(const struct scan_options *o, uint64_t *total_bytes)
{
	uint64_t pages = 0;
	struct stat sb;

	*total_bytes = 0;
	for (size_t i = 0; i < o->npaths; i++)
		if (stat(o->paths[i], &sb) == 0 && S_ISREG(sb.st_mode)) {
			pages += (uint64_t)sb.st_size / o->page_size;
			*total_bytes += (uint64_t)sb.st_size;
		}
	return pages;
}

/* What a capture's notes say of dump d, before its pass. */
static void note_dump(struct scan_dump *d, const struct page_source *src)
{
	const struct capture_note *n = src->note;

	if (!n)
		return;
	d->captured = 1;
	d->page_words = n->entries != NULL;
	d->words_page_size = n->has_pages ? n->page_size : 0;
	d->pfn_known = n->has_pages && (n->flags & KB_PAGES_PFN_KNOWN);
	d->two_snapshots = n->has_pages && (n->flags & KB_PAGES_INTERVAL);
	d->mergeable_known = d->page_words && (n->flags & KB_PAGES_MERGEABLE_KNOWN);
	d->zero_page_mapped = n->zero_page_mapped;
	d->interval_ns = n->interval_ns;
	d->system = n->system;
}

/* One page: volatile ones are only counted; the others go to the census,
 * and with page words to the kernel model too. */
static int add_page(struct scan_state *st, struct census *c, struct scan_dump *d, unsigned dump,
		    const struct page *pg, uint64_t loc, struct kb_err *err)
{
	uint64_t content;

	if (d->two_snapshots && (pg->info & KB_PAGE_VOLATILE)) {
		d->pages_volatile++;
		ksm_model_add_volatile(&st->model, d->page_words ? pg->info : 0);
		return 0;
	}
	census_prefetch(c, pg->digest_ahead); /* 0: none known, no hint */
	if (census_add_digested(c, pg->data, &pg->digest, loc, dump, &content, err))
		return -1;
	d->zero_pages += content == CENSUS_CONTENT_ZERO;
	return d->page_words ? ksm_model_add(&st->model, content, pg->info, err) : 0;
}

/* A dump's share of the surplus copies, from the census's counters before
 * (w0, a0) and after its pass; its zero pages as one more content. */
static void dump_sharing(struct scan_state *st, struct scan_dump *d, const struct census *c, uint64_t w0, uint64_t a0)
{
	d->within_dump_duplicates = census_counts(c)->within_dump_duplicates - w0 + (d->zero_pages ? d->zero_pages - 1 : 0);
	d->across_dump_duplicates = census_counts(c)->across_dump_duplicates - a0 + (d->zero_pages && st->zeros_seen);
	st->zeros_seen |= d->zero_pages > 0;
}

static void add_stats(struct page_stats *t, const struct page_stats *s)
{
	t->pages += s->pages;
	t->holes += s->holes;
	t->excluded += s->excluded;
	t->partial_pages += s->partial_pages;
	t->partial_bytes += s->partial_bytes;
	t->overlap += s->overlap;
}

static int census_pass(const struct scan_options *o, struct scan_state *st, struct census *c,
		       struct scan_result *r, struct kb_err *err)
{
	uint64_t total_bytes, since_progress = 0, pages_read = 0;
	uint64_t t0 = clock_now_ns();
	struct page pg;

	expected_pages(o, &total_bytes);
	for (size_t i = 0; i < o->npaths; i++) {
		struct page_source *src = dump_source_open(o->paths[i], o->page_size, &o->dump, err);
		struct scan_dump *d = &r->dumps[i];
		if (!src)
			return -1;
		st->srcs[st->nsrcs++] = src;
		page_source_set_digest(src, census_digest, c);
		d->path = o->paths[i];
		d->format = src->format;
		d->fetchable = page_source_can_fetch(src);
		/* Pages not at file offsets (gzip, kdump's compressed pages, a
		 * pipe): the files' sizes no longer bound the bytes read. */
		if (!d->fetchable)
			total_bytes = 0;
		note_dump(d, src);
		ksm_model_next_dump(&st->model);
		r->ndumps = i + 1;
		uint64_t w0 = census_counts(c)->within_dump_duplicates, a0 = census_counts(c)->across_dump_duplicates;
		int rc;
		while ((rc = page_source_next(src, &pg, err)) == 1) {
			uint64_t loc = pg.locator == PAGE_LOCATOR_NONE || pg.locator > LOC_OFFSET_MASK
					       ? PAGE_LOCATOR_NONE
					       : (uint64_t)i << LOC_SHIFT | pg.locator;
			d->pages_mergeable += d->mergeable_known && (pg.info & KB_PAGE_MERGEABLE);
			/* --mergeable: what KSM is not offered is left out of everything. */
			if (scan_left_out(r->mergeable_only, d, pg.info)) {
				d->pages_left_out++;
			} else {
				if (add_page(st, c, d, (unsigned)i, &pg, loc, err))
					return -1;
				sample_page(st, pg.data, o->page_size);
			}
			pages_read++; /* volatile and left-out pages too, which the census does not count */
			if (o->on_progress && ++since_progress == PROGRESS_PAGES) {
				since_progress = 0;
				o->on_progress(o->progress_ctx, pages_read * o->page_size, total_bytes);
			}
		}
		if (rc < 0)
			return -1;
		d->stats = src->stats;
		add_stats(&r->total, &src->stats);
		dump_sharing(st, d, c, w0, a0);
		r->within_dump_duplicates += d->within_dump_duplicates;
		r->across_dump_duplicates += d->across_dump_duplicates;
		r->pages_volatile += d->pages_volatile;
		r->zero_page_mapped += d->zero_page_mapped;
		r->pages_left_out += d->pages_left_out;
	}
	r->census_ns = clock_now_ns() - t0;
	return 0;
}

static int single_byte(const unsigned char *p, size_t len)
{
	for (size_t i = 1; i < len; i++)
		if (p[i] != p[0])
			return 0;
	return 1;
}

/* The most duplicated contents, their bytes kept in *pages for the second
 * pass that locates them (scan_top_locate). */
static int top_contents(const struct scan_options *o, struct census *c, struct scan_result *r, unsigned char **pages,
			struct kb_err *err)
{
	size_t n = o->top;
	struct census_entry *best = calloc(n + 1, sizeof(*best));
	unsigned char *buf;

	r->top_requested = o->top;
	r->top = calloc(n + 1, sizeof(*r->top));
	*pages = calloc(n + 1, o->page_size);
	if (!best || !r->top || !*pages) {
		free(best);
		return kb_fail(err, "out of memory");
	}
	size_t k = census_top(c, best, n), out = 0, zero_done = 0;
	uint64_t zeros = census_counts(c)->zero_pages;
	/* A content of one copy is not duplicated (the zero content is kept:
	 * with use_zero_pages one zero page is merged too). */
	while (k > 0 && best[k - 1].count < 2)
		k--;
	for (size_t i = 0; i <= k && out < n; i++) {
		if (!zero_done && zeros && (i == k || zeros >= best[i].count)) {
			struct scan_top *t = &r->top[out++];
			t->is_zero = t->single_byte = 1;
			t->entry.count = zeros > UINT32_MAX ? UINT32_MAX : (uint32_t)zeros;
			zero_done = 1;
		}
		if (i == k || out == n)
			break;
		struct scan_top *t = &r->top[out];
		buf = *pages + out++ * o->page_size;
		t->entry = best[i];
		if (census_read(c, &best[i], buf, err)) {
			free(best);
			return -1;
		}
		t->single_byte = single_byte(buf, o->page_size);
		t->byte_value = buf[0];
	}
	r->ntop = out;
	free(best);
	return 0;
}

static int time_sample(const struct scan_options *o, struct scan_state *st, struct scan_result *r,
		       struct kb_err *err)
{
	struct page_content content = { .bytes = st->sample, .pages = st->sample_len, .page_size = o->page_size };
	struct page_set set;
	uint64_t ws = o->working_set_bytes ? o->working_set_bytes : page_set_cold_default_bytes(o->llc_bytes);

	snprintf(content.data, sizeof(content.data), "scan-sample");
	if (o->pin_cpu >= 0 && pin_to_cpu(o->pin_cpu, err))
		return -1;
	if (page_set_cold(&set, &content, ws, 0, o->seed, err))
		return -1;
	r->sample_pages = st->sample_len;
	r->working_set_bytes = set.working_set_bytes;
	struct ksm_steady_scan once_merged = ksm_steady_scan(&r->ksm[r->cost_use_zero_pages], r->smart_scan);
	double steady = once_merged.visited > 0 ? once_merged.checksummed / once_merged.visited : 0;
	struct ksmd_schedule k = scan_schedule(r);
	for (unsigned i = 0; i < r->nhashes; i++) {
		struct scan_hash *h = &r->hashes[i];
		if (bench_measure(h->hash, &set, &o->bench, &h->bench, err)) {
			page_set_release(&set);
			return -1;
		}
		h->timed = 1;
		h->ns_per_page_median = bench_ticks_ns(&h->bench.counter, h->bench.rdtsc.ticks_per_call_median);
		h->ns_per_page_p90 = bench_ticks_ns(&h->bench.counter, h->bench.rdtsc.ticks_per_call_p90);
		double c = h->ns_per_page_median;
		uint64_t pages = r->total.pages - r->pages_left_out; /* every page ksmd visits */
		h->full_scan_checksum_ms = (double)pages * c / 1e6;
		h->steady_scan_checksum_ms = once_merged.checksummed * c / 1e6;
		h->ksmd_checksum_cpu_share = ksmd_cpu_share(&k, c, 1.0);
		h->ksmd_steady_checksum_cpu_share = ksmd_cpu_share(&k, c, steady);
		h->full_scan_seconds = scan_seconds(&k, (double)pages, (double)pages * c);
		h->steady_full_scan_seconds = scan_seconds(&k, once_merged.visited, once_merged.checksummed * c);
	}
	page_set_release(&set);
	return 0;
}

/* Options the rules' release does not have: an error. */
static int option_conflicts(const struct scan_options *o, const struct ksm_rules *rules, struct kb_err *err)
{
	if ((o->given & SCAN_GIVEN_SMART_SCAN) && o->smart_scan && !rules->smart_scan)
		return kb_fail(err, "--smart-scan 1: kernel %s has no smart_scan (it came in 6.7)", rules->release);
	if ((o->given & SCAN_GIVEN_MAX_PAGE_SHARING) && o->max_page_sharing && !rules->max_page_sharing)
		return kb_fail(err, "--max-page-sharing %u: kernel %s has no max_page_sharing (it came in 4.13)",
			       o->max_page_sharing, rules->release);
	return 0;
}

/* The rules of the kernel of capture c (NULL: none; a release given: those,
 * already in *rules) with its word size: given, else the capture's machine,
 * else this machine's kernel's (ksm_rules_for's). */
static int capture_rules(const struct scan_options *o, const struct capture_system *c, struct ksm_rules *rules,
			 struct kb_err *err)
{
	if (!o->kernel_release && ksm_rules_for(c ? c->kernel_release : NULL, "capture", rules, err))
		return -1;
	if (o->given & SCAN_GIVEN_KERNEL_BITS)
		ksm_rules_set_bits(rules, o->kernel_bits, "option");
	else if (c && ksm_machine_bits(c->machine))
		ksm_rules_set_bits(rules, ksm_machine_bits(c->machine), "capture");
	return 0;
}

/* Before the pass, the default checksum: that of the kernel of the first
 * capture whose note names it (its release unless one is given, its word
 * size unless given), as model_settings will find it, looking only as far
 * as the dumps can be read twice. given: the rules of a given release
 * (scan_run set them before the pass). */
static int default_checksum(const struct scan_options *o, const struct ksm_rules *given, const struct hash_impl **h,
			    struct kb_err *err)
{
	struct ksm_rules rules = *given;

	for (size_t i = 0; i < o->npaths; i++) {
		struct stat st;
		if (strcmp(o->paths[i], "-") == 0 || !file_input_rereadable(o->paths[i], &st))
			return 0;
		struct page_source *src = dump_source_open(o->paths[i], o->page_size, &o->dump, err);
		if (!src)
			return -1;
		struct capture_system c;
		int named = src->note && src->note->system.kernel_release[0];
		if (named)
			c = src->note->system;
		page_source_close(src);
		if (named) {
			if (capture_rules(o, &c, &rules, err))
				return -1;
			*h = rules.checksum;
			return 0;
		}
	}
	return 0;
}

/* The value of setting key of capture c (dump d) to model, -1 where the
 * note does not record it; one the kernel never shows is an error naming
 * it, and the option that replaces it where there is one: a corrupt or
 * forged note is not modelled at a default without a word (as a release
 * that is none is an error, not the newest rules). */
static int capture_setting(const struct scan_dump *d, const struct capture_setting *s, const char *key,
			   const char *option, long long *v, struct kb_err *err)
{
	*v = s->value;
	if (s->value != CAPTURE_SETTING_ODD)
		return 0;
	struct capture_setting_range range = capture_setting_range(key);
	return kb_fail(err, "%s: its capture note gives %s=%s, which no kernel shows (a whole number from %lld to "
			    "%lld)%s%s%s", d->path, key, s->text, range.min, range.max, option ? ": " : "",
		       option ? option : "", option ? " N models another" : "");
}

/* The settings and rules modelled: given, else the first capture's. */
static int model_settings(const struct scan_options *o, struct scan_result *r, struct kb_err *err)
{
	const struct capture_system *c = NULL;
	const struct scan_dump *d = NULL;
	long long mps = -1, pts = -1, sleep = -1, hz = -1, uzp = -1, smart = -1;

	for (size_t i = 0; i < r->ndumps && !c; i++)
		if (r->dumps[i].captured && r->dumps[i].system.kernel_release[0]) {
			d = &r->dumps[i];
			c = &d->system;
		}
	if (c && ((!(o->given & SCAN_GIVEN_MAX_PAGE_SHARING) &&
		   capture_setting(d, &c->max_page_sharing, "ksm.max_page_sharing", "--max-page-sharing", &mps, err)) ||
		  (!(o->given & SCAN_GIVEN_PAGES_TO_SCAN) &&
		   capture_setting(d, &c->pages_to_scan, "ksm.pages_to_scan", "--pages-to-scan", &pts, err)) ||
		  (!(o->given & SCAN_GIVEN_SLEEP_MS) &&
		   capture_setting(d, &c->sleep_millisecs, "ksm.sleep_millisecs", "--sleep-ms", &sleep, err)) ||
		  (!(o->given & SCAN_GIVEN_HZ) && capture_setting(d, &c->hz, "hz", "--hz", &hz, err)) ||
		  capture_setting(d, &c->use_zero_pages, "ksm.use_zero_pages", NULL, &uzp, err)))
		return -1;
	/* In range when recorded (capture_note.c): 2 up for max_page_sharing,
	 * as the kernel refuses less. */
	if (mps >= 2)
		r->max_page_sharing = (unsigned)mps;
	if (pts > 0)
		r->pages_to_scan = (unsigned)pts;
	r->capture_pages_to_scan_zero = pts == 0;
	r->capture_pages_to_scan_advised = pts > 0 && c->advisor_scan_time;
	if (sleep >= 0)
		r->sleep_ms = (unsigned)sleep;
	if (hz > 0) {
		r->hz = (unsigned)hz;
		r->hz_from = "capture";
	}
	/* A given release's rules were set (and its conflicts said) before the pass. */
	if (capture_rules(o, c, &r->rules, err) || (!o->kernel_release && option_conflicts(o, &r->rules, err)))
		return -1;
	if (!r->rules.max_page_sharing)
		r->max_page_sharing = 0; /* no limit */
	/* Zero pages merged with the zero page are not visited again. */
	r->cost_use_zero_pages = r->rules.use_zero_pages && uzp == 1;
	if (c && r->rules.smart_scan && !(o->given & SCAN_GIVEN_SMART_SCAN) &&
	    capture_setting(d, &c->smart_scan, "ksm.smart_scan", "--smart-scan", &smart, err))
		return -1;
	r->smart_scan = !r->rules.smart_scan			? 0
			: (o->given & SCAN_GIVEN_SMART_SCAN)	? o->smart_scan
			: smart >= 0				? smart != 0
								: 1;
	return 0;
}

int scan_run(const struct scan_options *o, struct scan_result *r, struct kb_err *err)
{
	struct scan_state st = { .prng = o->seed ^ 0x243f6a8885a308d3ull };
	struct census_config cfg = { .page_size = o->page_size, .cache_bytes = SCAN_CACHE_BYTES,
				     .fetch = scan_fetch, .fetch_ctx = &st };
	struct census *c = NULL;
	unsigned char *top_pages = NULL;
	uint64_t total_bytes;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	r->pages_to_scan = o->pages_to_scan;
	r->sleep_ms = o->sleep_ms;
	r->hz = o->given & SCAN_GIVEN_HZ ? o->hz : KERNEL_HZ_DEFAULT;
	r->hz_from = o->given & SCAN_GIVEN_HZ ? "option" : "default";
	r->max_page_sharing = o->max_page_sharing;
	r->page_size = o->page_size;
	if (o->npaths == 0 || o->npaths > SCAN_DUMPS_MAX)
		return kb_fail(err, "give 1 to %u dumps", SCAN_DUMPS_MAX);
	if (o->nhashes == 0 || o->nhashes > CENSUS_SUMS_MAX)
		return kb_fail(err, "give 1 to %u hashes", CENSUS_SUMS_MAX);
	if (o->pages_to_scan == 0)
		return kb_fail(err, "pages_to_scan must be at least 1");
	/* A release given: its conflicts before the dumps are read, not after. */
	if (o->kernel_release &&
	    (ksm_rules_for(o->kernel_release, "option", &r->rules, err) || option_conflicts(o, &r->rules, err)))
		return -1;
	const struct hash_impl *key = hash_select("xxh3", err);
	if (!key)
		return -1;
	cfg.key_fn = hash_resolve(key)->fn;
	r->hashes = calloc(o->nhashes, sizeof(*r->hashes));
	if (!r->hashes)
		return kb_fail(err, "out of memory");
	r->nhashes = o->nhashes;
	for (unsigned i = 0; i < o->nhashes; i++)
		r->hashes[i].hash = o->hashes[i];
	if (o->default_checksum && default_checksum(o, &r->rules, &r->hashes[0].hash, err)) {
		scan_result_free(r);
		return -1;
	}
	for (unsigned i = 0; i < o->nhashes; i++) {
		if (hash_check_len(r->hashes[i].hash, o->page_size, err)) {
			scan_result_free(r);
			return -1;
		}
		cfg.sum_fns[i] = hash_resolve(r->hashes[i].hash)->fn;
	}
	cfg.nsums = o->nhashes;
	cfg.expected_pages = expected_pages(o, &total_bytes);

	st.srcs = calloc(o->npaths, sizeof(*st.srcs));
	r->dumps = calloc(o->npaths, sizeof(*r->dumps));
	st.sample_cap = o->sample_pages;
	r->mergeable_only = o->mergeable_only;
	r->default_checksum = o->default_checksum;
	if (st.sample_cap > SCAN_SAMPLE_BYTES_MAX / o->page_size)
		st.sample_cap = SCAN_SAMPLE_BYTES_MAX / o->page_size ? SCAN_SAMPLE_BYTES_MAX / o->page_size : 1;
	if (st.sample_cap)
		st.sample = malloc(st.sample_cap * o->page_size);
	if (!st.srcs || !r->dumps || (st.sample_cap && !st.sample)) {
		kb_fail(err, "out of memory");
		goto out;
	}
	if (!(c = census_new(&cfg, err)) || census_pass(o, &st, c, r, err))
		goto out;
	r->counts = *census_counts(c);
	r->bytes_scanned = r->total.pages * o->page_size;
	if (model_settings(o, r, err))
		goto out;
	ksm_model_apply(&st.model, c, &r->rules, r->max_page_sharing, 0, o->page_size, &r->ksm[0]);
	ksm_model_apply(&st.model, c, &r->rules, r->max_page_sharing, 1, o->page_size, &r->ksm[1]);
	ksm_model_free(&st.model);
	struct census_ksm plain;
	/* no limit, zero pages apart: the duplicates themselves */
	census_ksm_model(c, 0, 1, census_counts(c)->zero_pages, &plain);
	r->duplicated_contents = plain.pages_shared;
	r->duplicate_pages = plain.pages_sharing;
	for (unsigned i = 0; i < o->nhashes; i++)
		if (census_collisions(c, i, &r->hashes[i].coll, err))
			goto out;
	if (o->top && top_contents(o, c, r, &top_pages, err))
		goto out;
	r->counts = *census_counts(c); /* the top's reads counted too */
	census_free(c);
	c = NULL;
	if (o->top && scan_top_locate(o, r->dumps, r->top, r->ntop, top_pages, err))
		goto out;
	if (st.sample_len && time_sample(o, &st, r, err))
		goto out;
	rc = 0;
out:
	census_free(c);
	for (size_t i = 0; i < st.nsrcs; i++)
		page_source_close(st.srcs[i]);
	free(st.srcs);
	free(st.sample);
	free(top_pages);
	ksm_model_free(&st.model);
	if (rc)
		scan_result_free(r);
	return rc;
}

void scan_result_free(struct scan_result *r)
{
	for (unsigned i = 0; r->hashes && i < r->nhashes; i++)
		bench_result_release(&r->hashes[i].bench);
	free(r->hashes);
	free(r->dumps);
	free(r->top);
	r->hashes = NULL;
	r->dumps = NULL;
	r->top = NULL;
}
