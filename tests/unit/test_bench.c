/* Unit tests of bench/: statistics, the jiffies emulation's arithmetic, one
 * short measurement per timer, the stop request, the CPU choice, and a run
 * over a plan of page sets. */
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../bench/bench.h"
#include "../../bench/cache_flush.h"
#include "../../bench/cpu_quota.h"
#include "../../bench/fence.h"
#include "../../bench/jiffies.h"
#include "../../bench/pin.h"
#include "../../bench/run.h"
#include "../../bench/stats.h"
#include "../../bench/timed_loop.h"
#include "../../bench/timer.h"
#include "../../datasets/page_set.h"
#include "check.h"
#include "groups.h"

#define NEAR(a, b, eps) (fabs((a) - (b)) <= (eps))

void test_bench_stats(void)
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

void test_bench_jiffies(void)
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
	/* Past 2^32 ticks (50 days at HZ=1000) the count goes on, on 32-bit
	 * builds too, and a window ends HZ>>3 jiffies after it starts: an
	 * unsigned long count wrapped there, and the window's end fell 49.7
	 * days before its start (one batch a round). */
	uint64_t late = 50ull * 86400 * 1000000000u;
	CHECK(jiffies_from_ns(late, 1000) == 4320000000ull);
	CHECK(jiffies_start_ns(jiffies_from_ns(late, 1000) + jiffies_window(1000), 1000) == late + 125000000u);
	CHECK(jiffies_from_ns(late * 4, 250) == 4320000000ull);
	for (unsigned long j = 1; j < 1000; j += 37) {
		CHECK(jiffies_from_ns(jiffies_start_ns(j, 300), 300) == j);
		CHECK(jiffies_from_ns(jiffies_start_ns(j, 300) - 1, 300) == j - 1);
	}

	/* A 31-jiffy window at HZ=250 is 124 ms; the kernel assumes 125 ms:
	 * it understates a full window by 0.8% and, started just before a tick,
	 * a window of 30 jiffies and a bit (120 ms) by 4%. */
	CHECK(NEAR(jiffies_bias_percent(1000, 4096, 124000000), -0.8, 1e-9));
	CHECK(NEAR(jiffies_bias_percent(1000, 4096, 120000000), -4.0, 1e-9));
	CHECK(NEAR(jiffies_bias_percent(1000, 4096, 125000000), 0.0, 1e-9));
	CHECK(jiffies_kernel_claimed_bytes_per_s(1, 4096) == 32768.0);
	CHECK(jiffies_hz_valid(250) && jiffies_hz_valid(8) && !jiffies_hz_valid(7) && !jiffies_hz_valid(10001));
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
	CHECK(NEAR(bench_bytes_per_s(r.page_size, r.ns_per_page.best), 4096 * 1e9 / r.ns_per_page.best, 1e-3));
	/* The summary is of the undisturbed rounds (of all when none is). */
	CHECK(r.rounds && r.ns_per_page.n == (r.rounds_disturbed < 3 ? 3 - r.rounds_disturbed : 3));
	CHECK(r.nprocesses == 1 && (r.unstable & STABILITY_FEW_PROCESSES));

	/* Each round's batches were logged: the uninterrupted pace is never
	 * slower than the wall's (the rounds' batches are whole, the time
	 * beyond the last read not counted). */
	for (unsigned i = 0; i < r.repeats; i++)
		CHECK(r.rounds[i].uninterrupted_ns_per_page > 0 &&
		      r.rounds[i].uninterrupted_ns_per_page <= r.rounds[i].ns_per_page * (1 + 1e-9));
	CHECK(r.uninterrupted_ns_best > 0 && r.uninterrupted_ns_best <= r.ns_per_page.max);
	bench_result_release(&r);

	cfg.timer = BENCH_TIMER_RDTSC;
	CHECK(bench_measure(h, &s, &cfg, &r, &err) == 0);
	CHECK(r.uninterrupted_ns_best == 0 && r.rounds[0].uninterrupted_ns_per_page == 0); /* no batch log */
	CHECK(r.rdtsc.ticks_per_call_p10 <= r.rdtsc.ticks_per_call_median &&
	      r.rdtsc.ticks_per_call_median <= r.rdtsc.ticks_per_call_p90);
	CHECK(r.counter.hz > 1e6 && r.ns_per_page.median > 0);
	/* The mean call includes the interrupted ones: never below the fastest. */
	CHECK(r.rdtsc.ticks_per_call_mean >= r.rdtsc.ticks_per_call_p10);
	bench_result_release(&r);

	cfg.timer = BENCH_TIMER_JIFFIES;
	cfg.repeat = 1;
	cfg.hz = 1000; /* 125 jiffies of 1 ms */
	CHECK(bench_measure(h, &s, &cfg, &r, &err) == 0);
	CHECK(r.jiffies.hz == 1000 && r.jiffies.window_jiffies == 125);
	CHECK(r.jiffies.kernel_mb_per_s_best == jiffies_kernel_mb_per_s(r.calls, 4096));
	/* The window: 124 to 125 ms by the emulated ticks, plus at most a batch. */
	CHECK(r.jiffies.window_ns_median >= 124000000.0 && r.jiffies.window_ns_median < 200000000.0);
	CHECK(r.uninterrupted_ns_best > 0 && r.uninterrupted_ns_best <= r.ns_per_page.best * (1 + 1e-9));
	bench_result_release(&r);
	cfg.hz = 7;
	CHECK(bench_measure(h, &s, &cfg, &r, &err) == -1 && strstr(err.msg, "HZ 7"));
	cfg.hz = 1000;

	cfg.repeat = 0;
	CHECK(bench_measure(h, &s, &cfg, &r, &err) == -1);
	page_set_release(&s);
	page_content_release(&c);

	/* jhash2 takes whole words: a 64-byte page is fine, the check is made. */
	CHECK(page_content_zero(&c, 64, &err) == 0 && page_set_hot(&s, &c, 0, &err) == 0);
	cfg.repeat = 1;
	cfg.timer = BENCH_TIMER_WINDOW;
	CHECK(bench_measure(hash_find("jhash2"), &s, &cfg, &r, &err) == 0 && r.page_size == 64);
	bench_result_release(&r);
	page_set_release(&s);
	page_content_release(&c);

	enum bench_timer t;
	CHECK(bench_timer_parse("rdtsc", &t, &err) == 0 && t == BENCH_TIMER_RDTSC);
	CHECK(bench_timer_parse("tsc", &t, &err) == -1 && strstr(err.msg, "unknown timer"));
	CHECK_STR(bench_timer_name(BENCH_TIMER_JIFFIES), "jiffies");
}

