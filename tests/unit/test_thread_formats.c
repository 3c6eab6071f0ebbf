/* The thread document in each of its formats, pinned byte for byte on
 * crafted results (report/thread.c, thread_text.c, thread_verdict.c): the
 * thread command measures, so its own output changes from run to run; these
 * render the same rows every time, against the files in
 * tests/unit/thread_formats/, so that a change in how the rows are built or
 * read shows as a diff of what is written. The results are named by
 * implementations every architecture builds; the one paragraph that depends
 * on this CPU (the kernel's own crc32c) is cut out before comparing.
 * KSMBENCH_TEST_WRITE_GOLDEN=1 writes the files instead, for a change meant
 * to show (review their diff). */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/estimate.h"
#include "../../bench/stats.h"
#include "../../report/report.h"
#include "../../report/thread.h"
#include "check.h"
#include "groups.h"
#include "render.h"

#define FX_RESULTS 11
#define FX_ROWS 7

struct thread_fixture {
	struct bench_result r[FX_RESULTS];
	struct bench_round rounds[FX_RESULTS][3];
	struct bench_process_value processes[FX_RESULTS][3];
	struct thread_row rows[FX_ROWS];
	struct thread_verdict v;
	struct bench_context ctx;
	struct report_document doc;
};

/* A result of three processes, one round each at ns[p] (ns[0] their
 * median); kernel_mb > 0 makes it the self-test's (jiffies, zero page, hot),
 * else ksmd's (rdtsc, random pages, cold). */
static void fx_result(struct bench_result *r, struct bench_round round[3], struct bench_process_value pv[3],
		      const char *hash, const char *impl, long kernel_mb, const double ns[3])
{
	memset(r, 0, sizeof(*r));
	r->hash = hash;
	r->impl = impl;
	r->page_size = 4096;
	r->repeats = 3;
	r->nprocesses = 3;
	r->rounds = round;
	r->per_process = pv;
	r->processes_used = 3;
	r->ns_per_page.median = r->ns_per_page.min = r->ns_per_page.max = ns[0];
	r->ns_per_page.n = 3;
	if (kernel_mb > 0) {
		strcpy(r->data, "zero");
		r->cache = "hot";
		r->timer = BENCH_TIMER_JIFFIES;
		r->jiffies.hz = 250;
		r->jiffies.window_jiffies = 31;
		r->jiffies.kernel_mb_per_s_best = kernel_mb;
	} else {
		strcpy(r->data, "random");
		r->cache = "cold";
		r->cold_by = "flush";
		r->timer = BENCH_TIMER_RDTSC;
		r->working_set_bytes = 64u << 20;
		r->ksmd.pages_to_scan = 100;
		r->ksmd.sleep_ms = 20;
		r->apart = 1;
	}
	double pages_per_s[3];
	for (unsigned p = 0; p < 3; p++) {
		round[p] = (struct bench_round){ .ns_per_page = ns[p], .calls = 1, .process = p };
		pv[p] = (struct bench_process_value){ .process = p, .rounds = 1, .ns_per_page = ns[p] };
		pages_per_s[p] = 1e9 / ns[p];
		r->ns_per_page.min = ns[p] < r->ns_per_page.min ? ns[p] : r->ns_per_page.min;
		r->ns_per_page.max = ns[p] > r->ns_per_page.max ? ns[p] : r->ns_per_page.max;
	}
	r->ns_per_page.best = r->ns_per_page.min;
	CHECK(stats_median_interval(pages_per_s, 3, &r->over_processes) == 0);
}

/* What `ksmbench thread` would build for kernel 4.13 (KSM's jhash2; xxh64
 * and xxh32 only from 4.14) from the results r[first..first+n): the
 * thread's rows, xxh32 measured by ksmd's timer alone and unstable, XXH3
 * outside the kernel, a crc32c alias that chose the kernel's code (in the
 * rows, in no text block) and a contender an interruption left unmeasured.
 * The self-test's results are r[0..5), ksmd's r[5..11). */
