/* Unit tests of report/'s formats on known results: the kernel lines, CSV
 * and TSV, JSON, the registry's names and errors, a result of one round
 * (no CV), the columns a narrow bench table leaves out, the thread's CSV
 * precision, and a document read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../bench/disturb.h"
#include "../../bench/estimate.h"
#include "../../bench/interference.h"
#include "../../report/record_json.h"
#include "../../report/report.h"
#include "../../report/results_load.h"
#include "../../report/stability_text.h"
#include "../../report/thread.h"
#include "check.h"
#include "groups.h"
#include "render.h"

static cJSON *json_of(const struct report_document *doc)
{
	struct record_row top = { doc, NULL, 0 };

	return record_json(report_document_schema(doc->kind), &top);
}

/* Two results: crc32c by the jiffies timer, jhash2 by the window. */
static void two_results(struct bench_result r[2], struct bench_round rounds[2])
{
	/* Every round field zero too: select's report walks the processes up
	 * to the highest round's, and stack garbage there took 36 s (213 s
	 * under qemu-i386) in one CI run. */
	memset(r, 0, 2 * sizeof(*r));
	memset(rounds, 0, 2 * sizeof(*rounds));
	r[0].hash = "crc32c";
	r[0].impl = "crc32c-isal";
	strcpy(r[0].data, "zero");
	r[0].cache = "hot";
	r[0].page_size = 4096;
	r[0].timer = BENCH_TIMER_JIFFIES;
	r[0].jiffies.kernel_mb_per_s_best = 12081;
	r[0].counter.hz = 2e9;
	r[0].ns_per_page.best = r[0].ns_per_page.median = 4096e9 / (12081.0 * (1 << 20)); /* a rate read back is > 0 */
	r[1] = r[0];
	r[1].hash = r[1].impl = "jhash2";
	r[1].timer = BENCH_TIMER_WINDOW;
	/* The kernel unit is MiB/s. */
	r[1].ns_per_page.best = r[1].ns_per_page.median = 4096e9 / (1569.0 * (1 << 20) + 5);
	r[1].ns_per_page.n = 2;
	r[1].ns_per_page.cv = 0.25;
	r[1].repeats = 2;
	r[1].rounds = rounds;
	rounds[0].ns_per_page = rounds[1].ns_per_page = r[1].ns_per_page.best;
	strcpy(r[1].data, "file:a,b\"c");
}