void test_bench_stop_request(void)
{
	const struct hash_impl *h = hash_find("xxh64");
	struct bench_config cfg;
	struct page_set set;
	struct page_content content;
	struct bench_result r;
	struct kb_err err;

	CHECK(bench_stop_requested() == 0);
	CHECK(page_content_zero(&content, 4096, &err) == 0);
	CHECK(page_set_hot(&set, &content, 0, &err) == 0);
	page_content_release(&content);
	bench_config_default(&cfg);
	cfg.window_ns = 1000000;
	cfg.warmup_ns = 100000;
	cfg.repeat = 3;
	/* Requested before the start: nothing measured, no error. */
	bench_stop_request(SIGINT);
	CHECK(bench_stop_requested() == SIGINT);
	CHECK(bench_measure(h, &set, &cfg, &r, &err) == 0 && r.repeats == 0 && r.interrupted &&
	      r.repeats_requested == 3 && r.rounds == NULL);
	bench_stop_reset();
	CHECK(bench_measure(h, &set, &cfg, &r, &err) == 0 && r.repeats == 3 && !r.interrupted);
	/* The summary is over the rounds used: the undisturbed ones (all when every one is). */
	for (unsigned i = 0; i < 3; i++)
		CHECK((r.rounds[i].disturbed && r.rounds_disturbed < 3) ||
		      (r.rounds[i].ns_per_page >= r.ns_per_page.min && r.rounds[i].ns_per_page <= r.ns_per_page.max));
	bench_result_release(&r);
	page_set_release(&set);
}

