/* Unit tests of bench --selfcheck's document on known rows: the verdict a
 * row and the document give, the JSON's fields and types, the CSV's and
 * TSV's columns, the table (as it was before it came from the schema) and
 * its Markdown, and the formats the kind is written in. */
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../../bench/selfcheck.h"
#include "../../report/report.h"
#include "check.h"
#include "groups.h"
#include "render.h"

/* jhash2 meets both targets; xxh3 is over the compute-bound rate (no rdtsc
 * target) and misses the harness's. */
static void two_rows(struct selfcheck_row r[2])
{
	memset(r, 0, 2 * sizeof(*r));
	r[0].hash = "jhash2";
	strcpy(r[0].data, "random");
	r[0].page_size = 4096;
	r[0].minimal_ns_per_page = 1600.04;
	r[0].harness_ns_per_page = 1640.5;
	r[0].harness_diff_percent = 2.53;
	r[0].harness_ok = 1;
	r[0].window_ns_per_page_median = 1650.25;
	r[0].rdtsc_ns_per_page_median = 1620.5;
	r[0].rdtsc_ns_per_page_mean = 1700.1;
	r[0].rdtsc_diff_percent = 3.02;
	r[0].compute_bound = r[0].rdtsc_ok = 1;
	r[1].hash = "xxh3";
	strcpy(r[1].data, "random");
	r[1].page_size = 4096;
	r[1].minimal_ns_per_page = 100;
	r[1].harness_ns_per_page = 110;
	r[1].harness_diff_percent = 10;
	r[1].window_ns_per_page_median = 112;
	r[1].rdtsc_ns_per_page_median = 120.5;
	r[1].rdtsc_ns_per_page_mean = 130;
	r[1].rdtsc_diff_percent = 16.07;
}

