/* The gha format: the JSON array github-action-benchmark's
 * customBiggerIsBetter tool reads, one object per result, for bench, thread
 * and select documents. */
#include <stdio.h>

#include "../common/plural.h"
#include "kinds.h"
#include "record_json.h"

/* github-action-benchmark's name: stable across runs (no path, date or
 * host), "HASH DATA CACHE PAGEB TIMER[ apart]", so that a dashboard's
 * series go on. */
static void gha_name(char *buf, size_t size, const struct bench_result *r)
{
	char page[32];

	if (r->misalign)
		snprintf(page, sizeof(page), "%uB+%u", r->page_size, r->misalign);
	else
		snprintf(page, sizeof(page), "%uB", r->page_size);
	snprintf(buf, size, "%s %s %s %s %s", r->hash, report_stable_data(r->data), r->cache, page,
		 bench_timer_label(r->timer, r->apart));
}

/* {name, unit, value, range, extra}: the unit is always MB/s (10^6 bytes
 * per second), the value the headline (median over processes), the range
 * half its interval over processes, or with one process half the spread of
 * the rounds. */
static cJSON *gha_entry(const struct bench_result *r, const struct bench_context *ctx)
{
	cJSON *o = cJSON_CreateObject();
	char name[400], range[64], extra[400], cv[32] = "";
	double lo = bench_bytes_per_s(r->page_size, r->ns_per_page.max) / 1e6;
	double hi = bench_bytes_per_s(r->page_size, r->ns_per_page.min) / 1e6;

	if (!o)
		return NULL;
	gha_name(name, sizeof(name), r);
	if (r->over_processes.n > 1) { /* the interval over processes */
		lo = r->over_processes.low * r->page_size / 1e6;
		hi = r->over_processes.high * r->page_size / 1e6;
	}
	snprintf(range, sizeof(range), "± %.1f", (hi - lo) / 2);
	if (r->ns_per_page.n > 1)
		snprintf(cv, sizeof(cv), "; CV %.2f%%", r->ns_per_page.cv * 100);
	snprintf(extra, sizeof(extra),
		 "implementation %s; best %.1f MB/s; median over %u process%s (%u round%s)%s; %s%s",
		 r->impl, bench_bytes_per_s(r->page_size, r->ns_per_page.best) / 1e6, r->nprocesses,
		 kb_es(r->nprocesses), r->repeats, kb_s(r->repeats), cv, r->unstable ? "unstable" : "stable",
		 r->interrupted ? "; rounds cut short by an interruption"
		 : ctx->interrupted_by ? "; run interrupted" : "");
	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddStringToObject(o, "unit", "MB/s");
	cJSON_AddNumberToObject(o, "value", bench_bytes_per_s(r->page_size, r->ns_per_page.median) / 1e6);
	cJSON_AddStringToObject(o, "range", range);
	cJSON_AddStringToObject(o, "extra", extra);
	return o;
}

static int bench_report_gha(FILE *out, const struct report_document *doc)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; arr && i < doc->nresults; i++) {
		cJSON *o = gha_entry(&doc->results[i], doc->ctx);
		if (!o) {
			cJSON_Delete(arr);
			return -1;
		}
		cJSON_AddItemToArray(arr, o);
	}
	return record_json_print(out, arr);
}

const struct report_format report_format_gha = {
	"gha",
	{ [REPORT_BENCH] = bench_report_gha, [REPORT_THREAD] = bench_report_gha, [REPORT_SELECT] = bench_report_gha },
	0,
};