/* A hash that counts its calls and says which page it was given. */
static unsigned ksmd_calls;
static uint64_t page_tag(const void *buf, size_t len)
{
	(void)len;
	ksmd_calls++;
	return *(const unsigned char *)buf;
}

/* The ksmd cycle: the first page alone, the rest in up to four batches of
 * near-equal size; a batch whose ticks per page are over 1.5x the median
 * batch's, and a first page over 8x, are left out of the cycle's figure,
 * their pages counted. */
void test_bench_ksmd_cycle(void)
{
	static unsigned char pages[5][64];
	const unsigned char *order[5];
	struct page_set set = { .order = order, .count = 5, .page_size = 64 };
	struct ksmd_cycle_ticks t;
	uint64_t sink = 0;
	size_t pos = 3;
	unsigned left = 0;

	for (unsigned i = 0; i < 5; i++) {
		pages[i][0] = (unsigned char)(1u << i);
		order[i] = pages[i];
	}
	loop_ksmd_cycle(page_tag, &set, &pos, 11, 0, &t, &sink);
	CHECK(ksmd_calls == 11 && pos == (3 + 11) % 5 && t.batches == 4);
	CHECK(t.batch_pages[0] == 3 && t.batch_pages[1] == 3 && t.batch_pages[2] == 2 && t.batch_pages[3] == 2);
	CHECK(sink == 1u << 3); /* pages 3,4,0,1,2 twice, then 3: every call's result folded in */
	ksmd_calls = 0;
	loop_ksmd_cycle(page_tag, &set, &pos, 3, 0, &t, &sink);
	CHECK(ksmd_calls == 3 && t.batches == 2 && t.batch_pages[0] == 1 && t.batch_pages[1] == 1);
	loop_ksmd_cycle(page_tag, &set, &pos, 1, 0, &t, &sink);
	CHECK(t.batches == 0);
	/* The same calls, in order, where a flushed set's translations are
	 * loaded between the first page and the batches (wrapping with the
	 * order), and apart (a fence after each call of the batches). */
	for (int apart = 0; apart < 2; apart++) {
		set.flushed = !apart;
		pos = 3;
		sink = 0;
		ksmd_calls = 0;
		loop_ksmd_cycle(page_tag, &set, &pos, 11, apart, &t, &sink);
		CHECK(ksmd_calls == 11 && pos == (3 + 11) % 5 && t.batches == 4 && sink == 1u << 3);
	}
	CHECK(pages[2][0] == 1u << 2 && pages[4][0] == 1u << 4);

	/* 100 pages: the first, then 4 x 25 at 100 ticks each; overhead 50 once. */
	struct ksmd_cycle_ticks c = { .first = 500, .batch = { 2500, 2500, 2500, 2500 },
				      .batch_pages = { 25, 25, 25, 24 }, .batches = 4 };
	c.batch[3] = 2400;
	CHECK(NEAR(ksmd_cycle_ticks_per_page(&c, 50, 0, &left), (500.0 + 9900 - 50) / 100, 1e-9) && left == 0);
	c.batch[1] = 2500 + 50000; /* an interrupt of 50000 ticks */
	CHECK(NEAR(ksmd_cycle_ticks_per_page(&c, 50, 0, &left), (500.0 + 7400 - 50) / 75, 1e-9) && left == 25);
	c.batch[1] = (uint64_t)(2500 * 1.5); /* at the threshold: kept */
	CHECK(NEAR(ksmd_cycle_ticks_per_page(&c, 50, 0, &left), (500.0 + 11150 - 50) / 100, 1e-9) && left == 25);
	c.first = 8 * 100 + 1; /* over 8x the median batch's page: interrupted */
	CHECK(NEAR(ksmd_cycle_ticks_per_page(&c, 50, 0, &left), (11150.0 - 50) / 99, 1e-9) && left == 26);
	c.first = 8 * 100;
	CHECK(NEAR(ksmd_cycle_ticks_per_page(&c, 50, 0, &left), (800.0 + 11150 - 50) / 100, 1e-9) && left == 26);
	/* Apart: the fence (10 ticks) off each page of the batches kept, not
	 * off the first, which the counter's reads fence. */
	CHECK(NEAR(ksmd_cycle_ticks_per_page(&c, 50, 10, &left), (800.0 + 11150 - 50 - 10 * 99) / 100, 1e-9) &&
	      left == 26);
	c.batches = 0; /* one page: nothing to judge it against */
	c.first = 1000000;
	CHECK(NEAR(ksmd_cycle_ticks_per_page(&c, 50, 0, &left), 1000000 - 50, 1e-9) && left == 26);
}

