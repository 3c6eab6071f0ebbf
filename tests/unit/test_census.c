/* Unit tests: the scan census (duplicates by full content even when keys
 * collide, zero pages, the KSM model, collision arithmetic) and ksmd's
 * CPU share formula; the kernel symbol file --profile reads and the part
 * of KSM's work each symbol's samples go to. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../hashes/impls.h"
#include "../../scan/census.h"
#include "../../scan/kallsyms.h"
#include "../../scan/ksm_sysfs.h"
#include "../../scan/ksm_watch.h"
#include "../../scan/ksmd_profile.h"
#include "../../scan/scan.h"
#include "check.h"
#include "groups.h"

#define PS 256u

/* Pages are kept in memory; locators are their indexes. */
static unsigned char pages[64][PS];

static int fetch_mem(void *ctx, uint64_t locator, void *buf, struct kb_err *err)
{
	(void)ctx;
	if (locator >= 64)
		return kb_fail(err, "bad locator");
	memcpy(buf, pages[locator], PS);
	return 0;
}

/* Deliberately weak: every page has the same key, so every lookup finds
 * candidates and only the byte compare can tell contents apart. */
static uint64_t weak_key(const void *buf, size_t len)
{
	(void)buf;
	(void)len;
	return 42;
}

/* A checksum that collides for pages with the same first byte. */
static uint64_t first_byte_sum(const void *buf, size_t len)
{
	(void)len;
	return ((const unsigned char *)buf)[0];
}

/* The first 8 bytes spread over the whole key (the census uses its upper 48 bits). */
static uint64_t spread_key(const void *buf, size_t len)
{
	uint64_t v;

	(void)len;
	memcpy(&v, buf, sizeof(v));
	return v * 0x9e3779b97f4a7c15ull;
}

static void run_census(int spill, size_t cache_bytes)
{
	struct census_config cfg = { .page_size = PS, .key_fn = weak_key, .nsums = 2, .cache_bytes = cache_bytes,
				     .fetch = fetch_mem };
	struct kb_err err;

	cfg.sum_fns[0] = first_byte_sum;
	cfg.sum_fns[1] = weak_key;
	struct census *c = census_new(&cfg, &err);
	CHECK(c != NULL);
	/* 0-3: zero; 4-13: content X (10 copies); 14-16: Y (3); 17-26: unique,
	 * each starting with byte 7 (first_byte_sum collides for all of them). */
	memset(pages, 0, sizeof(pages));
	for (int i = 4; i < 14; i++)
		memset(pages[i], 0x11, PS);
	for (int i = 14; i < 17; i++)
		memset(pages[i], 0x22, PS);
	for (int i = 17; i < 27; i++) {
		pages[i][0] = 7;
		pages[i][PS - 1] = (unsigned char)i; /* differs only in the last byte */
	}
	for (uint64_t i = 0; i < 27; i++)
		CHECK(census_add(c, pages[i], spill ? UINT64_MAX : i, 0, NULL, &err) == 0);
	const struct census_counts *k = census_counts(c);
	CHECK(k->pages == 27);
	CHECK(k->zero_pages == 4);
	CHECK(k->distinct == 12);
	CHECK(k->key_collisions > 0); /* equal keys, different contents: not duplicates */
	CHECK(spill ? k->spilled == 12 : k->spilled == 0);

	struct census_ksm m;
	census_ksm_model(c, 0, 0, 4, &m);
	CHECK(m.pages_shared == 3 && m.pages_sharing == 3 + 9 + 2 && m.pages_unshared == 10);
	census_ksm_model(c, 0, 1, 4, &m);
	CHECK(m.pages_shared == 2 && m.pages_sharing == 11 && m.ksm_zero_pages == 4 && m.pages_saved == 15);
	census_ksm_model(c, 4, 0, 4, &m); /* X: 4+4+2, Y: 3, zero: 4 */
	CHECK(m.pages_shared == 3 + 1 + 1 && m.pages_sharing == 7 + 2 + 3 && m.pages_unshared == 10);
	CHECK(m.stable_node_chains == 1 && m.stable_node_dups == 3); /* X's three KSM pages */
	census_ksm_model(c, 3, 0, 4, &m); /* X: 3+3+3 and one left alone; Y: 3; zero: 3 and one alone */
	CHECK(m.pages_shared == 3 + 1 + 1 && m.pages_sharing == 6 + 2 + 2 && m.pages_unshared == 10 + 1 + 1);
	CHECK(m.stable_node_chains == 1 && m.stable_node_dups == 3);
	census_ksm_model(c, 3, 0, 1, &m); /* fewer zero pages seen (THP subpages gone): the zero one alone */
	CHECK(m.pages_shared == 3 + 1 && m.pages_unshared == 10 + 1 + 1 && m.stable_node_chains == 1);

	struct census_collisions col;
	CHECK(census_collisions(c, 0, &col, &err) == 0);
	/* 13 contents (12 + the zero page); first bytes: 0x11, 0x22, ten 7s, zero 0 */
	CHECK(col.contents == 13 && col.colliding_pairs == 45 && col.colliding_contents == 10);
	CHECK(col.zero_checksum == 0 && col.zero_checksum_matches == 0);
	CHECK(census_collisions(c, 1, &col, &err) == 0);
	CHECK(col.colliding_pairs == 13 * 12 / 2 && col.zero_checksum == 42 && col.zero_checksum_matches == 12);

	struct census_entry top[3];
	CHECK(census_top(c, top, 3) == 3);
	CHECK(top[0].count == 10 && top[1].count == 3 && top[2].count == 1);
	unsigned char buf[PS];
	CHECK(census_read(c, &top[1], buf, &err) == 0 && buf[0] == 0x22 && buf[PS - 1] == 0x22);
	census_free(c);
}