void test_report_formats_results(void)
{
	struct bench_result r[2];
	struct bench_round rounds[2];
	struct bench_context ctx;
	char *text;

	memset(&ctx, 0, sizeof(ctx));
	two_results(r, rounds);
	/* jhash2 at half its (pretend) ceiling; crc32c without one. */
	r[1].ceiling_bytes_per_s = 2 * bench_bytes_per_s(4096, r[1].ns_per_page.best);
	r[1].ceiling_limit = "a limit";
	struct report_document doc = { .kind = REPORT_BENCH, .ctx = &ctx, .results = r, .nresults = 2 };

	/* Exactly the patch's printk("ksm: %-8s hash() %5ld MB/s\n"); the
	 * crc32c alias, not the kernel's, by the implementation that ran. */
	text = unit_render("kernel", &doc);
	CHECK_STR(text, "ksm: crc32c-isal hash() 12081 MB/s\n"
			"ksm: jhash2   hash()  1569 MB/s\n");
	free(text);
	r[0].impl = "";
	text = unit_render("kernel", &doc);
	CHECK_STR(text, "ksm: crc32c   hash() 12081 MB/s\n"
			"ksm: jhash2   hash()  1569 MB/s\n");
	free(text);
	r[0].impl = "crc32c-isal";

	text = unit_render("csv", &doc);
	CHECK(text && strncmp(text, "hash,implementation,data,cache,page_size_bytes,", 47) == 0);
	CHECK(text && strstr(text, "\njhash2,jhash2,\"file:a,b\"\"c\",hot,4096,"));
	CHECK(text && strstr(text, ",12081,"));
	free(text);

	/* TSV: the same columns, tabs between them, nothing quoted. */
	text = unit_render("tsv", &doc);
	CHECK(text && strncmp(text, "hash\timplementation\tdata\tcache\tpage_size_bytes\t", 47) == 0);
	CHECK(text && strstr(text, "\njhash2\tjhash2\tfile:a,b\"c\thot\t4096\t"));
	free(text);

	cJSON *json = json_of(&doc);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(json, "schema")), "ksmbench-results/2");
	cJSON *results = cJSON_GetObjectItem(json, "results");
	CHECK(cJSON_GetArraySize(results) == 2);
	cJSON *first = cJSON_GetArrayItem(results, 0), *second = cJSON_GetArrayItem(results, 1);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(first, "kernel_mb_per_s_best")) == 12081);
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(second, "kernel_mb_per_s_best")));
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(second, "tsc_cycles_per_page_median")));
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(second, "data")), "file:a,b\"c");
	CHECK(cJSON_IsObject(cJSON_GetObjectItem(json, "context")));
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(second, "bytes_per_second_rounds")) == 2);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(second, "cv")) == 0.25);
	/* % of ceiling: one descriptor each; null without a ceiling, and no
	 * ceiling figures in a context that has none. */
	double pct = cJSON_GetNumberValue(cJSON_GetObjectItem(second, "pct_of_ceiling"));
	CHECK(pct > 49.999999 && pct < 50.000001);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(second, "ceiling_bytes_per_second")) == r[1].ceiling_bytes_per_s);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(second, "ceiling_limited_by")), "a limit");
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(first, "pct_of_ceiling")) &&
	      cJSON_IsNull(cJSON_GetObjectItem(first, "ceiling_bytes_per_second")) &&
	      cJSON_IsNull(cJSON_GetObjectItem(first, "ceiling_limited_by")));
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(json, "context"), "ceiling")));
	cJSON_Delete(json);
	text = unit_render("csv", &doc);
	CHECK(text && strstr(text, ",cv,ceiling_bytes_per_second,pct_of_ceiling,ceiling_limited_by,") &&
	      strstr(text, ",0.2500,") && strstr(text, ",50.00,a limit,"));
	free(text);

	/* The share of the ceiling from the best round less its interrupted
	 * batches where they were logged; the table says what interruptions
	 * took once their median share is 1% or more. */
	r[1].uninterrupted_ns_best = r[1].ns_per_page.best * 0.8;
	for (unsigned i = 0; i < 2; i++) {
		rounds[i].calls = 1000;
		rounds[i].elapsed_ns = 1000 * 100.0;
		rounds[i].uninterrupted_ns_per_page = 95;
	}
	json = json_of(&doc);
	first = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "results"), 0);
	second = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "results"), 1);
	pct = cJSON_GetNumberValue(cJSON_GetObjectItem(second, "pct_of_ceiling"));
	CHECK(pct > 62.499999 && pct < 62.500001);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(second, "bytes_per_second_uninterrupted_best")) ==
	      bench_bytes_per_s(4096, r[1].uninterrupted_ns_best));
	cJSON *round0 = cJSON_GetArrayItem(cJSON_GetObjectItem(second, "rounds"), 0);
	double share = cJSON_GetNumberValue(cJSON_GetObjectItem(round0, "interrupted_share"));
	CHECK(share > 0.0499999 && share < 0.0500001);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(round0, "uninterrupted_ns_per_page")) == 95);
	/* The jiffies result logged nothing: null. */
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(first, "bytes_per_second_uninterrupted_best")));
	cJSON_Delete(json);
	text = unit_render("table", &doc);
	CHECK(text && strstr(text, "interruptions (ticks, a VM's exits) took 5.0% of a round's time"));
	free(text);
	for (unsigned i = 0; i < 2; i++)
		rounds[i].uninterrupted_ns_per_page = 99.5;
	text = unit_render("table", &doc);
	CHECK(text && !strstr(text, "interruptions ("));
	free(text);

	struct kb_err err;
	CHECK(report_format_find("kernel", REPORT_BENCH, &err) != NULL);
	CHECK(report_format_find("xml", REPORT_BENCH, &err) == NULL && strstr(err.msg, "unknown format 'xml'"));
}

/* One round has no spread: no CV, in the table ("-") and in JSON (null). */
void test_report_formats_one_round(void)
{
	struct bench_result r[2];
	struct bench_round rounds[2];
	struct bench_context ctx;

	memset(&ctx, 0, sizeof(ctx));
	two_results(r, rounds);
	r[1].ns_per_page.n = 1;
	r[1].repeats = 1;
	struct report_document doc = { .kind = REPORT_BENCH, .ctx = &ctx, .results = &r[1], .nresults = 1, .wide = 1 };
	cJSON *json = json_of(&doc);
	cJSON *res = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "results"), 0);
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(res, "cv")));
	cJSON_Delete(json);

	char *text = unit_render("table", &doc);
	const char *row = text ? strstr(text, "\njhash2") : NULL;
	/* HASH DATA CACHE TIMER PAGE best %-ceiling median ns/page ROUNDS: no
	 * ceiling measured ("-"), no interval ("±") on the median of a single
	 * value, one round. */
	char cells[12][64];
	int n = row ? sscanf(row, "%63s %63s %63s %63s %63s %63s %63s %63s %63s %63s", cells[0], cells[1], cells[2],
			     cells[3], cells[4], cells[5], cells[6], cells[7], cells[8], cells[9]) : 0;
	CHECK(n == 10 && strcmp(cells[6], "-") == 0 && strcmp(cells[9], "1") == 0 && !strstr(row, "\xc2\xb1"));
	free(text);
	text = unit_render("csv", &doc);
	CHECK(text && strstr(text, ",1,0,") && strstr(text, ",,,,,,,,,,monotonic,0,0,,,,,stable\n"));
	free(text);
	/* select's lines and choice come from the same results. */
	doc.kind = REPORT_SELECT;
	text = unit_render("markdown", &doc);
	CHECK(text && strstr(text, "| - |") && strstr(text, "**jhash2**"));
	free(text);
}

