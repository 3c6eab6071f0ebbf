/* The thread's verdict (report/thread_verdict.c) on known rows, and the
 * line wrapping that keeps the text reports within a terminal's width
 * (report/text_wrap.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/kinds.h"
#include "../../report/text_wrap.h"
#include "../../report/thread.h"
#include "../../bench/disturb.h"
#include "../../bench/interference.h"
#include "check.h"
#include "groups.h"

static char *wrapped(const char *prefix, const char *text, unsigned width)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return NULL;
	report_wrapped(f, prefix, text, width);
	fclose(f);
	return buf;
}

void test_thread_wrap(void)
{
	char *s = wrapped("warning: ", "one two three four five", 20);
	CHECK_STR(s, "warning: one two\n  three four five\n");
	free(s);
	s = wrapped("", "short", 20);
	CHECK_STR(s, "short\n");
	free(s);
	/* A word longer than the line is left whole; no limit with width 0. */
	s = wrapped("", "a verylongwordthatdoesnotfit b", 10);
	CHECK_STR(s, "a\n  verylongwordthatdoesnotfit\n  b\n");
	free(s);
	s = wrapped("x: ", "one two three four five six seven", 0);
	CHECK_STR(s, "x: one two three four five six seven\n");
	free(s);
	/* Every line within the width. */
	s = wrapped("warning: ", "the TSC advances in steps of 26 ticks: rdtsc times a call shorter than 100 steps "
				 "in batches of calls (bench's table says which)", 40);
	int ok = s != NULL;
	for (char *line = s, *nl; ok && (nl = strchr(line, '\n')); line = nl + 1)
		ok = nl - line <= 40;
	CHECK(ok);
	free(s);
}

/* A ksmd-style result with one round of process 0, round 0. */
static void result(struct bench_result *r, struct bench_round *round, const char *hash, double ns)
{
	memset(r, 0, sizeof(*r));
	r->hash = r->impl = hash;
	r->timer = BENCH_TIMER_RDTSC;
	r->ns_per_page.median = r->ns_per_page.best = ns;
	r->repeats = 1;
	r->rounds = round;
	*round = (struct bench_round){ .ns_per_page = ns, .calls = 1 };
}

/* thread_verdict_text's plain text of doc, or NULL if it failed. */
/* buf with its wrapped lines joined again ("\n  " to " "), in place. */
static char *unwrap(char *buf)
{
	char *to = buf;

	for (const char *from = buf; *from; from++) {
		if (from[0] == '\n' && from[1] == ' ' && from[2] == ' ') {
			*to++ = ' ';
			from += 2;
			continue;
		}
		*to++ = *from;
	}
	*to = '\0';
	return buf;
}

static char *verdict_text(const struct report_document *doc)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	int rc = f ? thread_verdict_text(f, doc, REPORT_PLAIN) : -1;

	if (f)
		fclose(f);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