/* Calls apart: the same calls and results as back to back, a fence's cost
 * that is a time (never below 0), and a call's time less it floored at a
 * hundredth of what was timed. */
void test_bench_apart(void)
{
	unsigned char pages[3][64] = { { 1 }, { 2 }, { 4 } };
	const unsigned char *order[3] = { pages[0], pages[1], pages[2] };
	size_t i = 1, j = 1;

	ksmd_calls = 0;
	uint64_t a = timed_calls(page_tag, order, 3, 64, 7, &i), b = timed_calls_apart(page_tag, order, 3, 64, 7, &j);
	CHECK(a == b && i == j && i == (1 + 7) % 3 && ksmd_calls == 14);
	if (bench_fence_available()) {
		double f = bench_fence_overhead_ns();
		CHECK(isfinite(f) && f >= 0 && f < 1e6);
	}
	CHECK(bench_less_fence(100, 30) == 70 && bench_less_fence(100, 99.5) == 1 && bench_less_fence(100, 200) == 1);
	CHECK(bench_less_fence(100, 0) == 100);
}

/* The batch log: sized for the round, the batches over 1.5 times the
 * median left out (at it: kept), nothing logged past its end. */
void test_bench_batch_log(void)
{
	struct batch_log l;

	CHECK(batch_log_open(&l, 1000, 100) == 0 && l.cap == 2 * 10 + 256 && l.n == 0);
	CHECK(batch_log_uninterrupted_ns(&l, 0, 0) == 0); /* nothing logged */
	const uint64_t four[] = { 100, 5000, 102, 98 }; /* one interrupted */
	for (size_t i = 0; i < 4; i++)
		batch_log_add(&l, four[i]);
	CHECK(NEAR(batch_log_uninterrupted_ns(&l, 0, 0), 100, 1e-9)); /* median 101: 98, 100, 102 kept */
	l.n = 0;
	const uint64_t edge[] = { 100, 150, 151, 100, 100 };
	for (size_t i = 0; i < 5; i++)
		batch_log_add(&l, edge[i]);
	CHECK(NEAR(batch_log_uninterrupted_ns(&l, 0, 0), 450.0 / 4, 1e-9)); /* 150 kept, 151 not */
	l.n = 0;
	/* An even count's median is the mean of the middle two (120, limit
	 * 180: 200 left out), not the upper one (140, limit 210: all kept, 135). */
	const uint64_t even[] = { 100, 200, 140, 100 };
	for (size_t i = 0; i < 4; i++)
		batch_log_add(&l, even[i]);
	CHECK(NEAR(batch_log_uninterrupted_ns(&l, 0, 0), 340.0 / 3, 1e-9));
	l.n = 0;
	for (size_t i = 0; i < 1000; i++)
		batch_log_add(&l, i < 300 ? 1ull << 40 : 7); /* clamped; the first 276 logged */
	CHECK(l.n == l.cap && l.ns[0] == UINT32_MAX);
	CHECK(batch_log_uninterrupted_ns(&l, 0, 0) == UINT32_MAX); /* every logged batch alike: all kept */
	/* A round that outran its log: the batches past it count, unjudged
	 * (the log of four above, one interrupted, and six more of 50 each). */
	l.n = 0;
	for (size_t i = 0; i < 4; i++)
		batch_log_add(&l, four[i]);
	CHECK(NEAR(batch_log_uninterrupted_ns(&l, 6, 300), (300.0 + 300) / 9, 1e-9));
	batch_log_close(&l);
	CHECK(l.ns == NULL && l.cap == 0);
	CHECK(batch_log_open(&l, 1e12, 1) == 0 && l.cap == BATCH_LOG_MAX);
	batch_log_close(&l);
}

