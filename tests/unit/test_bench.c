/* Unit tests: statistics, the jiffies emulation's arithmetic, durations,
 * page sets, and one short measurement per timer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/bench.h"
#include "../../bench/jiffies.h"
#include "../../bench/stats.h"
#include "../../common/duration_parse.h"
#include "../../datasets/page_set.h"
#include "check.h"
#include "groups.h"

#define NEAR(a, b, eps) (fabs((a) - (b)) <= (eps))

void test_stats(void)
{
	const double five[] = { 5, 1, 4, 2, 3 };
	struct stats_summary s;

	CHECK(stats_summarize(five, 5, &s) == 0);
	CHECK(s.n == 5 && s.best == 1 && s.min == 1 && s.max == 5 && s.median == 3 && s.mean == 3);
	/* sample standard deviation of 1..5 is sqrt(2.5) */
	CHECK(NEAR(s.cv, sqrt(2.5) / 3, 1e-12));
	CHECK(five[0] == 5); /* the input is not reordered */

	const double four[] = { 10, 40, 20, 30 };
	CHECK(stats_summarize(four, 4, &s) == 0);
	CHECK(s.median == 25 && NEAR(s.cv, sqrt(500.0 / 3) / 25, 1e-12));

	const double one[] = { 7 };
	CHECK(stats_summarize(one, 1, &s) == 0 && s.median == 7 && s.cv == 0);
	CHECK(stats_summarize(one, 0, &s) == -1);

	const double sorted[] = { 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 };
	CHECK(stats_percentile_sorted(sorted, 11, 10) == 10);
	CHECK(stats_percentile_sorted(sorted, 11, 90) == 90);
	CHECK(NEAR(stats_percentile_sorted(sorted, 11, 15), 15, 1e-9));
	CHECK(stats_percentile_sorted(sorted, 11, 100) == 100);

	uint32_t u[] = { 9, 1, 5, 3, 7 };
	CHECK(stats_percentile_u32(u, 5, 50) == 5);
	CHECK(stats_percentile_u32(u, 5, 0) == 1 && u[0] == 1 && u[4] == 9);
}

void test_jiffies(void)
{
	/* The patch's window: HZ >> 3 jiffies. */
	CHECK(jiffies_window(250) == 31 && jiffies_window(100) == 12);
	CHECK(jiffies_window(300) == 37 && jiffies_window(1000) == 125);
	/* count * PAGE_SIZE >> 17: 3917 zero pages of 4 KiB in 1/8 s = 122 "MB/s" */
	CHECK(jiffies_kernel_mb_per_s(3917, 4096) == 122);
	CHECK(jiffies_kernel_mb_per_s(386624, 4096) == 12082);
	CHECK(jiffies_kernel_mb_per_s(32, 4096) == 1);
	CHECK(jiffies_kernel_mb_per_s(31, 4096) == 0);
	CHECK(jiffies_kernel_mb_per_s(1000, 65536) == 500);

	/* Ticks from nanoseconds. */
	CHECK(jiffies_from_ns(0, 250) == 0);
	CHECK(jiffies_from_ns(3999999, 250) == 0 && jiffies_from_ns(4000000, 250) == 1);
	CHECK(jiffies_from_ns(1000000000, 250) == 250);
	CHECK(jiffies_from_ns(3333334, 300) == 1 && jiffies_from_ns(3333333, 300) == 0);
	CHECK(jiffies_from_ns(86400ull * 1000000000u, 1000) == 86400000ul);
	for (unsigned long j = 1; j < 1000; j += 37) {
		CHECK(jiffies_from_ns(jiffies_start_ns(j, 300), 300) == j);
		CHECK(jiffies_from_ns(jiffies_start_ns(j, 300) - 1, 300) == j - 1);
	}

	/* time_before across wrap-around, as the kernel's. */
	CHECK(jiffies_time_before(1, 2) && !jiffies_time_before(2, 1) && !jiffies_time_before(5, 5));
	CHECK(jiffies_time_before((unsigned long)-3, 2));

	/* A 31-jiffy window at HZ=250 is 124 ms; the kernel assumes 125 ms:
	 * it understates a full window by 0.8% and, started just before a tick,
	 * a window of 30 jiffies and a bit (120 ms) by 4%. */
	CHECK(NEAR(jiffies_bias_percent(1000, 4096, 124000000), -0.8, 1e-9));
	CHECK(NEAR(jiffies_bias_percent(1000, 4096, 120000000), -4.0, 1e-9));
	CHECK(NEAR(jiffies_bias_percent(1000, 4096, 125000000), 0.0, 1e-9));
	CHECK(jiffies_kernel_claimed_bytes_per_s(1, 4096) == 32768.0);
	CHECK(jiffies_hz_valid(250) && jiffies_hz_valid(8) && !jiffies_hz_valid(7) && !jiffies_hz_valid(10001));
}

