/* The JSON array github-action-benchmark reads with its customBiggerIsBetter
 * tool: one object {name, unit, value, range, extra} per result. The name is
 * stable across runs (no path, date or host in it) so that a dashboard's
 * series continue; the unit is always MB/s (10^6 bytes per second), the
 * value the median round's rate, the range half the spread of the rounds. */
#include <stdlib.h>
#include <string.h>

#include "results.h"

void report_gha_name(char *buf, size_t size, const struct bench_result *r)
{
	char page[32];

	if (r->misalign)
		snprintf(page, sizeof(page), "%uB+%u", r->page_size, r->misalign);
	else
		snprintf(page, sizeof(page), "%uB", r->page_size);
	snprintf(buf, size, "%s %s %s %s %s", r->hash, report_stable_data(r->data), r->cache, page,
		 bench_timer_name(r->timer));
}

int report_gha(FILE *out, const struct bench_context *ctx, const struct bench_result *r, size_t n)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; arr && i < n; i++) {
		const struct bench_result *x = &r[i];
		cJSON *o = cJSON_CreateObject();
		char name[400], range[64], extra[400];
		/* Rates of the slowest and fastest rounds. */
		double lo = x->ns_per_page.max > 0 ? x->page_size * 1e3 / x->ns_per_page.max : 0;
		double hi = x->ns_per_page.min > 0 ? x->page_size * 1e3 / x->ns_per_page.min : 0;

		if (!o) {
			cJSON_Delete(arr);
			return -1;
		}
		cJSON_AddItemToArray(arr, o);
		report_gha_name(name, sizeof(name), x);
		snprintf(range, sizeof(range), "± %.1f", (hi - lo) / 2);
		snprintf(extra, sizeof(extra), "implementation %s; best %.1f MB/s; median of %u rounds; CV %.2f%%%s",
			 x->impl, x->bytes_per_second_best / 1e6, x->repeats, x->ns_per_page.cv * 100,
			 x->interrupted ? "; rounds cut short by an interruption"
			 : ctx->interrupted_by ? "; run interrupted" : "");
		cJSON_AddStringToObject(o, "name", name);
		cJSON_AddStringToObject(o, "unit", "MB/s");
		cJSON_AddNumberToObject(o, "value", x->bytes_per_second_median / 1e6);
		cJSON_AddStringToObject(o, "range", range);
		cJSON_AddStringToObject(o, "extra", extra);
	}
	return report_json_print(out, arr);
}