/* Flushing (a range, or the first line of each page to load its
 * translation) changes no byte, covers ranges at any offset, and is offered
 * where the build's architecture has it (every build tested: x86, arm64). */
void test_bench_cache_flush(void)
{
	unsigned char buf[3 * 4096 + 64];
	int available = cache_flush_available();

#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
	CHECK(available == 1);
#endif
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 131u + 7u);
	CHECK(cache_flush(buf + 5, 2 * 4096 + 17) == (available ? 0 : -1));
	CHECK(cache_flush(buf, 0) == (available ? 0 : -1));
	CHECK(cache_flush(buf + sizeof(buf) - 1, 1) == (available ? 0 : -1));
	const unsigned char *starts[3] = { buf, buf + 4096, buf + 2 * 4096 + 9 };
	CHECK(cache_warm_translations(starts, 3) == (available ? 0 : -1));
	CHECK(cache_warm_translations(starts, 0) == (available ? 0 : -1));
	int same = 1;
	for (size_t i = 0; i < sizeof(buf); i++)
		same &= buf[i] == (unsigned char)(i * 131u + 7u);
	CHECK(same);

	/* The ksmd timer flushes where it can; no other timer does. */
	struct bench_config cfg;
	bench_config_default(&cfg);
	CHECK(bench_timer_flushes(&cfg) == 0);
	cfg.timer = BENCH_TIMER_KSMD;
	CHECK(bench_timer_flushes(&cfg) == available);
	cfg.timer = BENCH_TIMER_RDTSC;
	CHECK(bench_timer_flushes(&cfg) == 0);
}

/* The default CPU: the highest-numbered of the fastest allowed, each
 * allowed CPU timed, and the process's affinity as before. */
void test_bench_pin(void)
{
	const char *rule = NULL;
	struct kb_err err;
	cpu_set_t allowed, after;
	int highest = -1, nallowed = 0;
	unsigned n;

	CHECK(sched_getaffinity(0, sizeof(allowed), &allowed) == 0);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &allowed))
			highest = cpu, nallowed++;
	int chosen = pin_choose(-1, &rule, &err);
	CHECK(chosen >= 0 && CPU_ISSET(chosen, &allowed) &&
	      strcmp(rule, nallowed > 1 ? PIN_RULE_DEFAULT : PIN_RULE_ONLY) == 0);
	CHECK(sched_getaffinity(0, sizeof(after), &after) == 0 && CPU_EQUAL(&after, &allowed));
	const struct pin_probe *p = pin_probes(&n);
	CHECK(n == (nallowed > 1 ? (unsigned)nallowed : 0));
	for (unsigned i = 0; i < n; i++)
		CHECK(CPU_ISSET(p[i].cpu, &allowed) && p[i].adds_per_ns > 0 && (i == 0 || p[i].cpu > p[i - 1].cpu) &&
		      p[i].busy_share >= -1 && p[i].busy_share <= 1);
	CHECK(n == 0 || p[pin_pick(p, n)].cpu == chosen);
	CHECK(pin_choose(highest, &rule, &err) == highest && strcmp(rule, PIN_RULE_ASKED) == 0);
	CHECK(pin_probes(&n) && n == 0);
	CHECK(pin_choose(CPU_SETSIZE + 5, &rule, &err) == -1 && strstr(err.msg, "does not exist"));
	/* Under a narrower mask the rule follows it, and one CPU is not timed. */
	if (highest > 0) {
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(0, &one);
		CHECK(sched_setaffinity(0, sizeof(one), &one) == 0);
		CHECK(pin_choose(-1, &rule, &err) == 0 && strcmp(rule, PIN_RULE_ONLY) == 0 && pin_probes(&n) && n == 0);
		CHECK(pin_choose_again() == -1);
		CHECK(pin_choose(highest, &rule, &err) == -1 && strstr(err.msg, "not available"));
		CHECK(sched_setaffinity(0, sizeof(allowed), &allowed) == 0);
	}
}

