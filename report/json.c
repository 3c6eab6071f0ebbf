/* The JSON report: {schema, context, results}. Field names carry their units;
 * every result has every field, null where it does not apply, so that
 * dashboards can rely on the shape (README: "JSON schema"). */
#include <stdlib.h>
#include <string.h>

#include "../common/versions.h"
#include "results.h"

void report_json_number_or_null(cJSON *o, const char *key, int present, double value)
{
	if (present)
		cJSON_AddNumberToObject(o, key, value);
	else
		cJSON_AddNullToObject(o, key);
}

static void add_string_or_null(cJSON *o, const char *key, const char *value)
{
	if (value && *value)
		cJSON_AddStringToObject(o, key, value);
	else
		cJSON_AddNullToObject(o, key);
}

/* A comma-separated list as a JSON array of strings. */
static void add_list(cJSON *o, const char *key, const char *list)
{
	cJSON *arr = cJSON_AddArrayToObject(o, key);
	char buf[256];

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); arr && tok; tok = strtok_r(NULL, ",", &save))
		cJSON_AddItemToArray(arr, cJSON_CreateString(tok));
}

cJSON *report_json_context(const struct bench_context *c)
{
	cJSON *o = cJSON_CreateObject();
	const struct cpu_description *d = &c->cpu;

	cJSON_AddStringToObject(o, "date", c->date);
	cJSON_AddStringToObject(o, "host", c->host);
	cJSON_AddStringToObject(o, "ksmbench_version", c->version);
	cJSON_AddStringToObject(o, "git_revision", c->git_revision);
	cJSON_AddStringToObject(o, "compiler", c->compiler);
	cJSON_AddStringToObject(o, "cflags", c->cflags);
	cJSON_AddBoolToObject(o, "optimized", c->optimized);
	cJSON_AddBoolToObject(o, "sanitized", c->sanitized);
	cJSON *libs = cJSON_AddObjectToObject(o, "libraries");
	for (unsigned i = 0; libs && kb_library_keys[i]; i++)
		add_string_or_null(libs, kb_library_keys[i], kb_library_version(kb_library_keys[i]));
	cJSON *cpu = cJSON_AddObjectToObject(o, "cpu");
	if (cpu) {
		add_string_or_null(cpu, "vendor", d->known ? d->vendor : NULL);
		add_string_or_null(cpu, "brand", d->known ? d->brand : NULL);
		report_json_number_or_null(cpu, "family", d->known, d->family);
		report_json_number_or_null(cpu, "model", d->known, d->model);
		report_json_number_or_null(cpu, "stepping", d->known, d->stepping);
		report_json_number_or_null(cpu, "ext_family", d->known, d->ext_family);
		report_json_number_or_null(cpu, "ext_model", d->known, d->ext_model);
		cJSON_AddNumberToObject(cpu, "logical_cpus", d->logical_cpus);
		report_json_number_or_null(cpu, "cache_l1d_bytes", d->l1d_kib > 0, d->l1d_kib * 1024.0);
		report_json_number_or_null(cpu, "cache_l2_bytes", d->l2_kib > 0, d->l2_kib * 1024.0);
		report_json_number_or_null(cpu, "cache_l3_bytes", d->l3_kib > 0, d->l3_kib * 1024.0);
	}
	add_list(o, "features_used", c->features_used);
	report_json_number_or_null(o, "tsc_hz", c->counter_is_tsc, c->counter_hz);
	cJSON_AddBoolToObject(o, "tsc_invariant", c->counter_is_tsc && c->tsc_invariant);
	cJSON_AddBoolToObject(o, "rdtscp", c->has_rdtscp);
	report_json_number_or_null(o, "timer_overhead_tsc_cycles", c->counter_is_tsc, c->counter_overhead_ticks);
	cJSON_AddNumberToObject(o, "clock_resolution_ns", (double)c->clock_resolution_ns);
	cJSON_AddNumberToObject(o, "clock_granularity_ns", (double)c->clock_granularity_ns);
	add_string_or_null(o, "kernel_release", c->kernel_release);
	add_string_or_null(o, "governor", c->governor);
	cJSON_AddNumberToObject(o, "pinned_cpu", c->pinned_cpu);
	cJSON *w = cJSON_AddArrayToObject(o, "warnings");
	for (unsigned i = 0; w && i < c->nwarnings; i++)
		cJSON_AddItemToArray(w, cJSON_CreateString(c->warnings[i]));
	return o;
}