void test_thread_verdict(void)
{
	struct bench_result r[4];
	struct bench_round rounds[4];
	struct thread_row rows[4];
	struct thread_verdict v;
	const struct thread_ksmd k = { { 100, 20, 250, 1, 1 }, "sysfs", "/sys/kernel/mm/ksm", 0, 0 };
	const struct thread_contender c[4] = {
		{ "crc32c-3way", &thread_published[0], 1, 0 },
		{ "xxh64", &thread_published[1], 1, 0 },
		{ "jhash2", &thread_published[3], 1, 0 },
		{ "xxh3-avx2", NULL, 0, 0 },
	};

	result(&r[0], &rounds[0], "crc32c-3way", 500);
	result(&r[1], &rounds[1], "xxh64", 1000);
	result(&r[2], &rounds[2], "jhash2", 2000);
	result(&r[3], &rounds[3], "xxh3-avx2", 250);
	r[3].unstable = STABILITY_SPREAD;
	thread_rows_build(c, 4, r, 4, rows);
	CHECK_STR(rows[0].hash, "crc32c");
	CHECK_STR(rows[3].hash, "xxh3-avx2");
	thread_verdict_build(rows, 4, r, 4, "xxhash", "xxh64", &k, &v);
	CHECK(v.today == &rows[1] && v.kernel_best == &rows[0] && v.outside_best == &rows[3]);
	CHECK(v.kernel_x == 2 && v.outside_x == 4);
	/* 100 pages of 1 us, then 20 ms asleep: a batch every 24 ms at HZ 250. */
	CHECK(fabs(v.today_cpu_share - 0.1 / 24) < 1e-12);
	CHECK(thread_cpu_share(1000, &(struct thread_ksmd){ { 100, 0, 250, 1, 1 }, "defaults", NULL, 0, 0 }) == 1);
	CHECK(thread_cpu_share(0, &k) == 0);
	CHECK(v.unstable == 1 && v.results == 4 && v.unstable_kinds == STABILITY_SPREAD);

	/* The text: three lines of answer, the settings, and why not to trust it. */
	struct bench_context ctx;
	memset(&ctx, 0, sizeof(ctx));
	struct report_document doc = { .kind = REPORT_THREAD, .ctx = &ctx, .results = r, .nresults = 4,
				       .rows = rows, .nrows = 4, .verdict = &v };
	char *buf = verdict_text(&doc);
	CHECK(buf);
	const char *first = "KSM today: xxhash (xxh64 here), 1000 ns/page in ksmd's pattern, 0.42% of a CPU at "
			    "100 pages/20 ms.\n";
	CHECK(buf && strncmp(buf, first, strlen(first)) == 0);
	CHECK(buf && strstr(buf, "\nThe fastest the kernel has here: crc32c (crc32c-3way), 2.00x faster, 0.21% of a CPU.\n"));
	CHECK(buf && strstr(buf, "\nFastest outside the kernel: xxh3-avx2, 4.00x faster, 0.10% of a CPU.\n"));
	CHECK(buf && strstr(unwrap(buf), "read from /sys/kernel/mm/ksm), a batch every 24 ms at HZ 250;"));
	/* Neither given: both settings, then their one source. */
	CHECK(buf && strstr(unwrap(buf), "Settings: pages_to_scan 100, sleep_millisecs 20 (read from /sys/kernel/mm/ksm), "
					 "a batch"));
	CHECK(buf && strstr(buf, "Cannot be trusted: 1 of 4 results unstable: spread over processes."));
	free(buf);
	/* Settings read from KSMBENCH_KSM_DIR are said to come from there. */
	v.ksmd.dir = "/tmp/ksm-settings";
	buf = verdict_text(&doc);
	CHECK(buf && strstr(buf, "read from /tmp/ksm-settings)") && !strstr(buf, "/sys/kernel/mm/ksm"));
	free(buf);
	/* Its name is shown, never obeyed: the terminal got it as it was. */
	v.ksmd.dir = "/tmp/k\033[31m\nx";
	buf = verdict_text(&doc);
	CHECK(buf && strstr(buf, "read from /tmp/k\\x1b[31m\\x0ax)") && !strchr(buf, '\033'));
	free(buf);
	v.ksmd.dir = k.dir;
	/* Given as options: said so; 1000 pages of 1 us, a batch every 16 ms
	 * at sleep 10 (3 jiffies, fired a tick late). */
	v.ksmd.given = KSMD_GIVEN_PAGES | KSMD_GIVEN_SLEEP;
	v.ksmd.s.pages_to_scan = 1000;
	v.ksmd.s.sleep_ms = 10;
	buf = verdict_text(&doc);
	CHECK(buf && strstr(buf, "pages_to_scan 1000, sleep_millisecs 10 (given), a batch every 16 ms at HZ 250;"));
	CHECK(strcmp(thread_settings_source(&v.ksmd), "options") == 0);
	free(buf);
	/* One given, the other read: each said where it came from. */
	v.ksmd.given = KSMD_GIVEN_PAGES;
	buf = verdict_text(&doc);
	CHECK(buf && strstr(unwrap(buf), "pages_to_scan 1000 (given), sleep_millisecs 10 (read from /sys/kernel/mm/ksm),"));
	CHECK(strcmp(thread_settings_source(&v.ksmd), "options+sysfs") == 0);
	free(buf);
	v.ksmd.given = KSMD_GIVEN_SLEEP;
	v.ksmd.from = "defaults";
	buf = verdict_text(&doc);
	CHECK(buf && strstr(unwrap(buf), "pages_to_scan 1000 (the kernel's defaults), sleep_millisecs 10 (given),"));
	CHECK(strcmp(thread_settings_source(&v.ksmd), "options+defaults") == 0);
	free(buf);
	v.ksmd.from = k.from;
	/* No sleep (5.0+): the period is the work alone, said in fractions of
	 * a ms, and every share is a whole CPU: said why. */
	v.ksmd.s.sleep_ms = 0;
	buf = verdict_text(&doc);
	CHECK(buf && strstr(unwrap(buf), "a batch every 1 ms at HZ 250 (sleep_millisecs 0: ksmd never sleeps, so every share "
					 "reads 100% of a CPU"));
	free(buf);
	v.ksmd.s.pages_to_scan = 100;
	buf = verdict_text(&doc);
	CHECK(buf && strstr(unwrap(buf), "a batch every 0.1 ms at HZ 250"));
	free(buf);
	/* KSM off as well: both said, in one parenthesis. */
	v.ksmd.ksm_off = 1;
	buf = verdict_text(&doc);
	CHECK(buf && strstr(unwrap(buf), "(KSM is off, run=0: the shares are what ksmd would spend; sleep_millisecs 0: "
					 "ksmd never sleeps"));
	free(buf);
	v.ksmd.ksm_off = 0;
	/* JSON's batch_period_ms is the period with the batch's work: 100
	 * pages of today's 1 us, no sleep: 0.1 ms. */
	struct record_value period;
	struct record_row vrow = { &v, NULL, 0 };
	CHECK(record_get(&thread_verdict_schema, record_find(&thread_verdict_schema, "batch_period_ms"), &vrow,
			 &period) == 1 && fabs(period.real - 0.1) < 1e-12);
	v.ksmd.s.zero_sleep_skips = 0; /* before 5.0: to the next tick */
	buf = verdict_text(&doc);
	CHECK(buf && strstr(unwrap(buf), "a batch every 4 ms at HZ 250;") && !strstr(buf, "never sleeps"));
	free(buf);
	/* A period of 10 ms or more in whole ms: HZ 300, 20 ms is 7 jiffies of
	 * 3.33 ms (23.3 ms). */
	v.ksmd.s = (struct ksmd_schedule){ 100, 20, 300, 1, 1 };
	buf = verdict_text(&doc);
	CHECK(buf && strstr(unwrap(buf), "a batch every 23 ms at HZ 300;"));
	free(buf);
	v.ksmd.s = k.s;
	v.ksmd.given = 0;
	v.ksmd.s.pages_to_scan = 1000;
	v.ksmd.s.sleep_ms = 10;
	/* KSM off: the shares are said to be what ksmd would spend. */
	v.ksmd.ksm_off = 1;
	buf = verdict_text(&doc);
	CHECK(buf && strstr(unwrap(buf), "at HZ 250 (KSM is off, run=0: the shares are what ksmd would spend);"));
	free(buf);
	v.ksmd = k;
	/* A round of the unstable result on a core shared while this
	 * machine's other CPUs were idle: said to come from outside it. A
	 * stable result's disturbed round is not named. */
	rounds[3].known |= INTERFERENCE_BUSY;
	rounds[3].disturbed = DISTURB_SHARED;
	rounds[2].disturbed = DISTURB_STEAL;
	doc.wide = 1; /* unwrapped */
	buf = verdict_text(&doc);
	CHECK(buf);
	CHECK(buf && strstr(buf, "spread over processes (rounds left out as disturbed by: shared-core from outside "
				 "this machine in 1 round)."));
	CHECK(buf && !strstr(buf, "steal"));
	free(buf);
	rounds[2].disturbed = rounds[3].disturbed = 0;
	doc.wide = 0;

	/* KSM's own hash the fastest the kernel has: the next one, slower. */
	result(&r[0], &rounds[0], "crc32c-3way", 5000);
	thread_rows_build(c, 4, r, 4, rows);
	thread_verdict_build(rows, 4, r, 4, "xxhash", "xxh64", &k, &v);
	CHECK(v.kernel_best == &rows[2] && v.kernel_x == 0.5);
	buf = verdict_text(&doc);
	CHECK(buf);
	CHECK(buf && strstr(buf, "\nThe fastest the kernel has here: KSM's own xxhash; next jhash2, 2.00x slower.\n"));
	free(buf);

	/* A kernel row the release lacks (posed older than its kernel.since)
	 * is left out of the verdict, however fast. */
	struct thread_contender older[4];
	memcpy(older, c, sizeof(older));
	older[0].newer_than_release = 1;
	result(&r[0], &rounds[0], "crc32c-3way", 100);
	thread_rows_build(older, 4, r, 4, rows);
	CHECK(rows[0].newer_than_release && !rows[1].newer_than_release);
	thread_verdict_build(rows, 4, r, 4, "xxhash", "xxh64", &k, &v);
	CHECK(v.today == &rows[1] && v.kernel_best == &rows[2] && v.kernel_x == 0.5);
}