/* pin_pick on readings: alike cores give the highest-numbered, a slower
 * one (beyond PIN_EQUAL_SHARE) is passed over, unread ones never win, and
 * a busy CPU only when every one is busy. */
void test_bench_pin_pick(void)
{
	static const struct {
		double tp[3], busy[3];
		unsigned n, want;
	} cases[] = {
		{ { 50, 50 }, { 0, 0 }, 2, 1 },         /* alike: the highest */
		{ { 52, 49 }, { 0, 0 }, 2, 1 },         /* 6% apart: still alike */
		{ { 52.7, 43.0 }, { 0, 0 }, 2, 0 },     /* a busy sibling on CPU 1 (the Zen 5 VM) */
		{ { 40, 52, 50 }, { 0, 0, 0 }, 3, 2 },  /* the fast ones alike, the slow one passed */
		{ { 52, 30, 30 }, { 0, 0, 0 }, 3, 0 },  /* two efficiency cores */
		{ { 0, 50 }, { 0, 0 }, 2, 1 },
		{ { 50, 0 }, { 0, 0 }, 2, 0 },          /* not read: never chosen */
		{ { 0, 0, 0 }, { 0, 0, 0 }, 3, 2 },     /* nothing read: the highest */
		{ { 50 }, { 0 }, 1, 0 },
		{ { 52, 40 }, { 1, 0 }, 2, 1 },         /* the faster one runs other work */
		{ { 50, 50 }, { 0, 0.5 }, 2, 0 },       /* PIN_BUSY_SHARE is busy */
		{ { 50, 50 }, { 0, 0.49 }, 2, 1 },
		{ { 50, 50 }, { -1, -1 }, 2, 1 },       /* not known: not busy */
		{ { 52, 40, 50 }, { 1, 1, 1 }, 3, 2 },  /* all busy: as if none were */
		{ { 40, 52, 52 }, { 0, 1, 1 }, 3, 0 },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct pin_probe p[3];
		for (unsigned i = 0; i < cases[c].n; i++)
			p[i] = (struct pin_probe){ .cpu = (int)i * 2, .adds_per_ns = cases[c].tp[i],
						   .busy_share = cases[c].busy[i] };
		CHECK(pin_pick(p, cases[c].n) == cases[c].want);
	}
}

/* A CPU timed after the thread waited is settled for as long as it
 * waited, up to 20 ms (the kernel's largest lag, two slices or a 10 ms
 * tick, spent at half speed against a task of equal weight); one timed
 * after no wait is not settled at all. */
void test_bench_pin_settle(void)
{
	CHECK(pin_settle_ns(0) == 0);
	CHECK(pin_settle_ns(1) == 1);
	CHECK(pin_settle_ns(4200000) == 4200000);
	CHECK(pin_settle_ns(20000000) == 20000000);
	CHECK(pin_settle_ns(20000001) == 20000000);
	CHECK(pin_settle_ns(UINT64_MAX) == 20000000);
}

/* The CPUs timed again before each process: every one up to
 * PIN_AGAIN_MAX, else the best ranked (free, fastest, highest), in CPU
 * order, their readings cleared. */