void test_duration_parse(void)
{
	struct kb_err err;
	uint64_t ns;

	CHECK(kb_parse_duration_ns("125ms", 0, UINT64_MAX, &ns, &err) == 0 && ns == 125000000u);
	CHECK(kb_parse_duration_ns("125", 0, UINT64_MAX, &ns, &err) == 0 && ns == 125000000u);
	CHECK(kb_parse_duration_ns("2s", 0, UINT64_MAX, &ns, &err) == 0 && ns == 2000000000u);
	CHECK(kb_parse_duration_ns("500us", 0, UINT64_MAX, &ns, &err) == 0 && ns == 500000u);
	CHECK(kb_parse_duration_ns("7ns", 0, UINT64_MAX, &ns, &err) == 0 && ns == 7u);
	CHECK(kb_parse_duration_ns("", 0, UINT64_MAX, &ns, &err) == -1);
	CHECK(kb_parse_duration_ns("1h", 0, UINT64_MAX, &ns, &err) == -1);
	CHECK(kb_parse_duration_ns("-1ms", 0, UINT64_MAX, &ns, &err) == -1);
	CHECK(kb_parse_duration_ns("0", 100000, 1000000000, &ns, &err) == -1 && strstr(err.msg, "must be"));
	CHECK(kb_parse_duration_ns("99999999999999999999s", 0, UINT64_MAX, &ns, &err) == -1);
}

void test_page_set(void)
{
	struct page_content c;
	struct page_set s;
	struct kb_err err;

	CHECK(page_content_random(&c, 4096, 42, &err) == 0 && c.pages == 1);
	CHECK(page_set_hot(&s, &c, 0, &err) == 0);
	CHECK(s.count == 1 && memcmp(s.order[0], c.bytes, 4096) == 0 && strcmp(s.cache, "hot") == 0);
	CHECK(((uintptr_t)s.order[0] & 63) == 0);
	page_set_release(&s);

	CHECK(page_set_hot(&s, &c, 5, &err) == 0 && ((uintptr_t)s.order[0] & 63) == 5);
	page_set_release(&s);
	CHECK(page_set_hot(&s, &c, 4096, &err) == -1 && strstr(err.msg, "smaller than the page size"));

	/* Cold: every page once, in a shuffled order, every page different. */
	CHECK(page_set_cold(&s, &c, 1u << 20, 3, 7, &err) == 0);
	CHECK(s.count == 256 && s.working_set_bytes == (1u << 20) && strcmp(s.cache, "cold") == 0);
	const unsigned char *lowest = s.order[0];
	size_t in_order = 0, slot = 4096 + 64;
	unsigned char seen[256] = { 0 };
	for (size_t i = 0; i < s.count; i++)
		if (s.order[i] < lowest)
			lowest = s.order[i];
	for (size_t i = 0; i < s.count; i++) {
		size_t k = (size_t)(s.order[i] - lowest) / slot;
		CHECK(k < 256 && (size_t)(s.order[i] - lowest) % slot == 0);
		if (k < 256)
			seen[k]++;
		if (i && s.order[i] == s.order[i - 1] + slot)
			in_order++;
	}
	int all_once = 1;
	for (size_t k = 0; k < 256; k++)
		all_once &= seen[k] == 1;
	CHECK(all_once);
	CHECK(in_order < 16);
	CHECK(memcmp(s.order[0], s.order[1], 4096) != 0);
	page_set_release(&s);
	page_content_release(&c);

	CHECK(page_content_zero(&c, 64, &err) == 0 && c.bytes[0] == 0 && c.bytes[63] == 0);
	CHECK(page_set_cold(&s, &c, 64 * 10, 0, 1, &err) == 0 && s.count == 10);
	page_set_release(&s);
	page_content_release(&c);

	CHECK(page_set_cold_default_bytes(0) == 64ull << 20);
	CHECK(page_set_cold_default_bytes(32ull << 20) == 128ull << 20);
	CHECK(page_set_cold_default_bytes(1ull << 30) == 1ull << 30);

	CHECK(page_content_file(&c, "/nonexistent/ksmbench", 4096, 1 << 20, &err) == -1);
}