/* A ksmd-style result over three processes, round 0 of each, at ns[p];
 * ns[0] is their median. */
static void result3(struct bench_result *r, struct bench_round round[3], const char *hash, const double ns[3])
{
	result(r, &round[0], hash, ns[0]);
	r->repeats = 3;
	for (unsigned p = 0; p < 3; p++)
		round[p] = (struct bench_round){ .ns_per_page = ns[p], .calls = 1, .process = p };
}

/* The verdict's text over r[0..5) as the contenders below, KSM's xxhash
 * running xxh64; rows and v are filled in. */
static char *verdict_over(struct bench_result r[5], struct thread_row rows[5], struct thread_verdict *v)
{
	static const struct thread_ksmd k = { { 100, 20, 250, 1, 1 }, "defaults", NULL, 0, 0 };
	static const struct thread_contender c[5] = {
		{ "crc32c-3way", &thread_published[0], 1, 0 },
		{ "xxh64", &thread_published[1], 1, 0 },
		{ "jhash2", &thread_published[3], 1, 0 },
		{ "xxh3-avx2", NULL, 0, 0 },
		{ "xxh32", NULL, 0, 0 }, /* outside contender, but the kernel has xxh32() */
	};
	static struct bench_context ctx;
	struct report_document doc = { .kind = REPORT_THREAD, .ctx = &ctx, .results = r, .nresults = 5,
				       .rows = rows, .nrows = 5, .verdict = v };

	thread_rows_build(c, 5, r, 5, rows);
	thread_verdict_build(rows, 5, r, 5, "xxhash", "xxh64", &k, v);
	doc.wide = 1; /* unwrapped */
	return verdict_text(&doc);
}