/* Three dumps: sharing within each and across them, and the contents
 * census_add names. */
static void census_dumps(void)
{
	struct census_config cfg = { .page_size = PS, .key_fn = spread_key, .fetch = fetch_mem };
	struct kb_err err;
	struct census *c = census_new(&cfg, &err);
	/* dump 0: A A B; dump 1: A C C C zero A; dump 2: B. The second A of
	 * dump 1 is within it: the first moved A's last dump to 1. */
	const unsigned char fills[] = { 'A', 'A', 'B', 'A', 'C', 'C', 'C', 0, 'A', 'B' };
	const unsigned dumps[] = { 0, 0, 0, 1, 1, 1, 1, 1, 1, 2 };
	uint64_t content[10];

	CHECK(c != NULL);
	for (unsigned i = 0; i < 10; i++) {
		memset(pages[i], fills[i], PS);
		CHECK(census_add(c, pages[i], i, dumps[i], &content[i], &err) == 0);
	}
	const struct census_counts *k = census_counts(c);
	CHECK(k->within_dump_duplicates == 1 + 3 && k->across_dump_duplicates == 2);
	CHECK(content[0] == 0 && content[1] == 0 && content[3] == 0 && content[8] == 0 && content[2] == 2 &&
	      content[9] == 2);
	CHECK(content[4] == 4 && content[6] == 4 && content[7] == CENSUS_CONTENT_ZERO);
	CHECK(census_add(c, pages[0], 0, CENSUS_DUMPS_MAX, NULL, &err) == -1);
	census_free(c);
}