/* The header cells of text's bench table, joined by '|' (cells are two or
 * more spaces apart; a header holds single spaces). */
static void header_cells(const char *text, char *buf, size_t size)
{
	const char *p = text ? strstr(text, "HASH") : NULL;
	size_t n = 0;

	buf[0] = '\0';
	while (p && *p && *p != '\n' && n + 2 < size) {
		if (p[0] == ' ' && p[1] == ' ') {
			while (*p == ' ')
				p++;
			if (*p != '\n' && *p)
				buf[n++] = '|';
			continue;
		}
		buf[n++] = *p++;
	}
	buf[n] = '\0';
}

/* A narrow bench table leaves out exactly the columns its table lets go:
 * DATA, SET, TIMER and PAGE when every row shows the same (said once under
 * it), % ceiling, kMB/s, bias and cycles when every row shows "-". One the
 * same in every row that may not go (ROUNDS), or one that may go only for
 * "-" and shows a value, stays; --wide keeps every one. */
void test_report_formats_narrow_bench(void)
{
	struct bench_result r[3];
	struct bench_round rounds[3][2];
	struct bench_context ctx;
	const char *hashes[3] = { "xxh64", "jhash2", "xxh32" };
	char cells[256], *text;

	memset(&ctx, 0, sizeof(ctx));
	memset(r, 0, sizeof(r));
	memset(rounds, 0, sizeof(rounds));
	for (unsigned i = 0; i < 3; i++) {
		r[i].hash = r[i].impl = hashes[i];
		strcpy(r[i].data, "random");
		r[i].cache = "hot";
		r[i].page_size = 4096;
		r[i].timer = BENCH_TIMER_WINDOW;
		r[i].counter.hz = 2e9;
		r[i].ns_per_page.best = r[i].ns_per_page.median = 500.0 * (i + 1);
		r[i].ns_per_page.n = 2;
		r[i].repeats = 2;
		r[i].rounds = rounds[i];
	}
	struct report_document doc = { .kind = REPORT_BENCH, .ctx = &ctx, .results = r, .nresults = 3 };

	text = unit_render("table", &doc);
	header_cells(text, cells, sizeof(cells));
	CHECK_STR(cells, "HASH|MB/s best|MB/s median|ns/page median|ROUNDS|STABILITY");
	CHECK(text && strstr(text, "every row: DATA random, SET hot, TIMER window, PAGE 4096."));
	free(text);

	doc.wide = 1;
	text = unit_render("table", &doc);
	header_cells(text, cells, sizeof(cells));
	CHECK_STR(cells, "HASH|DATA|SET|TIMER|PAGE|MB/s best|% ceiling|MB/s median|ns/page median|ROUNDS|kMB/s best|"
			 "bias % median|cyc p10/50/90|STABILITY");
	CHECK(text && !strstr(text, "every row"));
	free(text);

	/* The jiffies timer: kMB/s and bias the same in every row, yet shown;
	 * one ceiling: its column stays. A wide terminal, so that no header
	 * is shortened and the line under the table is not wrapped. */
	doc.wide = 0;
	doc.columns = 300;
	for (unsigned i = 0; i < 3; i++) {
		r[i].timer = BENCH_TIMER_JIFFIES;
		r[i].jiffies.kernel_mb_per_s_best = 8770;
		r[i].jiffies.bias_percent_median = -2.5;
	}
	r[1].ceiling_bytes_per_s = 2 * bench_bytes_per_s(4096, r[1].ns_per_page.best);
	text = unit_render("table", &doc);
	header_cells(text, cells, sizeof(cells));
	CHECK_STR(cells,
		  "HASH|MB/s best|% ceiling|MB/s median|ns/page median|ROUNDS|kMB/s best|bias % median|STABILITY");
	CHECK(text && strstr(text, "every row: DATA random, SET hot, TIMER jiffies, PAGE 4096."));
	free(text);

	/* A dataset of its own in one row: DATA stays, the rest are said once. */
	strcpy(r[2].data, "zero");
	text = unit_render("table", &doc);
	header_cells(text, cells, sizeof(cells));
	CHECK_STR(cells,
		  "HASH|DATA|MB/s best|% ceiling|MB/s median|ns/page median|ROUNDS|kMB/s best|bias % median|STABILITY");
	CHECK(text && strstr(text, "every row: SET hot, TIMER jiffies, PAGE 4096."));
	free(text);
}