/* verdict_over's five results, one process each: crc32c-3way 2x today's
 * xxh64, jhash2 half, xxh3-avx2 4x, xxh32 (kernel code) 10x. */
static void verdict_results(struct bench_result r[5], struct bench_round rounds[5][3])
{
	result(&r[0], rounds[0], "crc32c-3way", 500);
	result(&r[1], rounds[1], "xxh64", 1000);
	result(&r[2], rounds[2], "jhash2", 2000);
	result(&r[3], rounds[3], "xxh3-avx2", 250);
	result(&r[4], rounds[4], "xxh32", 100);
}

/* Edges of the verdict, each pinned because a mutant of thread_verdict.c
 * survived the test above. */
void test_thread_verdict_edges(void)
{
	struct bench_result r[5];
	struct bench_round rounds[5][3];
	struct thread_row rows[5];
	struct thread_verdict v;
	struct record_value val;
	const struct record_field *ci_low = record_find(&thread_verdict_schema, "kernel_best_speedup_ci_low");
	char *buf;

	verdict_results(r, rounds);

	/* xxh32 is 10x faster, but a function the kernel has is not "outside
	 * the kernel": xxh3-avx2 stays the best outside (fastest()'s
	 * kernel-function test). */
	buf = verdict_over(r, rows, &v);
	CHECK(buf && strstr(buf, "\nFastest outside the kernel: xxh3-avx2, 4.00x faster, 0.10% of a CPU.\n"));
	free(buf);
	/* One process: no interval, so no confidence bounds in the JSON
	 * (null, not the single ratio), while the speed-up itself is there. */
	struct record_row row = { &v, NULL, 0 };
	CHECK(ci_low && record_get(&thread_verdict_schema, ci_low, &row, &val) == 0);
	CHECK(record_get(&thread_verdict_schema, record_find(&thread_verdict_schema, "kernel_best_speedup"), &row,
			 &val) == 1 && val.real == 2);

	/* Slower outside the kernel is said as slower, with its CPU share:
	 * the "KSM's own ...; next" wording is the kernel line's only. */
	result(&r[3], rounds[3], "xxh3-avx2", 2000);
	buf = verdict_over(r, rows, &v);
	CHECK(buf && strstr(buf, "\nFastest outside the kernel: xxh3-avx2, 2.00x slower, 0.83% of a CPU.\n"));
	free(buf);

	/* A row with no ns/page measured (0) is never the fastest. */
	result(&r[3], rounds[3], "xxh3-avx2", 0);
	buf = verdict_over(r, rows, &v);
	CHECK(buf && strstr(buf, "\nFastest outside the kernel: none measured.\n"));
	free(buf);

	/* Within 0.5% either way is "as fast", not "1.00x faster" (1000/997 =
	 * 1.003). */
	result(&r[0], rounds[0], "crc32c-3way", 997);
	buf = verdict_over(r, rows, &v);
	CHECK(buf && strstr(buf, "\nThe fastest the kernel has here: crc32c (crc32c-3way), as fast, 0.42% of a CPU.\n"));
	free(buf);

	/* Three processes at 2, 2.06 and 1.94x: ± half the interval, one
	 * decimal below 10% (± 3.0%), none from 10% up (2, 2.4, 1.6: ± 20%);
	 * and now the JSON has the interval's bounds. */
	const double today3[3] = { 1000, 1000, 1000 };
	const double near3[3] = { 500, 1000 / 2.06, 1000 / 1.94 }, far3[3] = { 500, 1000 / 2.4, 1000 / 1.6 };
	result3(&r[1], rounds[1], "xxh64", today3);
	result3(&r[0], rounds[0], "crc32c-3way", near3);
	buf = verdict_over(r, rows, &v);
	CHECK(buf && strstr(buf, "\nThe fastest the kernel has here: crc32c (crc32c-3way), 2.00x faster (± 3.0%), "
				 "0.21% of a CPU.\n"));
	free(buf);
	CHECK(record_get(&thread_verdict_schema, ci_low, &row, &val) == 1 && val.real > 1.9399 && val.real < 1.9401);
	result3(&r[0], rounds[0], "crc32c-3way", far3);
	buf = verdict_over(r, rows, &v);
	CHECK(buf && strstr(buf, "\nThe fastest the kernel has here: crc32c (crc32c-3way), 2.00x faster (± 20%), "
				 "0.21% of a CPU.\n"));
	free(buf);
	/* The row named is the one the rounds side by side say is fastest, not
	 * the lowest median: today's xxh64 ran 1000, 2000 and 3000 ns in three
	 * processes; crc32c-3way 550, 550, 3000 (median 550: 1.82, 3.64 and 1.0x
	 * today's, median 1.82x), jhash2 600 in each (median 600: 1.67, 3.33 and
	 * 5x, median 3.33x). jhash2 is named, 3.33x faster, its share of a CPU
	 * today's 2000 ns over 3.33: 600 ns, 0.25%. */
	const double spread_today[3] = { 1000, 2000, 3000 }, low_median[3] = { 550, 550, 3000 },
		     steady[3] = { 600, 600, 600 };
	result3(&r[1], rounds[1], "xxh64", spread_today);
	r[1].ns_per_page.median = 2000;
	result3(&r[0], rounds[0], "crc32c-3way", low_median);
	r[0].ns_per_page.median = 550;
	result3(&r[2], rounds[2], "jhash2", steady);
	r[2].ns_per_page.median = 600;
	buf = verdict_over(r, rows, &v);
	CHECK(buf && strstr(buf, "\nThe fastest the kernel has here: jhash2, 3.33x faster"));
	CHECK(v.kernel_best == &rows[2] && fabs(v.kernel_x - 10.0 / 3) < 1e-9 &&
	      fabs(v.kernel_cpu_share - 0.06 / 24) < 1e-12);
	free(buf);
	/* An interval that holds 1 (1.25, 0.95 and 1.11x today's): said to be
	 * within the noise. */
	const double flat[3] = { 1000, 1000, 1000 }, slow[3] = { 2000, 2000, 2000 }, near1[3] = { 800, 1050, 900 };
	result3(&r[1], rounds[1], "xxh64", flat);
	result3(&r[2], rounds[2], "jhash2", slow);
	result3(&r[0], rounds[0], "crc32c-3way", near1);
	r[0].ns_per_page.median = 900;
	buf = verdict_over(r, rows, &v);
	CHECK(buf && v.kernel_best == &rows[0] && v.kernel_x_interval.low < 1 && v.kernel_x_interval.high > 1 &&
	      strstr(buf, "\nThe fastest the kernel has here: crc32c (crc32c-3way), 1.11x faster (± ") &&
	      strstr(buf, "%: within the noise), "));
	free(buf);
}