void test_census_contents(void)
{
	census_dumps();
	run_census(0, 4 * PS);
	run_census(1, 0);
	run_census(0, 0);

	/* The table grows past its initial size and keeps every count. */
	struct census_config cfg = { .page_size = PS, .key_fn = spread_key, .fetch = fetch_mem };
	struct kb_err err;
	struct census *c = census_new(&cfg, &err);
	unsigned char p[PS];
	for (unsigned i = 0; i < 3000; i++) {
		memset(p, 0, sizeof(p));
		memcpy(p, &i, sizeof(i));
		p[PS - 1] = 1;
		if (census_add(c, p, UINT64_MAX, 0, NULL, &err) != 0)
			CHECK(0);
	}
	CHECK(census_counts(c)->distinct == 3000 && census_counts(c)->table_slots > 1024);
	/* Spread over the table: the longest run of slots in use stays short
	 * (a build without 128-bit products took the key's remainder, its low
	 * 16 bits cleared: every key one slot, one run of 3000). */
	uint64_t nslots, run = 0, longest = 0;
	const struct census_entry *slots = census_slots(c, &nslots);
	for (uint64_t i = 0; i < nslots; i++) {
		run = slots[i].count ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	CHECK(longest < 100);
	census_free(c);

	CHECK(census_page_is_zero(pages[0], PS));
	unsigned char z[4096] = { 0 };
	CHECK(census_page_is_zero(z, sizeof(z)));
	z[4095] = 1;
	CHECK(!census_page_is_zero(z, sizeof(z)));
	z[4095] = 0;
	z[300] = 0x80;
	CHECK(!census_page_is_zero(z, sizeof(z)));
	z[300] = 0;
	/* One set bit anywhere, at any alignment and length, in every lane of
	 * the vector test. */
	unsigned missed = 0;
	for (size_t off = 0; off < 2; off++)
		for (size_t i = off; i < sizeof(z); i++) {
			z[i] = (unsigned char)(1u << (i & 7));
			missed += census_page_is_zero(z + off, sizeof(z) - off) != 0;
			missed += census_page_is_zero(z + off, 1000 - off) != (i >= 1000);
			z[i] = 0;
		}
	CHECK(missed == 0);
	CHECK(census_page_is_zero(z + 1, 4095) && census_page_is_zero(z, 0));
}

/* A checksum unlike the key, for the sums a digest carries. */
static uint64_t tail_sum(const void *buf, size_t len)
{
	uint64_t v;

	memcpy(&v, (const unsigned char *)buf + len - sizeof(v), sizeof(v));
	return v * 31 + 7;
}

/* Digests computed ahead (as a read-ahead thread does) count exactly as
 * the census's own, their checksums too; hints of pages to come
 * (census_prefetch) change nothing; the representative cache keeps the
 * most recently compared contents of a set. */
void test_census_digests_and_cache(void)
{
	struct census_config cfg = { .page_size = PS, .key_fn = spread_key, .fetch = fetch_mem,
				     .cache_bytes = 4 * PS, .sum_fns = { tail_sum }, .nsums = 1 };
	struct kb_err err;
	struct census *own = census_new(&cfg, &err), *ahead = census_new(&cfg, &err);

	CHECK(own && ahead);
	if (!own || !ahead)
		return;
	memset(pages, 0, sizeof(pages));
	/* 0-4: contents A-E; then A B C D (four misses fill the set), A (a
	 * hit), E (a miss: out goes B, the least recently used), B (a miss:
	 * out goes C), A (a hit); 13-14 zero. */
	const char order[] = "ABCDEABCDAEBA";
	for (unsigned i = 0; i < sizeof(order) - 1; i++)
		memset(pages[i], order[i], PS);
	uint64_t c1, c2;
	for (unsigned i = 0; i < 15; i++) {
		CHECK(census_add(own, pages[i], i, 0, &c1, &err) == 0);
		struct page_digest d, later = { 0, 0 };
		/* Every third without its checksum, as a thread with none to
		 * spare gives it: the census computes it then. */
		census_digest(ahead, pages[i], i % 3 != 0, &d);
		CHECK(d.key != 0 && (i >= 13 || i % 3 == 0 || d.sum == (uint32_t)tail_sum(pages[i], PS)));
		if (i + 3 < 15)
			census_digest(ahead, pages[i + 3], i % 2, &later);
		census_prefetch(ahead, later.key);
		CHECK(census_add_digested(ahead, pages[i], &d, i, 0, &c2, &err) == 0 && c1 == c2);
	}
	const struct census_counts *a = census_counts(own), *b = census_counts(ahead);
	CHECK(a->pages == 15 && a->zero_pages == 2 && a->distinct == 5 && a->compares == 8);
	CHECK(b->pages == a->pages && b->zero_pages == a->zero_pages && b->distinct == a->distinct &&
	      b->compares == a->compares && b->within_dump_duplicates == a->within_dump_duplicates);
	CHECK(a->fetches == 6 && b->fetches == 6);
	struct page_digest z, a0;
	census_digest(ahead, pages[13], 1, &z);
	census_digest(ahead, pages[0], 0, &a0);
	CHECK(z.key != a0.key);
	uint64_t n1, n2;
	const struct census_entry *s1 = census_slots(own, &n1), *s2 = census_slots(ahead, &n2);
	size_t same = 0;
	for (uint64_t i = 0; n1 == n2 && i < n1; i++)
		same += s1[i].count == s2[i].count && s1[i].sum0 == s2[i].sum0;
	CHECK(n1 == n2 && same == n1);
	census_free(own);
	census_free(ahead);
}

void test_census_arithmetic(void)
{
	/* n(n-1)/2 / 2^32: 2^16 contents give 0.5 pairs minus a hair. */
	CHECK(fabs(census_expected_pairs(65536, 32) - 65536.0 * 65535 / 2 / 4294967296.0) < 1e-12);
	CHECK(census_expected_pairs(1, 32) == 0 && census_expected_pairs(0, 32) == 0);
	/* Small n: about n(n-1)/2^32 colliding contents (twice the pairs). */
	double e = census_expected_contents(1000, 32);
	CHECK(fabs(e - 1000.0 * 999 / 4294967296.0) < 1e-9);
	/* 8-bit range, 256 contents: 256 (1 - (255/256)^255) */
	CHECK(fabs(census_expected_contents(256, 8) - 256 * (1 - pow(255.0 / 256, 255))) < 1e-9);
	/* Once merged: unshared and volatile pages checksummed, one scan in 9
	 * with smart_scan, merged mappings visited only. */
	const struct census_ksm k = { .pages_shared = 10, .pages_sharing = 30, .pages_unshared = 50,
				      .pages_volatile = 40, .ksm_zero_pages = 7 };
	struct ksm_steady_scan s = ksm_steady_scan(&k, 0);
	CHECK(s.checksummed == 90 && s.visited == 130);
	s = ksm_steady_scan(&k, 1);
	CHECK(s.checksummed == 10 && s.visited == 50);
	/* A scan's end ends a batch of its own: 99 pages one batch, 100 two,
	 * none one. */
	CHECK(ksm_scan_batches(99, 100) == 1 && ksm_scan_batches(100, 100) == 2 && ksm_scan_batches(0, 100) == 1 &&
	      ksm_scan_batches(250, 100) == 3);
	/* The 9 against should_skip_rmap_item()'s state machine as 6.7-6.18
	 * have it, run over 1000 scans of a page that never merges: visits at
	 * scans 1, 2, 3, 4, 6, 9, 14, 23, 32, ..., then every 9th. */
	unsigned age = 0, skips = 0, visits = 0, last = 0, first[9];
	for (unsigned scan = 1; scan <= 1000; scan++) {
		unsigned a = age++, skip = 0;
		if (a >= 3) {
			if (skips)
				skips--, skip = 1;
			else
				skips = a <= 3 ? 1 : a <= 5 ? 2 : a <= 8 ? 4 : 8;
		}
		if (!skip) {
			if (visits < 9)
				first[visits] = scan;
			visits++;
			CHECK(scan < 14 || last < 14 || scan - last == KSM_SMART_SCAN_VISIT_EVERY);
			last = scan;
		}
	}
	static const unsigned want[9] = { 1, 2, 3, 4, 6, 9, 14, 23, 32 };
	CHECK(memcmp(first, want, sizeof(want)) == 0);
}

/* The kernel rules by release: KSM's checksum, THP zero subpages,
 * max_page_sharing, use_zero_pages, smart_scan, the later counters, and
 * releases that predate KSM or are not releases. */
void test_census_kernel_rules(void)
{
	struct ksm_rules r;
	struct kb_err err;

	CHECK(ksm_rules_for(NULL, NULL, &r, &err) == 0 && r.checksum == &hash_xxhash && r.thp_split_zero_remap);
	CHECK(ksm_rules_for("4.20.17", "option", &r, &err) == 0 && r.checksum == &hash_jhash2 &&
	      r.max_page_sharing && !r.thp_split_zero_remap);
	CHECK(ksm_rules_for("5.0", "option", &r, &err) == 0 && r.checksum == &hash_xxhash);
	CHECK(ksm_rules_for("4.12", "option", &r, &err) == 0 && !r.max_page_sharing);
	CHECK(ksm_rules_for("4.13", "option", &r, &err) == 0 && r.max_page_sharing); /* from 4.13 on */
	CHECK(ksm_rules_for("6.12.0-rc1", "capture", &r, &err) == 0 && r.thp_split_zero_remap &&
	      !strcmp(r.release, "6.12.0-rc1"));
	CHECK(ksm_rules_for("2.6.32", "option", &r, &err) == 0 && r.checksum == &hash_jhash2_lookup2);
	CHECK(ksm_rules_for("2.6.37.6", "option", &r, &err) == 0 && r.checksum == &hash_jhash2_lookup2);
	CHECK(ksm_rules_for("2.6.38", "option", &r, &err) == 0 && r.checksum == &hash_jhash2);
	CHECK(ksm_rules_for("3.0", "option", &r, &err) == 0 && r.checksum == &hash_jhash2);
	/* Counters that came after KSM, at their boundaries; use_zero_pages 4.11. */
	CHECK(ksm_rules_for(NULL, NULL, &r, &err) == 0 && r.use_zero_pages && !r.missing &&
	      !ksm_counter_missing(&r, "ksm_zero_pages") && !ksm_counter_missing(&r, "general_profit"));
	CHECK(ksm_rules_for("6.5.13", "option", &r, &err) == 0 && !ksm_counter_missing(&r, "general_profit") &&
	      !strcmp(ksm_counter_missing(&r, "ksm_zero_pages"), "6.6"));
	CHECK(ksm_rules_for("6.6", "option", &r, &err) == 0 && !ksm_counter_missing(&r, "ksm_zero_pages"));
	CHECK(ksm_rules_for("6.3", "option", &r, &err) == 0 && !strcmp(ksm_counter_missing(&r, "general_profit"), "6.4") &&
	      !ksm_counter_missing(&r, "stable_node_dups") && !ksm_counter_missing(&r, "pages_shared"));
	CHECK(ksm_rules_for("6.4", "option", &r, &err) == 0 && !ksm_counter_missing(&r, "general_profit"));
	CHECK(ksm_rules_for("4.12", "option", &r, &err) == 0 && r.use_zero_pages &&
	      !strcmp(ksm_counter_missing(&r, "stable_node_chains"), "4.13") &&
	      !strcmp(ksm_counter_missing(&r, "stable_node_dups"), "4.13"));
	CHECK(ksm_rules_for("4.13", "option", &r, &err) == 0 && !ksm_counter_missing(&r, "stable_node_chains"));
	CHECK(ksm_rules_for("4.10.17", "option", &r, &err) == 0 && !r.use_zero_pages);
	CHECK(ksm_rules_for("4.11", "option", &r, &err) == 0 && r.use_zero_pages); /* from 4.11 on */
	/* smart_scan from 6.7 on, and in the newest rules. */
	CHECK(ksm_rules_for("6.6.30", "option", &r, &err) == 0 && !r.smart_scan);
	CHECK(ksm_rules_for("6.7", "option", &r, &err) == 0 && r.smart_scan);
	CHECK(ksm_rules_for(NULL, NULL, &r, &err) == 0 && r.smart_scan);
	CHECK(ksm_rules_for("2.6.31", "option", &r, &err) == -1 && strstr(err.msg, "no KSM"));
	CHECK(ksm_rules_for("2.4", "option", &r, &err) == -1 && strstr(err.msg, "no KSM"));
	CHECK(ksm_rules_for("linux", "option", &r, &err) == -1 && strstr(err.msg, "MAJOR.MINOR"));
	/* Numbers as written, without sign or overflow (sscanf's %u took both). */
	static const char *const bad[] = { "-1.0", "4.-1", "+5.0", "99999999999999999999.1", "6", "6.", "6.x",
					   "6.1.-2", "1234567.0" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(ksm_rules_for(bad[i], "option", &r, &err) == -1 && strstr(err.msg, "MAJOR.MINOR"));
	CHECK(ksm_rules_for("5.0-rc1", "option", &r, &err) == 0 && r.checksum == &hash_xxhash);
	CHECK(ksm_rules_for("4.19+", "option", &r, &err) == 0 && r.checksum == &hash_jhash2);
}

/* --watch's pages checksummed a second: of 130 rmap items 40 are merged
 * (visited, no checksum), 90 not. Two full scans a second without
 * smart_scan: 260 scanned, 180 checksummed; with it, in the steady state
 * (one scan in 9): 100 scanned, 160 skipped, 20 checksummed. Counters a
 * kernel lacks read as none; a negative estimate (noise) as 0. */
void test_census_watch_checksummed(void)
{
	struct ksm_sample b = { .pages_shared = 10, .pages_sharing = 30, .pages_unshared = 50, .pages_volatile = 40 };

	CHECK(fabs(ksm_checksummed_per_s(&b, 260, 0) - 180) < 1e-9);
	CHECK(fabs(ksm_checksummed_per_s(&b, 100, 160) - 20) < 1e-9);
	CHECK(ksm_checksummed_per_s(&b, 10, 1000) == 0);
	b.pages_unshared = b.pages_volatile = KSM_SYSFS_MISSING;
	CHECK(ksm_checksummed_per_s(&b, 500, 0) == 0); /* every item merged: none checksummed */
	b = (struct ksm_sample){ .pages_shared = KSM_SYSFS_MISSING, .pages_unshared = 7 };
	CHECK(fabs(ksm_checksummed_per_s(&b, 70, 0) - 70) < 1e-9);
	b = (struct ksm_sample){ 0 };
	CHECK(ksm_checksummed_per_s(&b, 70, 0) == 0);
	CHECK(ksm_counter_growth(5, 9) == 4 && ksm_counter_growth(9, 9) == 0);
	CHECK(ksm_counter_growth(9, 5) == -1 && ksm_counter_growth(KSM_SYSFS_MISSING, 5) == -1);
	/* Counters near LLONG_MAX (a file that says so): merges summed without
	 * overflow (pages_sharing + ksm_zero_pages wrapped negative). */
	struct ksm_sample a = { .t_ns = 0 }, c = { .t_ns = 1000000000, .pages_sharing = LLONG_MAX, .ksm_zero_pages = 5 };
	struct ksm_rates r;
	ksm_rates_between(&a, &c, 0, &r);
	CHECK(r.merges_per_s > 9e18);
	/* The cost at settings unknown is unknown, not 0: --profile's model line
	 * read "at pages_to_scan -1 / sleep -1 ms ... a CPU is 0.000%". */
	CHECK(ksm_settings_cpu_share(-1, -1, 1000) < 0 && ksm_settings_cpu_share(100, KSM_SYSFS_MISSING, 1000) < 0 &&
	      ksm_settings_cpu_share(KSM_SYSFS_MISSING, 20, 1000) < 0);
	CHECK(ksm_settings_cpu_share(0, 20, 1000) == 0 && ksm_settings_cpu_share(100, 20, 1000) > 0);
	c.pages_to_scan = 100;
	c.sleep_ms = KSM_SYSFS_MISSING;
	ksm_rates_between(&a, &c, 1000, &r);
	CHECK(r.checksum_cpu_share_settings < 0);
}

/* A process's KSM counters: ksm_stat (6.1+), else ksm_merging_pages alone
 * (5.19 and 6.0: it was refused for want of ksm_stat), else an error
 * naming the releases; a directory that is not there is no process. */
void test_census_process_counters(void)
{
	char dir[] = "/tmp/ksmbench-unit-proc-XXXXXX", path[64];
	struct ksm_value v[KSM_VALUES_MAX];
	struct kb_err err;
	size_t n;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	CHECK(ksm_read_process_dir(dir, v, KSM_VALUES_MAX, &n, &err) == -1 && strstr(err.msg, "before 5.19"));
	snprintf(path, sizeof(path), "%s/ksm_merging_pages", dir);
	CHECK((f = fopen(path, "w")) != NULL && fputs("42\n", f) >= 0 && fclose(f) == 0);
	CHECK(ksm_read_process_dir(dir, v, KSM_VALUES_MAX, &n, &err) == 0 && n == 1 &&
	      strcmp(v[0].name, "ksm_merging_pages") == 0 && v[0].is_number && v[0].number == 42);
	char stat_path[64];
	snprintf(stat_path, sizeof(stat_path), "%s/ksm_stat", dir);
	CHECK((f = fopen(stat_path, "w")) != NULL &&
	      fputs("ksm_rmap_items 7\nksm_merging_pages 3\nksm_merge_any: no\n", f) >= 0 && fclose(f) == 0);
	CHECK(ksm_read_process_dir(dir, v, KSM_VALUES_MAX, &n, &err) == 0 && n == 3 && v[1].number == 3 &&
	      strcmp(v[2].name, "ksm_merge_any") == 0 && strcmp(v[2].text, "no") == 0);
	unlink(stat_path);
	unlink(path);
	rmdir(dir);
	CHECK(ksm_read_process_dir(dir, v, KSM_VALUES_MAX, &n, &err) == -1 && strstr(err.msg, "no such process"));
}

/* A symbol file as --profile reads it: text symbols sorted and named;
 * none, hidden addresses, a device that never ends and a directory are
 * each one error. */
void test_census_kallsyms(void)
{
	char path[] = "/tmp/ksmbench-unit-kallsyms-XXXXXX";
	struct kallsyms k;
	struct kb_err err;
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	CHECK(f != NULL);
	if (!f)
		return;
	fputs("ffffffff81000200 T calc_checksum\nffffffff81000100 t xxh64\nffffffff81000000 D data\n"
	      "ffffffff81000300 W memcmp_pages\n", f);
	fclose(f);
	CHECK(kallsyms_load(path, path, &k, &err) == 0 && k.n == 3);
	CHECK_STR(kallsyms_name(&k, 0xffffffff81000150ull), "xxh64");
	CHECK_STR(kallsyms_name(&k, 0xffffffff81000300ull), "memcmp_pages");
	kallsyms_free(&k);
	/* A line past the reader's 511 bytes (a Rust symbol can take 512) is
	 * cut: what follows is not a symbol line of its own. */
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "ffffffff81000200 T calc_checksum\nffffffff81000500 t %.*s", 511 - 19,
			"_RNvCs1234567890_4core3fmt9Formatter9write_str_RNvCs1234567890_4core3fmt9Formatter9write_str"
			"_RNvCs1234567890_4core3fmt9Formatter9write_str_RNvCs1234567890_4core3fmt9Formatter9write_str"
			"_RNvCs1234567890_4core3fmt9Formatter9write_str_RNvCs1234567890_4core3fmt9Formatter9write_str"
			"_RNvCs1234567890_4core3fmt9Formatter9write_str_RNvCs1234567890_4core3fmt9Formatter9write_str"
			"_RNvCs1234567890_4core3fmt9Formatter9write_str_RNvCs1234567890_4core3fmt9Formatter9write_str"
			"_RNvCs1234567890_4core3fmt9Formatter9write_str");
		fputs("ffffffff81000400 T forged\n", f);
		fclose(f);
	}
	CHECK(kallsyms_load(path, path, &k, &err) == 0 && k.n == 2);
	CHECK(strcmp(kallsyms_name(&k, 0xffffffff81000400ull) ? kallsyms_name(&k, 0xffffffff81000400ull) : "",
		     "forged") != 0);
	kallsyms_free(&k);
	f = fopen(path, "w");
	if (f) {
		fputs("0000000000000000 T calc_checksum\n", f);
		fclose(f);
	}
	CHECK(kallsyms_load(path, path, &k, &err) == -1 && strstr(err.msg, "kptr_restrict"));
	f = fopen(path, "w");
	if (f)
		fclose(f);
	CHECK(kallsyms_load(path, path, &k, &err) == -1 && strstr(err.msg, "holds no kernel text symbols"));
	unlink(path);
	CHECK(kallsyms_load("/dev/zero", "/dev/zero", &k, &err) == -1 && strstr(err.msg, "not a regular file"));
	CHECK(kallsyms_load("/tmp", "/tmp", &k, &err) == -1 && strstr(err.msg, "not a regular file"));
	/* A FIFO is refused, not waited on for a writer (it hung ksm --profile). */
	if (mkfifo(path, 0600) == 0) {
		CHECK(kallsyms_load(path, "KSMBENCH_KALLSYMS 'f'", &k, &err) == -1 &&
		      strstr(err.msg, "KSMBENCH_KALLSYMS 'f' is not a regular file"));
		unlink(path);
	}
}