/* The widest line of text, in characters (UTF-8: the ± counts one). */
static size_t widest_line(const char *text)
{
	size_t widest = 0, at = 0;

	for (const char *p = text; p && *p; p++) {
		if (*p == '\n') {
			widest = at > widest ? at : widest;
			at = 0;
		} else if (((unsigned char)*p & 0xc0) != 0x80) {
			at++;
		}
	}
	return at > widest ? at : widest;
}

/* The last fitting step: where the shortened headers still leave the table
 * too wide (rdtsc's cycles of five digits, medians with their ± over
 * processes, a ceiling: 101 columns once under a loaded test suite), the
 * "% ceil" column goes, and the line under the table says so; --wide keeps
 * it. */
void test_report_formats_fit_ceiling(void)
{
	struct bench_result r[2];
	struct bench_round rounds[2][20];
	struct bench_context ctx;
	const char *hashes[2] = { "crc32c-vpclmul-avx2", "jhash2-lookup2" };
	char cells[256], *text;

	memset(&ctx, 0, sizeof(ctx));
	memset(r, 0, sizeof(r));
	memset(rounds, 0, sizeof(rounds));
	for (unsigned i = 0; i < 2; i++) {
		r[i].hash = r[i].impl = hashes[i];
		strcpy(r[i].data, "random");
		r[i].cache = "hot";
		r[i].page_size = 4096;
		r[i].timer = BENCH_TIMER_RDTSC;
		r[i].counter.hz = 2e9;
		r[i].counter.is_tsc = 1;
		r[i].ns_per_page.best = r[i].ns_per_page.median = 10123.4 * (i + 1);
		r[i].ns_per_page.n = 2;
		r[i].repeats = 20;
		r[i].rounds_disturbed = 19;
		r[i].rounds = rounds[i];
		r[i].over_processes = (struct stats_interval){ .n = 10, .median = 1, .low = 0.5, .high = 2.1 };
		r[i].rdtsc = (struct bench_rdtsc_part){ .ticks_per_call_p10 = 20123, .ticks_per_call_median = 20246,
							.ticks_per_call_p90 = 41234, .batch_calls = 100 };
		r[i].ceiling_bytes_per_s = 3 * bench_bytes_per_s(4096, r[i].ns_per_page.best);
		r[i].unstable = STABILITY_SPREAD;
	}
	struct report_document doc = { .kind = REPORT_BENCH, .ctx = &ctx, .results = r, .nresults = 2 };

	text = unit_render("table", &doc);
	header_cells(text, cells, sizeof(cells));
	CHECK_STR(cells, "HASH|MB/s best|MB/s med|ns/pg med|ROUNDS|cyc p10/50/90|STABILITY");
	CHECK(text && widest_line(text) <= 100);
	CHECK(text && strstr(text, "% ceiling left out to fit (--wide and the JSON have it)") &&
	      !strstr(text, "ceil: ceiling") && strstr(text, "med: median, pg: page"));
	free(text);

	doc.wide = 1;
	text = unit_render("table", &doc);
	header_cells(text, cells, sizeof(cells));
	CHECK(strstr(cells, "|% ceiling|") != NULL);
	CHECK(text && strstr(text, "% ceiling: the best round"));
	free(text);

	/* ksmd: the cycles' middle figure is the rounds' median, as p10 and
	 * p90 are, not the headline's time (a median of rates, which fell
	 * below p10: "1320/1319/1320"). */
	for (unsigned i = 0; i < 2; i++) {
		r[i].timer = BENCH_TIMER_KSMD;
		r[i].apart = 1;
		r[i].ns_per_page.median = 666.5; /* 1333 ticks at 2 GHz */
		r[i].ksmd = (struct bench_ksmd_part){ .pages_to_scan = 100, .ticks_per_page_p10 = 1500,
						      .ticks_per_page_median = 1500, .ticks_per_page_p90 = 1500 };
	}
	text = unit_render("table", &doc);
	CHECK(text && strstr(text, "1500/1500/1500") && !strstr(text, "1333"));
	free(text);
}

/* The formats each kind has, by name; one error naming them otherwise. */
/* Disturbed rounds in words; a shared core while this machine's other
 * CPUs were idle is said to come from outside it. */
/* report_unstable_summary's text for r[0..n) (by_impl 0), or NULL. */
static char *summary_of(const struct bench_result *r, size_t n, enum escape_target esc, const char *prefix,
			unsigned width)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	int rc = f ? report_unstable_summary(f, r, n, 0, esc, prefix, width) : -1;

	if (f)
		fclose(f);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