static const cJSON *item(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static int is_number(const cJSON *o, const char *key, double want)
{
	const cJSON *v = item(o, key);

	return cJSON_IsNumber(v) && v->valuedouble == want;
}

/* A row passes on the harness's target, and on rdtsc's where it applies. */
void test_selfcheck_passed(void)
{
	struct selfcheck_row r[2];

	two_rows(r);
	CHECK(selfcheck_row_passed(&r[0]) && !selfcheck_row_passed(&r[1]));
	r[1].harness_ok = 1; /* no rdtsc target: its miss does not count */
	CHECK(selfcheck_row_passed(&r[1]));
	r[1].compute_bound = 1;
	CHECK(!selfcheck_row_passed(&r[1]));
	r[0].harness_ok = 0;
	CHECK(!selfcheck_row_passed(&r[0]));
}

void test_selfcheck_json(void)
{
	static struct bench_context ctx;
	struct selfcheck_row r[2];

	two_rows(r);
	strcpy(ctx.warnings[0], "a warning");
	ctx.nwarnings = 1;
	struct report_document doc = { .kind = REPORT_SELFCHECK, .ctx = &ctx, .checks = r, .nchecks = 2 };
	char *text = unit_render("json", &doc);
	cJSON *o = text ? cJSON_Parse(text) : NULL;
	free(text);
	CHECK(o != NULL);
	CHECK_STR(cJSON_GetStringValue(item(o, "schema")), "ksmbench-selfcheck/1");
	CHECK(cJSON_IsFalse(item(o, "passed")));
	const cJSON *warnings = item(item(o, "context"), "warnings");
	CHECK(cJSON_GetArraySize(warnings) == 1 && strcmp(cJSON_GetArrayItem(warnings, 0)->valuestring, "a warning") == 0);
	const cJSON *checks = item(o, "checks");
	CHECK(cJSON_GetArraySize(checks) == 2);
	const cJSON *a = cJSON_GetArrayItem(checks, 0), *b = cJSON_GetArrayItem(checks, 1);
	CHECK_STR(cJSON_GetStringValue(item(a, "hash")), "jhash2");
	CHECK_STR(cJSON_GetStringValue(item(a, "data")), "random");
	CHECK(is_number(a, "page_size_bytes", 4096) && is_number(a, "misalign_bytes", 0));
	CHECK(is_number(a, "minimal_ns_per_page", 1600.04) && is_number(a, "harness_ns_per_page", 1640.5) &&
	      is_number(a, "harness_diff_percent", 2.53) && is_number(a, "window_ns_per_page_median", 1650.25) &&
	      is_number(a, "rdtsc_ns_per_page_mean", 1700.1) && is_number(a, "rdtsc_ns_per_page_median", 1620.5) &&
	      is_number(a, "rdtsc_diff_percent", 3.02));
	/* The targets, the rate compute_bound follows and its limit: a reader
	 * needs nothing else to judge a row. */
	CHECK(is_number(a, "harness_target_percent", SELFCHECK_HARNESS_TARGET_PERCENT) &&
	      is_number(a, "rdtsc_target_percent", SELFCHECK_RDTSC_TARGET_PERCENT) &&
	      is_number(a, "compute_bound_below_bytes_per_second", SELFCHECK_COMPUTE_BOUND_BYTES_PER_S) &&
	      is_number(a, "window_bytes_per_second_median", 4096e9 / 1650.25));
	CHECK(cJSON_IsTrue(item(a, "harness_within_target")) && cJSON_IsTrue(item(a, "compute_bound")) &&
	      cJSON_IsTrue(item(a, "rdtsc_within_target")) && cJSON_IsTrue(item(a, "passed")));
	/* Not compute-bound: no rdtsc target (null), its comparison still said. */
	CHECK(cJSON_IsNull(item(b, "rdtsc_target_percent")) && cJSON_IsFalse(item(b, "compute_bound")) &&
	      cJSON_IsFalse(item(b, "rdtsc_within_target")) && cJSON_IsFalse(item(b, "harness_within_target")) &&
	      cJSON_IsFalse(item(b, "passed")) && is_number(b, "rdtsc_diff_percent", 16.07));
	cJSON_Delete(o);

	r[1].harness_ok = 1;
	text = unit_render("json", &doc);
	o = text ? cJSON_Parse(text) : NULL;
	free(text);
	CHECK(o && cJSON_IsTrue(item(o, "passed")));
	cJSON_Delete(o);
}

#define CSV_HEADER                                                                                        \
	"hash,data,page_size_bytes,misalign_bytes,minimal_ns_per_page,harness_ns_per_page,"                \
	"harness_diff_percent,harness_target_percent,harness_within_target,window_ns_per_page_median,"     \
	"window_bytes_per_second_median,compute_bound_below_bytes_per_second,compute_bound,"               \
	"rdtsc_ns_per_page_mean,rdtsc_ns_per_page_median,rdtsc_diff_percent,rdtsc_target_percent,"         \
	"rdtsc_within_target,passed\n"

void test_selfcheck_rows(void)
{
	static struct bench_context ctx;
	struct selfcheck_row r[2];
	char tsv[sizeof(CSV_HEADER)];

	two_rows(r);
	struct report_document doc = { .kind = REPORT_SELFCHECK, .ctx = &ctx, .checks = r, .nchecks = 2 };
	char *text = unit_render("csv", &doc);
	CHECK(text && strncmp(text, CSV_HEADER, strlen(CSV_HEADER)) == 0);
	/* Numbers exact, the target empty where none applies. */
	CHECK(text && strstr(text, "\njhash2,random,4096,0,1600.04,1640.5,") && strstr(text, ",3.02,5,true,true\n") &&
	      strstr(text, "\nxxh3,random,4096,0,100,110,10,3,false,112,") && strstr(text, ",16.07,,false,false\n"));
	free(text);
	text = unit_render("tsv", &doc);
	snprintf(tsv, sizeof(tsv), "%s", CSV_HEADER);
	for (char *p = tsv; (p = strchr(p, ',')) != NULL;)
		*p++ = '\t';
	CHECK(text && strncmp(text, tsv, strlen(tsv)) == 0 && strstr(text, "\t16.07\t\tfalse\tfalse\n"));
	free(text);
}

/* The table below the context line, as the hand-built one printed it. */
static const char table_text[] =
	"HASH    minimal  harness  diff %  within 3%  window  rdtsc mean  diff %  within 5%  rdtsc median\n"
	"------------------------------------------------------------------------------------------------\n"
	"jhash2   1600.0   1640.5   +2.53  yes        1650.2      1700.1   +3.02  yes              1620.5\n"
	"xxh3      100.0    110.0  +10.00  NO          112.0       130.0  +16.07  no*               120.5\n"
	"\n"
	"ns/page. harness: the window timer's best round; minimal: a bare loop around the same\n"
	"calls; window: its median round.\n"
	"rdtsc mean: the mean call, timer overhead subtracted, interruptions included as in a\n"
	"window's wall time (compared with the window's median round); rdtsc median leaves\n"
	"them out, so the gap between the two is time lost to interrupts and preemption.\n"
	"*: not compute-bound (over 16 GB/s, where call overhead and rdtsc's\n"
	"serialisation are a visible share of a call): no target.\n"
	"warning: a warning\n";

void test_selfcheck_text(void)
{
	static struct bench_context ctx;
	struct selfcheck_row r[2];
	char names[160];
	struct kb_err err;

	two_rows(r);
	strcpy(ctx.warnings[0], "a warning");
	ctx.nwarnings = 1;
	struct report_document doc = { .kind = REPORT_SELFCHECK, .ctx = &ctx, .checks = r, .nchecks = 2 };
	char *text = unit_render("table", &doc);
	const char *table = text ? strstr(text, "HASH ") : NULL;
	CHECK(table && strcmp(table, table_text) == 0);
	free(text);
	/* Every hash compute-bound: no "*" and no line saying what it means. */
	r[1].compute_bound = 1;
	text = unit_render("table", &doc);
	CHECK(text && strstr(text, " NO                120.5\n") && !strstr(text, "*"));
	free(text);
	r[1].compute_bound = 0;
	/* The harness within its target and rdtsc not: each column says its own. */
	r[0].rdtsc_ok = 0;
	text = unit_render("table", &doc);
	CHECK(text && strstr(text, "\njhash2   1600.0   1640.5   +2.53  yes        1650.2      1700.1   +3.02  NO"
				   "               1620.5\n"));
	free(text);
	r[0].rdtsc_ok = 1;
	text = unit_render("markdown", &doc);
	CHECK(text && strstr(text, "\n| HASH | minimal | harness | diff % | within 3% | window | rdtsc mean | diff % | "
				   "within 5% | rdtsc median |\n| --- | ---: |") &&
	      strstr(text, "\n| xxh3 | 100.0 | 110.0 | +10.00 | NO | 112.0 | 130.0 | +16.07 | no\\* | 120.5 |\n") &&
	      strstr(text, "\n- ns/page. harness: the window timer's best round; minimal: a bare loop around the same "
			   "calls; window: its median round.\n") &&
	      strstr(text, "\n- \\*: not compute-bound") && strstr(text, "\n- Warning: a warning\n"));
	free(text);
	CHECK_STR(report_format_names(REPORT_SELFCHECK, "|", names, sizeof(names)), "table|csv|tsv|json|markdown");
	CHECK(report_format_find("kernel", REPORT_SELFCHECK, &err) == NULL &&
	      strstr(err.msg, "unknown format 'kernel' for bench --selfcheck (table, csv, tsv, json or markdown)"));
}