/* --profile's parts by exact symbol name: the checksum (every hash KSM has
 * called), the compares, the trees' walks, and the rest (a symbol near one
 * of those names, an address no symbol names). */
void test_census_ksmd_parts(void)
{
	static const char *const checksum[] = { "calc_checksum", "xxh64", "xxhash", "xxh32", "jhash2" };
	static const char *const compare[] = { "memcmp_pages", "memcmp", "__memcmp", "pages_identical", "bcmp" };
	static const char *const tree[] = { "stable_tree_search", "stable_tree_insert", "unstable_tree_search_insert",
					    "stable_tree_append", "stable_node_dup", "chain", "chain_prune",
					    "__stable_node_chain", "stable_node_dup_remove_range", "rb_insert_color",
					    "rb_erase", "rb_next", "rb_first", "get_ksm_page", "ksm_get_folio" };
	static const char *const rest[] = { "ksm_do_scan", "cmp_and_merge_page", "xxh64_update", "jhash", "" };

	for (size_t i = 0; i < sizeof(checksum) / sizeof(checksum[0]); i++)
		CHECK(ksmd_part_of(checksum[i]) == KSMD_CHECKSUM);
	for (size_t i = 0; i < sizeof(compare) / sizeof(compare[0]); i++)
		CHECK(ksmd_part_of(compare[i]) == KSMD_MEMCMP);
	for (size_t i = 0; i < sizeof(tree) / sizeof(tree[0]); i++)
		CHECK(ksmd_part_of(tree[i]) == KSMD_TREE);
	for (size_t i = 0; i < sizeof(rest) / sizeof(rest[0]); i++)
		CHECK(ksmd_part_of(rest[i]) == KSMD_REST);
	CHECK(ksmd_part_of(NULL) == KSMD_REST);
	CHECK_STR(ksmd_part_name(KSMD_CHECKSUM), "checksum");
	CHECK_STR(ksmd_part_name(KSMD_TREE), "tree walks");
}