void test_report_formats_shared_core(void)
{
	struct bench_result r;
	struct bench_round rounds[4];
	char text[600];

	memset(&r, 0, sizeof(r));
	memset(rounds, 0, sizeof(rounds));
	r.repeats = 4;
	r.rounds = rounds;
	r.rounds_disturbed = 3;
	r.unstable = STABILITY_DISTURBED;
	for (int i = 0; i < 4; i++)
		rounds[i].known = INTERFERENCE_BUSY | INTERFERENCE_THROUGHPUT;
	rounds[0].disturbed = rounds[1].disturbed = DISTURB_SHARED; /* the other CPUs idle */
	rounds[2].disturbed = DISTURB_SHARED | DISTURB_BUSY;        /* they were busy */
	report_stability_reasons(&r, text, sizeof(text));
	CHECK(strcmp(text, "3 of 4 rounds disturbed (busy 1, shared-core 3; shared-core with this machine's other CPUs "
			   "idle in 2: shared from outside it (a VM's host))") == 0);
	/* The run's share as well: its reason follows, with the run's counts. */
	r.unstable = STABILITY_DISTURBED | STABILITY_RUN_DISTURBED;
	r.run_rounds = 40;
	r.run_rounds_disturbed = 21;
	report_stability_reasons(&r, text, sizeof(text));
	CHECK(strstr(text, "(a VM's host)); 21 of the run's 40 rounds disturbed (more than 50%: sharing that comes and "
			   "goes, which a round's edges do not all see)") != NULL);
	/* Where the run's rounds were shared from outside, it says so too. */
	r.run_rounds_outside = 19;
	report_stability_reasons(&r, text, sizeof(text));
	CHECK(strstr(text, "21 of the run's 40 rounds disturbed (more than 50%: sharing that comes and goes, which a "
			   "round's edges do not all see; shared-core with this machine's other CPUs idle in 19: shared "
			   "from outside it (a VM's host))") != NULL);
	/* A run under the free core's floor throughout: not sharing that came
	 * and went, and said so. */
	r.run_shared_throughout = 1;
	report_stability_reasons(&r, text, sizeof(text));
	CHECK(strstr(text, "21 of the run's 40 rounds disturbed (more than 50%: its core was shared the whole run, its "
			   "best rounds under a free core's throughput; shared-core with this machine's other CPUs idle in "
			   "19: shared from outside it (a VM's host))") != NULL && !strstr(text, "comes and goes"));
	r.run_shared_throughout = 0;
	r.run_rounds_outside = 0;
	CHECK(strcmp(report_stability_code(4), "run-disturbed") == 0);
	r.unstable = STABILITY_DISTURBED;
	/* Off this CPU as well: something here took it, not the host. */
	rounds[1].disturbed |= DISTURB_OFF_CPU;
	CHECK(report_shared_from_outside(&r) == 1);
	/* Switches away as well: another program here took the CPU, so this
	 * round is not counted as shared from outside either. */
	rounds[1].disturbed = DISTURB_SHARED | DISTURB_SWITCHES;
	CHECK(report_shared_from_outside(&r) == 1);
	rounds[1].disturbed = DISTURB_SHARED;
	/* Every shared round with the others busy, or the busy share unknown: nothing said of outside. */
	rounds[0].disturbed = rounds[1].disturbed = DISTURB_SHARED | DISTURB_BUSY;
	rounds[3].known = 0;
	rounds[3].disturbed = DISTURB_SHARED;
	r.rounds_disturbed = 4;
	report_stability_reasons(&r, text, sizeof(text));
	CHECK(strcmp(text, "4 of 4 rounds disturbed (busy 3, shared-core 4)") == 0);

	/* The warning names the result as its table does: bench by the name
	 * asked for, the thread by the implementation that ran. */
	char *buf = NULL;
	size_t size = 0;
	r.hash = "xxh3";
	r.impl = "xxh3-avx512";
	r.timer = BENCH_TIMER_JIFFIES;
	snprintf(r.data, sizeof(r.data), "random");
	r.cache = "hot";
	r.page_size = 4096;
	FILE *f = open_memstream(&buf, &size);
	CHECK(f && report_unstable_summary(f, &r, 1, 0, ESCAPE_TERM, "warning: ", 100) == 0 &&
	      report_unstable_summary(f, &r, 1, 1, ESCAPE_TERM, "warning: ", 100) == 0);
	if (f)
		fclose(f);
	CHECK(buf && strstr(buf, "reasons): xxh3/jiffies\n") && strstr(buf, "reasons): xxh3-avx512/jiffies\n"));
	free(buf);
	/* Results that differ in their data or page size are told apart by them. */
	struct bench_result two[2] = { r, r };
	snprintf(two[0].data, sizeof(two[0].data), "file:/tmp/a/guest.raw");
	two[1].page_size = 8192;
	two[1].misalign = 64;
	buf = summary_of(two, 2, ESCAPE_TERM, "w: ", 200);
	CHECK(buf && strstr(buf, "reasons): xxh3/guest.raw/4096/jiffies xxh3/random/8192+64/jiffies\n"));
	free(buf);
	/* A misalignment alone tells two results apart: the page is named,
	 * not "xxh64/window" twice. */
	struct bench_result pair[2];
	memset(pair, 0, sizeof(pair));
	pair[0].hash = "xxh64";
	pair[0].timer = BENCH_TIMER_WINDOW;
	snprintf(pair[0].data, sizeof(pair[0].data), "random");
	pair[0].cache = "hot";
	pair[0].page_size = 4096;
	pair[0].unstable = STABILITY_DISTURBED;
	pair[1] = pair[0];
	pair[1].misalign = 8;
	buf = summary_of(pair, 2, ESCAPE_TERM, "w: ", 200);
	CHECK(buf && strstr(buf, "reasons): xxh64/4096/window xxh64/4096+8/window\n"));
	free(buf);
	/* Calls apart and back to back are told apart by "/apart" already: their
	 * differing data is not named (only results alike in name, timer and
	 * apart are compared). */
	pair[0].timer = pair[1].timer = BENCH_TIMER_KSMD;
	pair[1].misalign = 0;
	snprintf(pair[0].data, sizeof(pair[0].data), "zero");
	pair[0].apart = 1;
	buf = summary_of(pair, 2, ESCAPE_TERM, "w: ", 200);
	CHECK(buf && strstr(buf, "reasons): xxh64/ksmd/apart xxh64/ksmd\n"));
	free(buf);
	/* In Markdown the dataset's name is escaped as a table cell is: no
	 * HTML, link or emphasis from a file's name. */
	snprintf(two[0].data, sizeof(two[0].data), "file:/tmp/<b>[a](x)*c*");
	buf = summary_of(two, 2, ESCAPE_MARKDOWN, "- Warning: ", 0);
	CHECK(buf && strstr(buf, "- Warning: unstable: xxh3 \\<b\\>\\[a\\](x)\\*c\\* hot 4096 jiffies: ") &&
	      !strstr(buf, "<b>"));
	free(buf);
	/* The run's share of disturbed rounds marks every result: one line
	 * says it, first; a result's own line gives only its other reasons,
	 * and a result with none has no line. */
	pair[0].unstable = STABILITY_FEW_PROCESSES | STABILITY_RUN_DISTURBED;
	pair[0].processes_used = 3;
	pair[1].unstable = STABILITY_RUN_DISTURBED;
	pair[0].run_rounds = pair[1].run_rounds = 40;
	pair[0].run_rounds_disturbed = pair[1].run_rounds_disturbed = 21;
	buf = summary_of(pair, 2, ESCAPE_TERM, "w: ", 0);
	CHECK(buf && strcmp(buf, "w: the whole run is unstable: 21 of the run's 40 rounds disturbed (more than 50%: "
				 "sharing that comes and goes, which a round's edges do not all see)\n"
				 "w: unstable: xxh64 zero hot 4096 ksmd apart: 3 processes with undisturbed rounds "
				 "(at least 5)\n") == 0);
	free(buf);
}