void test_bench_pin_again(void)
{
	struct pin_probe first[40], out[PIN_AGAIN_MAX];
	unsigned n;

	for (unsigned i = 0; i < 3; i++)
		first[i] = (struct pin_probe){ .cpu = (int)i + 4, .adds_per_ns = 50.0 - i, .busy_share = 0.2 };
	CHECK((n = pin_again_list(first, 3, out)) == 3);
	for (unsigned i = 0; i < n; i++)
		CHECK(out[i].cpu == (int)i + 4 && out[i].adds_per_ns == 0 && out[i].busy_share == -1);
	/* 40 CPUs: 30 alike, CPUs 3, 7, ... 39 slower, CPU 38 and 39 busy. */
	for (unsigned i = 0; i < 40; i++)
		first[i] = (struct pin_probe){ .cpu = (int)i, .adds_per_ns = i % 4 == 3 ? 40 : 50,
					       .busy_share = i >= 38 ? 0.9 : 0 };
	first[5].adds_per_ns = 51;
	CHECK((n = pin_again_list(first, 40, out)) == PIN_AGAIN_MAX);
	static const int want[PIN_AGAIN_MAX] = { 5, 29, 30, 32, 33, 34, 36, 37 };
	for (unsigned i = 0; i < n; i++)
		CHECK(out[i].cpu == want[i] && out[i].adds_per_ns == 0);
}

/* A plan of two page sets, two hashes each: four results in order, with
 * their progress events; a stop request ends it with what was measured. */
struct progress_log {
	unsigned events, notes, bad, steps_seen;
};

static void log_progress(void *arg, const struct bench_progress *p)
{
	struct progress_log *log = arg;

	log->events++;
	log->notes += p->note != NULL;
	if (!p->note) {
		log->bad += p->slot < 1 || p->slot > p->slots || p->slots != 4 || p->round > p->rounds ||
			    p->process != 1 || p->processes != 1 || p->measurement != (p->step - 1) * 2 + (p->hash == hash_find("jhash2"));
		log->steps_seen |= 1u << p->step;
	}
}

void test_bench_run(void)
{
	const struct hash_impl *hashes[] = { hash_find("xxh64"), hash_find("jhash2") };
	struct bench_step steps[2];
	struct bench_results out = { 0 };
	struct progress_log log = { 0 };
	struct kb_err err;

	for (int i = 0; i < 2; i++) {
		bench_config_default(&steps[i].cfg);
		steps[i].cfg.window_ns = 1000000;
		steps[i].cfg.warmup_ns = 100000;
		steps[i].cfg.repeat = 2;
		steps[i].set = (struct page_set_request){ .data = i ? "random" : "zero", .page_size = 1024, .seed = 3,
							  .cold = i, .working_set_bytes = 1 << 20 };
		steps[i].building_note = i ? "building" : NULL;
	}
	steps[1].cfg.timer = BENCH_TIMER_RDTSC;
	struct bench_plan plan = { .steps = steps, .nsteps = 2, .hashes = hashes, .nhashes = 2, .processes = 1,
				   .seed = 1 };
	CHECK(bench_run(&plan, log_progress, &log, &out, &err) == 0);
	CHECK(out.n == 4 && out.planned == 4);
	CHECK(out.n == 4 && strcmp(out.items[0].hash, "xxh64") == 0 && strcmp(out.items[1].data, "zero") == 0 &&
	      strcmp(out.items[2].cache, "cold") == 0 && out.items[3].timer == BENCH_TIMER_RDTSC &&
	      out.items[3].working_set_bytes == 1 << 20 && out.items[3].rounds != NULL);
	/* Both sets held at once: one note, then 2 rounds of 4 turns. */
	CHECK(log.events == 4 * 2 + 1 && log.notes == 1 && log.bad == 0 && log.steps_seen == 6);
	bench_results_free(&out);
	CHECK(out.n == 0 && out.items == NULL);

	bench_stop_request(SIGTERM);
	CHECK(bench_run(&plan, NULL, NULL, &out, &err) == 0 && out.n == 0 && out.planned == 4);
	bench_stop_reset();
	bench_results_free(&out);

	/* Steps of 2 and 3 rounds held at once: the third round has the
	 * second step's turns only, each measurement as many rounds as its
	 * step asks (not a round past them), in the round order. */
	steps[1].cfg.repeat = 3;
	CHECK(bench_run(&plan, NULL, NULL, &out, &err) == 0 && out.n == 4);
	for (size_t m = 0; m < out.n; m++) {
		unsigned want = m < 2 ? 2 : 3, last = 0;
		CHECK(out.items[m].repeats == want);
		for (unsigned i = 0; i < out.items[m].repeats; i++)
			last = out.items[m].rounds[i].round;
		CHECK(last == want - 1);
	}
	bench_results_free(&out);
	steps[1].cfg.repeat = 2;

	steps[0].set.data = "/nonexistent/ksmbench-pages";
	CHECK(bench_run(&plan, NULL, NULL, &out, &err) == -1 && strstr(err.msg, "/nonexistent"));
	bench_results_free(&out);
}