static void fx_build(struct thread_fixture *f, size_t first, size_t n)
{
	static const struct thread_contender c[FX_ROWS] = {
		{ "crc32c-generic", &thread_published[0], 1, 0 },
		{ "xxh64", &thread_published[1], 1, 1 },
		{ "xxh32", &thread_published[2], 1, 1 },
		{ "jhash2", &thread_published[3], 1, 0 },
		{ "xxh3", NULL, 0, 0 },
		{ "crc32c", NULL, 0, 0 },
		{ "crc32c-isal", NULL, 0, 0 },
	};
	static const double crc_k[3] = { 1300, 1250, 1350 }, crc_m[3] = { 3000, 2900, 3100 };
	static const double x64_k[3] = { 400, 410, 390 }, x64_m[3] = { 1250, 1200, 1300 };
	static const double x32_m[3] = { 2400, 3200, 1800 };
	static const double jh_k[3] = { 2600, 2600, 2600 }, jh_m[3] = { 5000, 5000, 5000 };
	static const double x3_k[3] = { 200, 190, 210 }, x3_m[3] = { 500, 520, 480 };
	const struct thread_ksmd k = { { 100, 20, 250, 1, 0 }, "defaults", NULL, 0, 0 };
	struct bench_result *r = f->r;

	memset(f, 0, sizeof(*f));
	fx_result(&r[0], f->rounds[0], f->processes[0], "crc32c-generic", "crc32c-generic", 3100, crc_k);
	fx_result(&r[1], f->rounds[1], f->processes[1], "xxh64", "xxh64", 9900, x64_k);
	fx_result(&r[2], f->rounds[2], f->processes[2], "jhash2", "jhash2", 1502, jh_k);
	fx_result(&r[3], f->rounds[3], f->processes[3], "xxh3", "xxh3-lib", 20000, x3_k);
	fx_result(&r[4], f->rounds[4], f->processes[4], "crc32c", "crc32c-generic", 3050, crc_k);
	fx_result(&r[5], f->rounds[5], f->processes[5], "crc32c-generic", "crc32c-generic", 0, crc_m);
	fx_result(&r[6], f->rounds[6], f->processes[6], "xxh64", "xxh64", 0, x64_m);
	fx_result(&r[7], f->rounds[7], f->processes[7], "xxh32", "xxh32", 0, x32_m);
	fx_result(&r[8], f->rounds[8], f->processes[8], "jhash2", "jhash2", 0, jh_m);
	fx_result(&r[9], f->rounds[9], f->processes[9], "xxh3", "xxh3-lib", 0, x3_m);
	fx_result(&r[10], f->rounds[10], f->processes[10], "crc32c", "crc32c-generic", 0, crc_m);
	r[7].unstable = STABILITY_SPREAD;
	thread_rows_build(c, FX_ROWS, r + first, n, f->rows);
	thread_verdict_build(f->rows, FX_ROWS, r + first, n, "jhash2", "jhash2", &k, &f->v);
	f->doc = (struct report_document){ .kind = REPORT_THREAD, .ctx = &f->ctx, .results = r + first, .nresults = n,
					   .rows = f->rows, .nrows = FX_ROWS, .verdict = &f->v, .kernel_release = "4.13" };
}

/* text with the paragraph holding marker (its first line and the lines
 * that continue it, indented) replaced by a note, in place. */
static void fx_cut_paragraph(char *text, const char *marker)
{
	static const char note[] = "(cut: the kernel's crc32c on this CPU)\n";
	char *at = text ? strstr(text, marker) : NULL;

	if (!at)
		return;
	char *start = at, *end = at;
	while (start > text && start[-1] != '\n')
		start--;
	while ((end = strchr(end, '\n')) && strncmp(end + 1, "  ", 2) == 0)
		end++;
	end = end ? end + 1 : text + strlen(text);
	if ((size_t)(end - start) < sizeof(note) - 1)
		return; /* a paragraph that short is not the one meant */
	memcpy(start, note, sizeof(note) - 1);
	memmove(start + sizeof(note) - 1, end, strlen(end) + 1);
}