void test_report_formats_registry(void)
{
	char names[160];
	struct kb_err err;

	CHECK_STR(report_format_names(REPORT_BENCH, "|", names, sizeof(names)),
		  "table|kernel|csv|tsv|json|gha|markdown");
	CHECK_STR(report_format_names(REPORT_SELECT, ", ", names, sizeof(names)), "kernel, json, gha or markdown");
	CHECK_STR(report_format_names(REPORT_SCAN, "|", names, sizeof(names)), "table|csv|tsv|json");
	CHECK_STR(report_format_names(REPORT_PLOT, "|", names, sizeof(names)), "svg");
	CHECK(report_format_find("csv", REPORT_SELECT, &err) == NULL &&
	      strstr(err.msg, "unknown format 'csv' for select (kernel, json, gha or markdown)"));
	CHECK(report_format_find("json", REPORT_PLOT, &err) == NULL && strstr(err.msg, "(svg)"));
	for (int k = 0; k < REPORT_KINDS; k++)
		CHECK(report_format_names((enum report_kind)k, "|", names, sizeof(names))[0] != '\0');
}

/* The thread's CSV: integers as integers, published figures as posted. */
void test_report_formats_thread(void)
{
	static const struct thread_published pub[2] = {
		{ "crc32c", 12081, 1084.10, 0 },
		{ "jhash2", 1569, 5128.30, 2251.9 },
	};
	const struct thread_contender contenders[2] = { { "crc32c", &pub[0], 1, 0 }, { "jhash2", &pub[1], 1, 0 } };
	struct bench_result r[2];
	struct bench_round rounds[2];
	struct thread_row rows[2];
	struct bench_context ctx;

	memset(&ctx, 0, sizeof(ctx));
	two_results(r, rounds);
	r[1].timer = BENCH_TIMER_JIFFIES;
	r[1].jiffies.kernel_mb_per_s_best = 1500;
	/* The speed-up here is from rounds side by side: process 0, round 0. */
	struct bench_round crc_round = { .ns_per_page = 100, .calls = 1 };
	rounds[0] = (struct bench_round){ .ns_per_page = 805.4, .calls = 1 };
	r[0].rounds = &crc_round;
	r[0].repeats = r[1].repeats = 1;
	thread_rows_build(contenders, 2, r, 2, rows);
	CHECK(rows[0].kernel == &r[0] && rows[1].kernel == &r[1] && rows[0].ksm == NULL);
	struct report_document doc = { .kind = REPORT_THREAD, .ctx = &ctx, .results = r, .nresults = 2,
				       .rows = rows, .nrows = 2 };
	char *text = unit_render("csv", &doc);
	CHECK(text && strstr(text, "hash,implementation,in_kernel,kernel_mb_per_s_here,"));
	CHECK(text && strstr(text, ",v1_mib_per_s_thread,stability\n"));
	CHECK(text && strstr(text, "\ncrc32c,crc32c-isal,true,12081,8.0540,12081,7.6998,,,1084.10,4.7305,,stable\n"));
	CHECK(text && strstr(text, "\njhash2,jhash2,true,1500,1.0000,1569,1.0000,,,5128.30,1.0000,2251.9,stable\n"));
	CHECK(text && !strstr(text, "e+"));
	free(text);
	cJSON *json = json_of(&doc);
	cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(json, "thread"), "rows"), 0);
	/* As posted (and not against the literal: i386 compares that in long double). */
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(row, "ns_per_page_thread")) == pub[0].ksm_ns_per_page);
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(row, "ns_per_page_here")));
	cJSON_Delete(json);
}