cJSON *report_json_result(const struct bench_result *x)
{
	cJSON *o = cJSON_CreateObject();
	int jif = x->timer == BENCH_TIMER_JIFFIES, per_call = x->timer == BENCH_TIMER_RDTSC;
	int tsc = per_call && x->counter_is_tsc;
	double ns_per_tick = 1e9 / x->counter_hz;

	cJSON_AddStringToObject(o, "hash", x->hash);
	cJSON_AddStringToObject(o, "implementation", x->impl);
	cJSON_AddStringToObject(o, "data", x->data);
	cJSON_AddStringToObject(o, "cache", x->cache);
	cJSON_AddNumberToObject(o, "page_size_bytes", x->page_size);
	cJSON_AddNumberToObject(o, "misalign_bytes", x->misalign);
	cJSON_AddNumberToObject(o, "working_set_bytes", (double)x->working_set_bytes);
	cJSON_AddNumberToObject(o, "pages_in_set", (double)x->set_pages);
	cJSON_AddStringToObject(o, "timer", bench_timer_name(x->timer));
	cJSON_AddStringToObject(o, "clock", report_clock_name(x));
	cJSON_AddNumberToObject(o, "repeats", x->repeats);
	cJSON_AddNumberToObject(o, "repeats_requested", x->repeats_requested);
	cJSON_AddBoolToObject(o, "interrupted", x->interrupted);
	cJSON_AddNumberToObject(o, "calls", (double)x->calls);
	cJSON_AddNumberToObject(o, "round_ns", (double)x->window_ns);
	cJSON_AddNumberToObject(o, "bytes_per_second_best", x->bytes_per_second_best);
	cJSON_AddNumberToObject(o, "bytes_per_second_median", x->bytes_per_second_median);
	cJSON_AddNumberToObject(o, "ns_per_page_best", x->ns_per_page.best);
	cJSON_AddNumberToObject(o, "ns_per_page_median", x->ns_per_page.median);
	cJSON_AddNumberToObject(o, "ns_per_page_min", x->ns_per_page.min);
	cJSON_AddNumberToObject(o, "ns_per_page_max", x->ns_per_page.max);
	cJSON_AddNumberToObject(o, "ns_per_page_mean", x->ns_per_page.mean);
	cJSON_AddNumberToObject(o, "cv", x->ns_per_page.cv);
	/* Every round's rate, for compare's rank test. */
	cJSON *rounds = cJSON_AddArrayToObject(o, "bytes_per_second_rounds");
	for (unsigned i = 0; rounds && i < x->repeats; i++)
		cJSON_AddItemToArray(rounds, cJSON_CreateNumber(x->ns_per_page_rounds[i] > 0
									? x->page_size * 1e9 / x->ns_per_page_rounds[i]
									: 0));
	report_json_number_or_null(o, "hz", jif, x->hz);
	report_json_number_or_null(o, "window_jiffies", jif, x->window_jiffies);
	if (jif)
		cJSON_AddBoolToObject(o, "align_tick", x->align_tick);
	else
		cJSON_AddNullToObject(o, "align_tick");
	report_json_number_or_null(o, "kernel_mb_per_s_best", jif, (double)x->kernel_mb_per_s_best);
	report_json_number_or_null(o, "kernel_mb_per_s_median", jif, (double)x->kernel_mb_per_s_median);
	report_json_number_or_null(o, "window_ns_median", jif, x->window_ns_median);
	report_json_number_or_null(o, "bias_percent_median", jif, x->bias_percent_median);
	report_json_number_or_null(o, "tsc_cycles_per_page_median", tsc, x->ns_per_page.median / ns_per_tick);
	report_json_number_or_null(o, "tsc_cycles_per_call_p10", tsc, x->ticks_per_call_p10);
	report_json_number_or_null(o, "tsc_cycles_per_call_median", tsc, x->ticks_per_call_median);
	report_json_number_or_null(o, "tsc_cycles_per_call_p90", tsc, x->ticks_per_call_p90);
	report_json_number_or_null(o, "tsc_cycles_per_call_mean", tsc, x->ticks_per_call_mean);
	report_json_number_or_null(o, "ns_per_call_p10", per_call, x->ticks_per_call_p10 * ns_per_tick);
	report_json_number_or_null(o, "ns_per_call_median", per_call, x->ticks_per_call_median * ns_per_tick);
	report_json_number_or_null(o, "ns_per_call_p90", per_call, x->ticks_per_call_p90 * ns_per_tick);
	report_json_number_or_null(o, "ns_per_call_mean", per_call, x->ticks_per_call_mean * ns_per_tick);
	report_json_number_or_null(o, "timer_overhead_tsc_cycles", tsc, x->overhead_ticks);
	return o;
}

cJSON *report_json_document(const struct bench_context *ctx, const struct bench_result *r, size_t n)
{
	cJSON *doc = cJSON_CreateObject();

	if (!doc)
		return NULL;
	cJSON_AddStringToObject(doc, "schema", REPORT_SCHEMA);
	cJSON_AddBoolToObject(doc, "interrupted", ctx->interrupted_by != 0);
	cJSON_AddItemToObject(doc, "context", report_json_context(ctx));
	cJSON *arr = cJSON_AddArrayToObject(doc, "results");
	for (size_t i = 0; arr && i < n; i++)
		cJSON_AddItemToArray(arr, report_json_result(&r[i]));
	return doc;
}

int report_json_print(FILE *out, cJSON *doc)
{
	char *text = doc ? cJSON_Print(doc) : NULL;
	int rc = text && fprintf(out, "%s\n", text) >= 0 && !ferror(out) ? 0 : -1;

	free(text);
	cJSON_Delete(doc);
	return rc;
}
