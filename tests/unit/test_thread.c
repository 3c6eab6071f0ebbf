/* The thread's verdict (report/thread_verdict.c) on known rows, and the
 * line wrapping that keeps the text reports within a terminal's width
 * (report/text_wrap.c). */
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
	const struct thread_ksmd k = { 100, 20, "/sys/kernel/mm/ksm" };
	const struct thread_contender c[4] = {
		{ "crc32c-3way", &thread_published[0], 1 },
		{ "xxh64", &thread_published[1], 1 },
		{ "jhash2", &thread_published[3], 1 },
		{ "xxh3-avx2", NULL, 0 },
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
	/* 100 pages of 1 us, then 20 ms asleep: 0.1 ms of 20.1. */
	CHECK(v.today_cpu_share > 0.004975 && v.today_cpu_share < 0.004976);
	CHECK(thread_cpu_share(1000, &(struct thread_ksmd){ 100, 0, NULL }) == 1);
	CHECK(thread_cpu_share(0, &k) == 0);
	CHECK(v.unstable == 1 && v.results == 4 && v.unstable_kinds == STABILITY_SPREAD);

	/* The text: three lines of answer, the settings, and why not to trust it. */
	struct bench_context ctx;
	memset(&ctx, 0, sizeof(ctx));
	struct report_document doc = { .kind = REPORT_THREAD, .ctx = &ctx, .results = r, .nresults = 4,
				       .rows = rows, .nrows = 4, .verdict = &v };
	char *buf = verdict_text(&doc);
	CHECK(buf);
	const char *first = "KSM today: xxhash (xxh64 here), 1000 ns/page in ksmd's pattern, 0.50% of a CPU at "
			    "100 pages/20 ms.\n";
	CHECK(buf && strncmp(buf, first, strlen(first)) == 0);
	CHECK(buf && strstr(buf, "\nThe fastest the kernel has here: crc32c (crc32c-3way), 2.00x faster, 0.25% of a CPU.\n"));
	CHECK(buf && strstr(buf, "\nFastest outside the kernel: xxh3-avx2, 4.00x faster, 0.12% of a CPU.\n"));
	CHECK(buf && strstr(buf, "read from /sys/kernel/mm/ksm"));
	CHECK(buf && strstr(buf, "Cannot be trusted: 1 of 4 results unstable: spread over processes."));
	free(buf);
	/* Settings read from KSMBENCH_KSM_DIR are said to come from there. */
	v.ksmd.dir = "/tmp/ksm-settings";
	buf = verdict_text(&doc);
	CHECK(buf && strstr(buf, "read from /tmp/ksm-settings)") && !strstr(buf, "/sys/kernel/mm/ksm"));
	free(buf);
	v.ksmd.dir = k.dir;
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
}