/* A document written as JSON reads back by the same tables. */
void test_report_formats_read_back(void)
{
	struct bench_result r[2];
	struct bench_round rounds[2];
	struct bench_context ctx;
	char path[] = "/tmp/ksmbench-unit-json-XXXXXX";
	struct loaded_doc back;
	struct kb_err err;

	memset(&ctx, 0, sizeof(ctx));
	strcpy(ctx.date, "2026-01-02T03:04:05Z");
	strcpy(ctx.git_revision, "abc");
	two_results(r, rounds);
	r[0].misalign = 3;
	struct report_document doc = { .kind = REPORT_BENCH, .ctx = &ctx, .results = r, .nresults = 2 };
	char *text = unit_render("json", &doc);
	int fd = mkstemp(path);
	CHECK(fd >= 0 && text && write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	free(text);
	CHECK(results_load(path, &back, &err) == 0);
	CHECK(back.n == 2 && strcmp(back.results[0].hash, "crc32c") == 0 && back.results[0].misalign == 3);
	CHECK(back.n == 2 && strcmp(back.results[1].impl, "jhash2") == 0 && back.results[1].nrounds == 2);
	CHECK(back.date && strcmp(back.date, "2026-01-02T03:04:05Z") == 0 && !back.cpu_brand);
	results_release(&back);

	/* A number a count cannot be (issue 13: a cast of 1e30 was undefined). */
	FILE *f = fopen(path, "w");
	fputs("{\"schema\": \"ksmbench-results/1\", \"results\": [{\"hash\": \"x\", \"data\": \"zero\", "
	      "\"cache\": \"hot\", \"timer\": \"window\", \"page_size_bytes\": 4096, \"misalign_bytes\": 1e30, "
	      "\"bytes_per_second_best\": 1, \"bytes_per_second_median\": 1, \"ns_per_page_min\": 1, "
	      "\"ns_per_page_max\": 1}]}", f);
	fclose(f);
	CHECK(results_load(path, &back, &err) == -1 && strstr(err.msg, "results[0]: \"misalign_bytes\""));
	unlink(path);
}

/* select's choice over processes from known rounds (a round of 32 x K
 * calls of 4 KiB is K MB/s): each hash's figure is the median of its
 * processes' best undisturbed rounds (all of them where every one was
 * disturbed), the first of equal figures wins, a process where no hash ran
 * is won by none, and a choice that won no more than half is unstable. */
struct select_round {
	unsigned hash, process;
	long mb_per_s;
	int disturbed;
};

static void select_doc(struct bench_result *r, unsigned nr, struct bench_round *rounds,
		       const struct select_round *s, unsigned ns)
{
	static const char *const hashes[] = { "xxh64", "jhash2", "xxh32" };

	memset(r, 0, nr * sizeof(*r));
	memset(rounds, 0, ns * sizeof(*rounds));
	for (unsigned h = 0, k = 0; h < nr; h++) {
		r[h].hash = r[h].impl = hashes[h];
		strcpy(r[h].data, "zero");
		r[h].cache = "hot";
		r[h].page_size = 4096;
		r[h].timer = BENCH_TIMER_JIFFIES;
		r[h].rounds = &rounds[k];
		for (unsigned i = 0; i < ns; i++)
			if (s[i].hash == h) {
				rounds[k].process = s[i].process;
				rounds[k].calls = 32 * (uint64_t)s[i].mb_per_s;
				rounds[k].disturbed = s[i].disturbed ? DISTURB_CLOCK : 0;
				rounds[k].ns_per_page = 1000;
				k++;
				r[h].repeats++;
			}
		r[h].ns_per_page.best = r[h].ns_per_page.median = 1000;
		r[h].ns_per_page.n = r[h].repeats;
	}
}

static void check_selection(const struct report_document *doc, const char *choice, long kernel, unsigned won,
			    unsigned processes, const char *stability)
{
	cJSON *json = json_of(doc), *sel = cJSON_GetObjectItem(json, "selection");

	CHECK(cJSON_IsString(cJSON_GetObjectItem(sel, "choice")) &&
	      strcmp(cJSON_GetObjectItem(sel, "choice")->valuestring, choice) == 0);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(sel, "kernel_mb_per_s")) == (double)kernel);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(sel, "processes_won")) == (double)won);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(sel, "processes")) == (double)processes);
	CHECK(cJSON_IsString(cJSON_GetObjectItem(sel, "stability")) &&
	      strcmp(cJSON_GetObjectItem(sel, "stability")->valuestring, stability) == 0);
	cJSON_Delete(json);
}