/* The rows a block's fastest cannot be told from, side by side, named
 * beside it (ties_of). */
void test_thread_verdict_ties(void)
{
	struct bench_result r[5];
	struct bench_round rounds[5][3];
	struct thread_row rows[5];
	struct thread_verdict v;
	struct record_value val;
	const struct record_field *ties = record_find(&thread_verdict_schema, "kernel_best_ties");
	struct record_row row = { &v, NULL, 0 };
	char *buf;

	/* crc32c-3way 2x today's xxh64 (500, 520, 480 ns against 1000);
	 * jhash2 1.92x (520, 490, 530): crc32c-3way over jhash2 per process
	 * 1.04, 0.94 and 1.10, an interval that holds 1. */
	const double today[3] = { 1000, 1000, 1000 }, crc[3] = { 500, 520, 480 }, near[3] = { 520, 490, 530 },
		     slower[3] = { 700, 700, 700 };
	result3(&r[0], rounds[0], "crc32c-3way", crc);
	result3(&r[1], rounds[1], "xxh64", today);
	result3(&r[2], rounds[2], "jhash2", near);
	result(&r[3], rounds[3], "xxh3-avx2", 250);
	result(&r[4], rounds[4], "xxh32", 100);
	buf = verdict_over(r, rows, &v);
	CHECK(buf && v.kernel_best == &rows[0] && v.nkernel_ties == 1 && v.kernel_ties[0] == &rows[2] &&
	      strstr(buf, "\nThe fastest the kernel has here: crc32c (crc32c-3way), 2.00x faster (± 4.0%), 0.21% of a "
			  "CPU; as fast within the noise: jhash2.\n"));
	free(buf);
	CHECK(ties && ties->count && ties->count(&row) == 1);
	row.index = 0;
	CHECK(ties && record_get(&thread_verdict_schema, ties, &row, &val) == 1 && strcmp(val.str, "jhash2") == 0);
	/* One process of each: no interval, no tie (xxh3-avx2 and xxh32 have
	 * one round, and xxh32 is kernel code: the outside block has none). */
	CHECK(v.noutside_ties == 0);

	/* 1.43x slower in every process: told apart. */
	result3(&r[2], rounds[2], "jhash2", slower);
	buf = verdict_over(r, rows, &v);
	CHECK(buf && v.nkernel_ties == 0 &&
	      strstr(buf, "\nThe fastest the kernel has here: crc32c (crc32c-3way), 2.00x faster (± 4.0%), 0.21% of a "
			  "CPU.\n"));
	free(buf);
	CHECK(ties && ties->count(&row) == 0);

	/* KSM's own hash leads the kernel's block: the next is named slower,
	 * and nothing beside it. */
	const double fast_today[3] = { 400, 400, 400 };
	result3(&r[1], rounds[1], "xxh64", fast_today);
	result3(&r[2], rounds[2], "jhash2", near);
	buf = verdict_over(r, rows, &v);
	CHECK(buf && v.nkernel_ties == 0 && strstr(buf, "\nThe fastest the kernel has here: KSM's own xxhash; next "));
	free(buf);
}