/* The file's contents (NULL if it cannot be read). */
static char *fx_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t size = 0;
	FILE *out = f ? open_memstream(&text, &size) : NULL;
	int c;

	while (out && (c = fgetc(f)) != EOF)
		fputc(c, out);
	if (out)
		fclose(out);
	if (f)
		fclose(f);
	return text;
}

/* Checks text against tests/unit/thread_formats/name (run from the
 * top of the tree, as make test does), naming the first line that differs;
 * writes the file instead with KSMBENCH_TEST_WRITE_GOLDEN=1. */
static void fx_expect(const char *name, const char *text)
{
	char path[256];
	const char *write = getenv("KSMBENCH_TEST_WRITE_GOLDEN");

	snprintf(path, sizeof(path), "tests/unit/thread_formats/%s", name);
	if (text && write && strcmp(write, "1") == 0) {
		FILE *f = fopen(path, "w");
		CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
		return;
	}
	char *want = fx_slurp(path);
	if (!want || !text) {
		fprintf(stderr, "FAIL %s: %s\n", path, want ? "nothing rendered" : "cannot read it");
		CHECK(want && text);
		free(want);
		return;
	}
	size_t at = 0, line = 1;
	while (want[at] && want[at] == text[at])
		line += want[at++] == '\n';
	if (want[at] != text[at]) {
		const char *w = want + at, *t = text + at;
		while (w > want && w[-1] != '\n')
			w--, t--;
		fprintf(stderr, "FAIL %s:%zu differs:\n  want: %.*s\n  got:  %.*s\n", path, line,
			(int)strcspn(w, "\n"), w, (int)strcspn(t, "\n"), t);
	}
	CHECK(want[at] == text[at]);
	free(want);
}

#if FLT_EVAL_METHOD == 0
/* The "thread" object of the JSON, to the end: the results before it are
 * bench's fields, pinned elsewhere. */
static const char *fx_thread_json(const char *json)
{
	return json ? strstr(json, "\t\"thread\":\t{") : NULL;
}
#endif

/* Each format of the document built from r[first..first+n), against the
 * files named prefix.FORMAT. */
static void fx_check(struct thread_fixture *f, const char *prefix, size_t first, size_t n, int every)
{
	static const char *const formats[] = { "table", "markdown", "csv", "tsv", "kernel" };
	char name[64];
	char *text;

	fx_build(f, first, n);
	for (unsigned i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (!every && i != 0 && i != 2)
			continue; /* the table and CSV only */
		text = unit_render(formats[i], &f->doc);
		fx_cut_paragraph(text, "the kernel's crc32c() on this CPU");
		snprintf(name, sizeof(name), "%s.%s", prefix, formats[i]);
		fx_expect(name, text);
		free(text);
	}
	if (every) {
		f->doc.wide = 1;
		text = unit_render("table", &f->doc);
		fx_cut_paragraph(text, "the kernel's crc32c() on this CPU");
		snprintf(name, sizeof(name), "%s.table-wide", prefix);
		fx_expect(name, text);
		free(text);
		f->doc.wide = 0;
	}
	/* JSON writes every digit of a double: where intermediates are kept
	 * in x87's extended precision (32-bit x86) the last ones may differ. */
#if FLT_EVAL_METHOD == 0
	text = unit_render("json", &f->doc);
	snprintf(name, sizeof(name), "%s.json-thread", prefix);
	fx_expect(name, fx_thread_json(text));
	free(text);
#endif
}

void test_thread_formats_pinned(void)
{
	static struct thread_fixture f;

	fx_check(&f, "full", 0, FX_RESULTS, 1);
	/* Interrupted after the self-test: no ksmd-style figure, no verdict's
	 * KSM today. */
	fx_check(&f, "self-test-only", 0, 5, 0);
	/* The self-test's results absent: no kernel MB/s here. */
	fx_check(&f, "ksmd-only", 5, FX_RESULTS - 5, 0);
}