void test_report_formats_select(void)
{
	/* xxh64: process 0 best 100 (a disturbed 300 left out), 1: 200, 2: every
	 * round disturbed, 150, 4: 400: median (150 + 200) / 2. Process 3 ran
	 * nothing. xxh64 is fastest in processes 2 and 4 only: 2 of 5. */
	static const struct select_round five[] = {
		{ 0, 0, 100, 0 }, { 0, 0, 300, 1 }, { 0, 1, 200, 0 }, { 0, 2, 150, 1 }, { 0, 2, 120, 1 },
		{ 0, 4, 400, 0 }, { 1, 0, 150, 0 }, { 1, 1, 100, 0 }, { 1, 2, 100, 0 }, { 1, 4, 100, 0 },
		{ 2, 0, 50, 0 },  { 2, 1, 250, 0 }, { 2, 2, 50, 0 },  { 2, 4, 50, 0 },
	};
	/* Equal figures (150): the first wins, fastest in 1 of 2 processes. */
	static const struct select_round tie[] = {
		{ 0, 0, 100, 0 }, { 0, 1, 200, 0 }, { 1, 0, 200, 0 }, { 1, 1, 100, 0 },
	};
	struct bench_result r[3];
	struct bench_round rounds[sizeof(five) / sizeof(five[0])];
	struct bench_context ctx;

	memset(&ctx, 0, sizeof(ctx));
	select_doc(r, 3, rounds, five, sizeof(five) / sizeof(five[0]));
	struct report_document doc = { .kind = REPORT_SELECT, .ctx = &ctx, .results = r, .nresults = 3 };
	check_selection(&doc, "xxh64", 175, 2, 5, "unstable");
	char *text = unit_render("kernel", &doc);
	CHECK_STR(text, "ksm: xxh64    hash()   175 MB/s\nksm: jhash2   hash()   100 MB/s\n"
			"ksm: xxh32    hash()    50 MB/s\nksm: choise xxh64 as hash function\n");
	free(text);

	select_doc(r, 2, rounds, tie, sizeof(tie) / sizeof(tie[0]));
	doc.nresults = 2;
	check_selection(&doc, "xxh64", 150, 1, 2, "unstable");
	/* The second result faster in the one process: chosen, stable. */
	static const struct select_round second[] = { { 0, 0, 100, 0 }, { 1, 0, 200, 0 } };
	select_doc(r, 2, rounds, second, sizeof(second) / sizeof(second[0]));
	check_selection(&doc, "jhash2", 200, 1, 1, "stable");
	/* The patch compared counts (if (best_perf < perf)), not its MB/s:
	 * 3200 and 3231 calls both print 100 MB/s, and the higher count wins,
	 * in its process too (until 2026-12 the first of the equal figures did). */
	static const struct select_round same[] = { { 0, 0, 100, 0 }, { 1, 0, 100, 0 } };
	select_doc(r, 2, rounds, same, sizeof(same) / sizeof(same[0]));
	rounds[1].calls += 31;
	check_selection(&doc, "jhash2", 100, 1, 1, "stable");
	text = unit_render("kernel", &doc);
	CHECK_STR(text, "ksm: xxh64    hash()   100 MB/s\nksm: jhash2   hash()   100 MB/s\n"
			"ksm: choise jhash2 as hash function\n");
	free(text);
}