void test_bench_measure(void)
{
	const struct hash_impl *h = hash_find("xxh64");
	struct bench_config cfg;
	struct bench_result r;
	struct page_content c;
	struct page_set s;
	struct kb_err err;

	CHECK(page_content_zero(&c, 4096, &err) == 0 && page_set_hot(&s, &c, 0, &err) == 0);
	bench_config_default(&cfg);
	cfg.window_ns = 2000000;
	cfg.warmup_ns = 500000;
	cfg.repeat = 3;

	CHECK(bench_measure(h, &s, &cfg, &r, &err) == 0);
	CHECK(r.calls > 0 && r.repeats == 3 && strcmp(r.impl, "xxh64") == 0);
	CHECK(r.ns_per_page.min <= r.ns_per_page.median && r.ns_per_page.median <= r.ns_per_page.max);
	CHECK(NEAR(r.bytes_per_second_best, 4096 * 1e9 / r.ns_per_page.best, 1e-3));

	cfg.timer = BENCH_TIMER_RDTSC;
	CHECK(bench_measure(h, &s, &cfg, &r, &err) == 0);
	CHECK(r.ticks_per_call_p10 <= r.ticks_per_call_median && r.ticks_per_call_median <= r.ticks_per_call_p90);
	CHECK(r.counter_hz > 1e6 && r.ns_per_page.median > 0);

	cfg.timer = BENCH_TIMER_JIFFIES;
	cfg.repeat = 1;
	cfg.hz = 1000; /* 125 jiffies of 1 ms */
	CHECK(bench_measure(h, &s, &cfg, &r, &err) == 0);
	CHECK(r.hz == 1000 && r.window_jiffies == 125);
	CHECK(r.kernel_mb_per_s_best == jiffies_kernel_mb_per_s(r.calls, 4096));
	/* The window: 124 to 125 ms by the emulated ticks, plus at most a batch. */
	CHECK(r.window_ns_median >= 124000000.0 && r.window_ns_median < 200000000.0);

	cfg.repeat = 0;
	CHECK(bench_measure(h, &s, &cfg, &r, &err) == -1);
	page_set_release(&s);
	page_content_release(&c);

	/* jhash2 takes whole words: a 64-byte page is fine, the check is made. */
	CHECK(page_content_zero(&c, 64, &err) == 0 && page_set_hot(&s, &c, 0, &err) == 0);
	cfg.repeat = 1;
	cfg.timer = BENCH_TIMER_WINDOW;
	CHECK(bench_measure(hash_find("jhash2"), &s, &cfg, &r, &err) == 0 && r.page_size == 64);
	page_set_release(&s);
	page_content_release(&c);

	enum bench_timer t;
	CHECK(bench_timer_parse("rdtsc", &t, &err) == 0 && t == BENCH_TIMER_RDTSC);
	CHECK(bench_timer_parse("tsc", &t, &err) == -1 && strstr(err.msg, "unknown timer"));
	CHECK_STR(bench_timer_name(BENCH_TIMER_JIFFIES), "jiffies");
}