/* Writes text to root/rel, making the directories on the way. */
static void put(const char *root, const char *rel, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

void test_bench_cpu_quota(void)
{
	char root[] = "/tmp/ksmbench-cgroup-XXXXXX", cg[600], cmd[700];
	struct cpu_quota q;

	CHECK(mkdtemp(root) != NULL);
	snprintf(cg, sizeof(cg), "%s/self-cgroup", root);
	/* v1: the tightest of the cgroup and its ancestors; -1 is no limit. */
	put(root, "self-cgroup", "4:memory:/x\n3:cpu,cpuacct:/pod/ctr\n0::/pod/ctr\n");
	put(root, "fs/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
	put(root, "fs/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
	put(root, "fs/cpu,cpuacct/pod/cpu.cfs_quota_us", "150000\n");
	put(root, "fs/cpu,cpuacct/pod/cpu.cfs_period_us", "100000\n");
	put(root, "fs/cpu,cpuacct/pod/ctr/cpu.cfs_quota_us", "-1\n");
	put(root, "fs/cpu,cpuacct/pod/ctr/cpu.cfs_period_us", "100000\n");
	snprintf(cmd, sizeof(cmd), "%s/fs", root);
	cpu_quota_find(cg, cmd, &q);
	CHECK(q.cpus == 1.5 && q.quota_us == 150000 && q.period_us == 100000 && strcmp(q.file, "cpu.cfs_quota_us") == 0);
	put(root, "fs/cpu,cpuacct/pod/ctr/cpu.cfs_quota_us", "25000\n");
	put(root, "fs/cpu,cpuacct/pod/ctr/cpu.cfs_period_us", "50000\n");
	cpu_quota_find(cg, cmd, &q);
	CHECK(q.cpus == 0.5 && q.period_us == 50000);
	/* v2 (the hybrid layout's unified tree too): "max" is no limit. */
	put(root, "self-cgroup", "0::/a/b\n");
	put(root, "fs/a/cpu.max", "max 100000\n");
	put(root, "fs/a/b/cpu.max", "max 100000\n");
	cpu_quota_find(cg, cmd, &q);
	CHECK(q.cpus == 0);
	put(root, "fs/unified/a/cpu.max", "200000 100000\n");
	put(root, "fs/a/b/cpu.max", "75000 100000\n");
	cpu_quota_find(cg, cmd, &q);
	CHECK(q.cpus == 0.75 && strcmp(q.file, "cpu.max") == 0);
	/* The hybrid layout's unified tree alone, its limit the tightest. */
	put(root, "fs/a/b/cpu.max", "max 100000\n");
	put(root, "fs/unified/a/cpu.max", "40000 100000\n");
	cpu_quota_find(cg, cmd, &q);
	CHECK(q.cpus > 0.39 && q.cpus < 0.41 && q.quota_us == 40000); /* 0.4: no exact binary */
	/* Nothing to read, garbage, a quota of 0: no limit, no error. */
	put(root, "fs/a/b/cpu.max", "0 100000\n");
	put(root, "fs/unified/a/cpu.max", "garbage\n");
	cpu_quota_find(cg, cmd, &q);
	CHECK(q.cpus == 0);
	put(root, "self-cgroup", "no colons here\n1:cpu\n::\n");
	cpu_quota_find(cg, cmd, &q);
	CHECK(q.cpus == 0);
	snprintf(cg, sizeof(cg), "%s/missing", root);
	cpu_quota_find(cg, cmd, &q);
	CHECK(q.cpus == 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}