/* What to do about an untrusted answer follows its cause: where every
 * round left out met a core shared from outside this machine alone (its
 * other CPUs idle), an idle machine is what it already was. */
void test_thread_verdict_advice(void)
{
	struct bench_result r[5];
	struct bench_round rounds[5][3];
	struct thread_row rows[5];
	struct thread_verdict v;
	char *buf;

	verdict_results(r, rounds);
	r[0].unstable = STABILITY_DISTURBED;
	rounds[0][0].disturbed = DISTURB_SHARED;
	rounds[0][0].known = INTERFERENCE_BUSY;
	buf = verdict_over(r, rows, &v);
	CHECK(buf && strstr(unwrap(buf), "Cannot be trusted: 1 of 5 results unstable: disturbed rounds (rounds left out "
					 "as disturbed by: shared-core from outside this machine in 1 round). This "
					 "machine was idle: its core was shared by a VM's host. Run it again when the "
					 "host is quieter, or on dedicated cores.\n"));
	free(buf);

	/* Another CPU of this machine busy too: the usual advice. */
	rounds[0][0].disturbed = DISTURB_SHARED | DISTURB_BUSY;
	buf = verdict_over(r, rows, &v);
	CHECK(buf && strstr(unwrap(buf), "(rounds left out as disturbed by: busy, shared-core). Run it on an idle "
					 "machine, or with more --processes.\n"));
	free(buf);

	/* A second unstable result whose round was shared from inside: the
	 * usual advice, as one round of the two came from this machine. */
	rounds[0][0].disturbed = DISTURB_SHARED;
	r[2].unstable = STABILITY_DISTURBED;
	rounds[2][0].disturbed = DISTURB_SHARED | DISTURB_OFF_CPU;
	rounds[2][0].known = INTERFERENCE_BUSY;
	buf = verdict_over(r, rows, &v);
	CHECK(buf && strstr(unwrap(buf), "Run it on an idle machine, or with more --processes.\n") &&
	      !strstr(buf, "VM's host"));
	free(buf);
}
