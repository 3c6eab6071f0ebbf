/* The fields of a result (struct bench_result) and of the run's context:
 * the one description JSON, CSV, the tables and results_load use. Every
 * result has every field, null where it does not apply (the timer's row
 * class says which); CSV columns are the fields marked RECORD_CSV, in
 * table order. Units are in the names. */
#include "result_fields.h"

#include <string.h>

#include "../bench/disturb.h"
#include "../bench/estimate.h"
#include "../bench/pin.h"
#include "../common/versions.h"
#include "kinds.h"
#include "report.h"
#include "results_load.h"
#include "round_fields.h"
#include "stability_text.h"

#define RES(row) ((const struct bench_result *)(row)->item)
#define CTX(row) ((const struct bench_context *)(row)->item)
#define CPU(row) ((const struct cpu_description *)(row)->item)

/* Row classes: which timer, and for rdtsc which counter. */
enum { WINDOW = 1, JIFFIES = 2, RDTSC_TSC = 4, RDTSC_NS = 8, RDTSC = RDTSC_TSC | RDTSC_NS, KSMD = 16 };

static unsigned result_class(const struct record_row *row)
{
	const struct bench_result *r = RES(row);

	if (r->timer == BENCH_TIMER_JIFFIES)
		return JIFFIES;
	if (r->timer == BENCH_TIMER_RDTSC)
		return r->counter.is_tsc ? RDTSC_TSC : RDTSC_NS;
	if (r->timer == BENCH_TIMER_KSMD)
		return KSMD;
	return WINDOW;
}

static double rate(const struct bench_result *r, double ns)
{
	return bench_bytes_per_s(r->page_size, ns);
}

static double cycles(const struct bench_result *r, double ns)
{
	return ns * r->counter.hz / 1e9;
}

static double per_call_ns(const struct bench_result *r, double ticks)
{
	return bench_ticks_ns(&r->counter, ticks);
}

RECORD_GETTER(g_hash, record_str(v, RES(w)->hash))
RECORD_GETTER(g_impl, record_str(v, RES(w)->impl))
RECORD_GETTER(g_data, record_str(v, RES(w)->data))
RECORD_GETTER(g_cache, record_str(v, RES(w)->cache))
RECORD_GETTER(g_cold_by, record_str(v, RES(w)->cold_by))
RECORD_GETTER(g_page, record_uint(v, RES(w)->page_size))
RECORD_GETTER(g_misalign, record_uint(v, RES(w)->misalign))
RECORD_GETTER(g_ws, record_uint(v, RES(w)->working_set_bytes))
RECORD_GETTER(g_pages, record_uint(v, RES(w)->set_pages))
RECORD_GETTER(g_timer, record_str(v, bench_timer_name(RES(w)->timer)))
RECORD_GETTER(g_apart, record_bool(v, RES(w)->apart))
/* Null where no fence of its own was taken off (back to back, or rdtsc's
 * samples of one call, fenced by the counter's reads). */
RECORD_GETTER(g_fence, RES(w)->apart && RES(w)->fence_ns > 0 && record_real(v, RES(w)->fence_ns))
RECORD_GETTER(g_repeats, record_uint(v, RES(w)->repeats))
RECORD_GETTER(g_requested, record_uint(v, RES(w)->repeats_requested))
RECORD_GETTER(g_interrupted, record_bool(v, RES(w)->interrupted))
RECORD_GETTER(g_calls, record_uint(v, RES(w)->calls))
RECORD_GETTER(g_round_ns, record_uint(v, RES(w)->window_ns))
RECORD_GETTER(g_bps_best, record_real(v, rate(RES(w), RES(w)->ns_per_page.best)))
RECORD_GETTER(g_bps_median, record_real(v, rate(RES(w), RES(w)->ns_per_page.median)))
RECORD_GETTER(g_ns_best, record_real(v, RES(w)->ns_per_page.best))
RECORD_GETTER(g_ns_median, record_real(v, RES(w)->ns_per_page.median))
RECORD_GETTER(g_ns_min, record_real(v, RES(w)->ns_per_page.min))
RECORD_GETTER(g_ns_max, record_real(v, RES(w)->ns_per_page.max))
RECORD_GETTER(g_ns_mean, record_real(v, RES(w)->ns_per_page.mean))
/* One round has no spread: no CV. */
RECORD_GETTER(g_cv, RES(w)->ns_per_page.n > 1 && record_real(v, RES(w)->ns_per_page.cv))
RECORD_GETTER(g_bps_unint, RES(w)->uninterrupted_ns_best > 0 &&
				   record_real(v, rate(RES(w), RES(w)->uninterrupted_ns_best)))
/* The share of this CPU's ceiling the best round reached (null without
 * one): its uninterrupted batches where they were logged, since the
 * ceiling's short probes keep runs no interruption met. */
static int g_pct(const struct record_row *w, struct record_value *v)
{
	const struct bench_result *r = RES(w);
	double best = rate(r, r->uninterrupted_ns_best > 0 ? r->uninterrupted_ns_best : r->ns_per_page.best);

	return r->ceiling_bytes_per_s > 0 && best > 0 && record_real(v, 100 * best / r->ceiling_bytes_per_s);
}

RECORD_GETTER(g_ceiling, RES(w)->ceiling_bytes_per_s > 0 && record_real(v, RES(w)->ceiling_bytes_per_s))
RECORD_GETTER(g_ceiling_limit, record_str(v, RES(w)->ceiling_limit))
static size_t n_rounds(const struct record_row *w)
{
	return RES(w)->repeats;
}

RECORD_GETTER(g_round_bps, record_real(v, rate(RES(w), RES(w)->rounds[w->index].ns_per_page)))
RECORD_GETTER(g_round, record_item(v, &RES(w)->rounds[w->index]))

static size_t n_aliases(const struct record_row *w)
{
	return RES(w)->naliases;
}

RECORD_GETTER(g_alias, record_str(v, RES(w)->aliases[w->index]))
RECORD_GETTER(g_processes, record_uint(v, RES(w)->nprocesses))
RECORD_GETTER(g_processes_used, record_uint(v, RES(w)->processes_used))
RECORD_GETTER(g_rounds_disturbed, record_uint(v, RES(w)->rounds_disturbed))
/* The interval of the median over processes (pages a second, so in bytes
 * a second times the page); null for one value. */
RECORD_GETTER(g_ci_low, RES(w)->over_processes.n > 1 &&
				record_real(v, RES(w)->over_processes.low * RES(w)->page_size))
RECORD_GETTER(g_ci_high, RES(w)->over_processes.n > 1 &&
				 record_real(v, RES(w)->over_processes.high * RES(w)->page_size))
RECORD_GETTER(g_ci_level, RES(w)->over_processes.n > 1 && record_real(v, RES(w)->over_processes.level))
RECORD_GETTER(g_ci_pct, RES(w)->over_processes.n > 1 &&
				record_real(v, estimate_half_width_percent(&RES(w)->over_processes)))
RECORD_GETTER(g_spread, RES(w)->over_processes.n > 1 && record_real(v, RES(w)->over_processes.spread * 100))
RECORD_GETTER(g_stability, record_str(v, RES(w)->unstable ? "unstable" : "stable"))

static size_t n_reasons(const struct record_row *w)
{
	return record_bits_count(RES(w)->unstable, STABILITY_KINDS);
}

static int g_reason(const struct record_row *w, struct record_value *v)
{
	int i = record_bits_at(RES(w)->unstable, STABILITY_KINDS, w->index);

	return i >= 0 && record_str(v, report_stability_code((unsigned)i));
}

static int g_reason_text(const struct record_row *w, struct record_value *v)
{
	report_stability_reasons(RES(w), v->buf, sizeof(v->buf));
	return record_str(v, v->buf);
}

/* The values the interval is over: each process's with one. */
static size_t n_values(const struct record_row *w)
{
	size_t n = 0;

	for (unsigned i = 0; i < RES(w)->nprocesses; i++)
		n += RES(w)->per_process[i].ns_per_page > 0;
	return n;
}

static int g_value(const struct record_row *w, struct record_value *v)
{
	size_t seen = 0;

	for (unsigned i = 0; i < RES(w)->nprocesses; i++)
		if (RES(w)->per_process[i].ns_per_page > 0 && seen++ == w->index)
			return record_real(v, rate(RES(w), RES(w)->per_process[i].ns_per_page));
	return 0;
}

static size_t n_processes(const struct record_row *w)
{
	return RES(w)->nprocesses;
}

RECORD_GETTER(g_process, record_item(v, &RES(w)->per_process[w->index]))
RECORD_GETTER(g_cpp, RES(w)->core_cycles_per_page > 0 && record_real(v, RES(w)->core_cycles_per_page))
RECORD_GETTER(g_ipc, RES(w)->ipc > 0 && record_real(v, RES(w)->ipc))
RECORD_GETTER(g_batch, record_uint(v, RES(w)->rdtsc.batch_calls))
RECORD_GETTER(g_ksmd_pages, record_uint(v, RES(w)->ksmd.pages_to_scan))
RECORD_GETTER(g_ksmd_sleep, record_uint(v, RES(w)->ksmd.sleep_ms))
RECORD_GETTER(g_ksmd_first, record_real(v, per_call_ns(RES(w), RES(w)->ksmd.first_page_ticks)))
RECORD_GETTER(g_ksmd_p10, record_real(v, per_call_ns(RES(w), RES(w)->ksmd.ticks_per_page_p10)))
RECORD_GETTER(g_ksmd_p90, record_real(v, per_call_ns(RES(w), RES(w)->ksmd.ticks_per_page_p90)))
RECORD_GETTER(g_resolution, record_real(v, RES(w)->rdtsc.resolution_ticks))
RECORD_GETTER(g_kmb_best, record_int(v, RES(w)->jiffies.kernel_mb_per_s_best))
RECORD_GETTER(g_kmb_median, record_int(v, RES(w)->jiffies.kernel_mb_per_s_median))
RECORD_GETTER(g_hz, record_uint(v, RES(w)->jiffies.hz))
RECORD_GETTER(g_wjiffies, record_uint(v, RES(w)->jiffies.window_jiffies))
RECORD_GETTER(g_align, record_bool(v, RES(w)->jiffies.align_tick))
RECORD_GETTER(g_window_med, record_real(v, RES(w)->jiffies.window_ns_median))
RECORD_GETTER(g_bias, record_real(v, RES(w)->jiffies.bias_percent_median))
RECORD_GETTER(g_cyc_page, record_real(v, cycles(RES(w), RES(w)->ns_per_page.median)))
RECORD_GETTER(g_cyc_p10, record_real(v, RES(w)->rdtsc.ticks_per_call_p10))
RECORD_GETTER(g_cyc_med, record_real(v, RES(w)->rdtsc.ticks_per_call_median))
RECORD_GETTER(g_cyc_p90, record_real(v, RES(w)->rdtsc.ticks_per_call_p90))
RECORD_GETTER(g_cyc_mean, record_real(v, RES(w)->rdtsc.ticks_per_call_mean))
RECORD_GETTER(g_call_p10, record_real(v, per_call_ns(RES(w), RES(w)->rdtsc.ticks_per_call_p10)))
RECORD_GETTER(g_call_med, record_real(v, per_call_ns(RES(w), RES(w)->rdtsc.ticks_per_call_median)))
RECORD_GETTER(g_call_p90, record_real(v, per_call_ns(RES(w), RES(w)->rdtsc.ticks_per_call_p90)))
RECORD_GETTER(g_call_mean, record_real(v, per_call_ns(RES(w), RES(w)->rdtsc.ticks_per_call_mean)))
RECORD_GETTER(g_overhead, record_real(v, RES(w)->counter.overhead_ticks))
RECORD_GETTER(g_clock, record_str(v, result_class(w) == RDTSC_TSC ? "tsc" : "monotonic"))

#define LR(member) RECORD_LOAD(struct loaded_result, member)
#define CSV RECORD_CSV
#define REQ RECORD_REQUIRED

/* What a document read back may say (docs/input-limits.md): a page of 1 byte
 * to 1 GB, a misalignment within one, at most 10^9 rounds, a rate up to a
 * petabyte a second (0: none, rounds faster than their timer resolves) (the rates round_fields.h names) and a time from a
 * femtosecond (some rounds of a 1-byte page) to 11 days, or 0 for a time a
 * timer does not measure (jiffies). Within these every rate derived stays
 * finite. */
static const struct record_range page_range = { 1, 1e9, 0 }, misalign_range = { 0, 1e9, 0 },
				 repeats_range = { 0, 1e9, 0 }, ns_range = { 1e-6, 1e15, 1 };

static const struct record_field result_fields[] = {
	{ .name = "hash", .type = RECORD_STR, .flags = CSV | REQ, .get = g_hash, .load = LR(hash) },
	{ .name = "implementation", .type = RECORD_STR, .flags = CSV, .get = g_impl, .load = LR(impl) },
	{ .name = "data", .type = RECORD_STR, .flags = CSV | REQ, .get = g_data, .load = LR(data) },
	{ .name = "cache", .type = RECORD_STR, .flags = CSV | REQ, .get = g_cache, .load = LR(cache) },
	{ .name = "cold_by", .type = RECORD_STR, .get = g_cold_by, .load = LR(cold_by) },
	{ .name = "page_size_bytes", .type = RECORD_UINT, .flags = CSV | REQ, .get = g_page,
	  .load = LR(page_size), .range = &page_range },
	{ .name = "misalign_bytes", .type = RECORD_UINT, .flags = CSV, .get = g_misalign,
	  .load = LR(misalign), .range = &misalign_range },
	{ .name = "working_set_bytes", .type = RECORD_UINT, .flags = CSV, .get = g_ws },
	{ .name = "pages_in_set", .type = RECORD_UINT, .get = g_pages },
	{ .name = "timer", .type = RECORD_STR, .flags = CSV | REQ, .get = g_timer, .load = LR(timer) },
	{ .name = "calls_apart", .type = RECORD_BOOL, .flags = CSV, .get = g_apart, .load = LR(apart) },
	{ .name = "fence_overhead_ns", .type = RECORD_REAL, .format = "%.2f", .get = g_fence },
	{ .name = "repeats", .type = RECORD_UINT, .flags = CSV, .get = g_repeats, .load = LR(repeats),
	  .range = &repeats_range },
	{ .name = "repeats_requested", .type = RECORD_UINT, .get = g_requested },
	{ .name = "interrupted", .type = RECORD_BOOL, .get = g_interrupted, .load = LR(interrupted) },
	{ .name = "calls", .type = RECORD_UINT, .flags = CSV, .get = g_calls },
	{ .name = "round_ns", .type = RECORD_UINT, .get = g_round_ns },
	{ .name = "bytes_per_second_best", .type = RECORD_REAL, .flags = CSV | REQ, .format = "%.0f",
	  .get = g_bps_best, .load = LR(bytes_per_second_best), .range = &report_rate_range },
	{ .name = "bytes_per_second_median", .type = RECORD_REAL, .flags = CSV | REQ, .format = "%.0f",
	  .get = g_bps_median, .load = LR(bytes_per_second_median), .range = &report_rate_range },
	{ .name = "bytes_per_second_uninterrupted_best", .type = RECORD_REAL, .applies = WINDOW | JIFFIES,
	  .format = "%.0f", .get = g_bps_unint },
	{ .name = "ns_per_page_best", .type = RECORD_REAL, .flags = CSV, .format = "%.2f", .get = g_ns_best },
	{ .name = "ns_per_page_median", .type = RECORD_REAL, .flags = CSV, .format = "%.2f",
	  .get = g_ns_median },
	{ .name = "ns_per_page_min", .type = RECORD_REAL, .flags = CSV | REQ, .format = "%.2f", .get = g_ns_min,
	  .load = LR(ns_per_page_min), .range = &ns_range },
	{ .name = "ns_per_page_max", .type = RECORD_REAL, .flags = CSV | REQ, .format = "%.2f", .get = g_ns_max,
	  .load = LR(ns_per_page_max), .range = &ns_range },
	{ .name = "ns_per_page_mean", .type = RECORD_REAL, .format = "%.2f", .get = g_ns_mean },
	{ .name = "cv", .type = RECORD_REAL, .flags = CSV, .format = "%.4f", .get = g_cv },
	{ .name = "ceiling_bytes_per_second", .type = RECORD_REAL, .flags = CSV, .format = "%.0f", .get = g_ceiling },
	{ .name = "pct_of_ceiling", .type = RECORD_REAL, .flags = CSV, .format = "%.2f", .get = g_pct },
	{ .name = "ceiling_limited_by", .type = RECORD_STR, .flags = CSV, .get = g_ceiling_limit },
	/* Every round's rate, in the order measured: compare's samples. */
	{ .name = "bytes_per_second_rounds", .type = RECORD_REAL, .get = g_round_bps, .count = n_rounds,
	  .load = LR(rounds_read), .range = &report_rate_range },
	{ .name = "kernel_mb_per_s_best", .type = RECORD_INT, .applies = JIFFIES, .flags = CSV,
	  .get = g_kmb_best },
	{ .name = "kernel_mb_per_s_median", .type = RECORD_INT, .applies = JIFFIES, .flags = CSV,
	  .get = g_kmb_median },
	{ .name = "hz", .type = RECORD_UINT, .applies = JIFFIES, .flags = CSV, .get = g_hz },
	{ .name = "window_jiffies", .type = RECORD_UINT, .applies = JIFFIES, .flags = CSV, .get = g_wjiffies },
	{ .name = "align_tick", .type = RECORD_BOOL, .applies = JIFFIES, .get = g_align },
	{ .name = "window_ns_median", .type = RECORD_REAL, .applies = JIFFIES, .get = g_window_med },
	{ .name = "bias_percent_median", .type = RECORD_REAL, .applies = JIFFIES, .flags = CSV, .format = "%.3f",
	  .get = g_bias },
	{ .name = "tsc_cycles_per_page_median", .type = RECORD_REAL, .applies = RDTSC_TSC, .flags = CSV,
	  .format = "%.1f", .get = g_cyc_page },
	{ .name = "tsc_cycles_per_call_p10", .type = RECORD_REAL, .applies = RDTSC_TSC, .flags = CSV,
	  .format = "%.1f", .get = g_cyc_p10 },
	{ .name = "tsc_cycles_per_call_median", .type = RECORD_REAL, .applies = RDTSC_TSC, .format = "%.1f",
	  .get = g_cyc_med },
	{ .name = "tsc_cycles_per_call_p90", .type = RECORD_REAL, .applies = RDTSC_TSC, .flags = CSV,
	  .format = "%.1f", .get = g_cyc_p90 },
	{ .name = "tsc_cycles_per_call_mean", .type = RECORD_REAL, .applies = RDTSC_TSC, .format = "%.1f",
	  .get = g_cyc_mean },
	{ .name = "ns_per_call_p10", .type = RECORD_REAL, .applies = RDTSC, .format = "%.1f",
	  .get = g_call_p10 },
	{ .name = "ns_per_call_median", .type = RECORD_REAL, .applies = RDTSC, .format = "%.1f",
	  .get = g_call_med },
	{ .name = "ns_per_call_p90", .type = RECORD_REAL, .applies = RDTSC, .format = "%.1f",
	  .get = g_call_p90 },
	{ .name = "ns_per_call_mean", .type = RECORD_REAL, .applies = RDTSC, .format = "%.1f",
	  .get = g_call_mean },
	{ .name = "timer_overhead_tsc_cycles", .type = RECORD_REAL, .applies = RDTSC_TSC, .format = "%.1f",
	  .get = g_overhead },
	{ .name = "clock", .type = RECORD_STR, .flags = CSV, .get = g_clock },
	/* ksmbench-results/2: names, processes, uncertainty, stability, rounds. */
	{ .name = "aliases", .type = RECORD_STR, .get = g_alias, .count = n_aliases },
	{ .name = "processes", .type = RECORD_UINT, .flags = CSV, .get = g_processes, .load = LR(processes) },
	{ .name = "processes_used", .type = RECORD_UINT, .get = g_processes_used },
	{ .name = "rounds_disturbed", .type = RECORD_UINT, .flags = CSV, .get = g_rounds_disturbed,
	  .load = LR(rounds_disturbed) },
	{ .name = "bytes_per_second_ci_low", .type = RECORD_REAL, .flags = CSV, .format = "%.0f", .get = g_ci_low },
	{ .name = "bytes_per_second_ci_high", .type = RECORD_REAL, .flags = CSV, .format = "%.0f", .get = g_ci_high },
	{ .name = "ci_level", .type = RECORD_REAL, .format = "%.4f", .get = g_ci_level },
	{ .name = "ci_percent", .type = RECORD_REAL, .flags = CSV, .format = "%.2f", .get = g_ci_pct },
	{ .name = "spread_percent", .type = RECORD_REAL, .flags = CSV, .format = "%.2f", .get = g_spread },
	{ .name = "stability", .type = RECORD_STR, .flags = CSV, .get = g_stability, .load = LR(stability) },
	{ .name = "stability_reasons", .type = RECORD_STR, .get = g_reason, .count = n_reasons },
	{ .name = "stability_text", .type = RECORD_STR, .get = g_reason_text, .load = LR(stability_text) },
	{ .name = "bytes_per_second_processes", .type = RECORD_REAL, .get = g_value, .count = n_values,
	  .load = LR(processes_read), .range = &report_positive_rate_range },
	{ .name = "process_values", .type = RECORD_OBJECT, .get = g_process, .count = n_processes,
	  .sub = &report_process_schema },
	{ .name = "core_cycles_per_page_median", .type = RECORD_REAL, .get = g_cpp },
	{ .name = "ipc_median", .type = RECORD_REAL, .get = g_ipc },
	{ .name = "batch_calls", .type = RECORD_UINT, .applies = RDTSC, .get = g_batch },
	{ .name = "tsc_cycles_per_call_resolution", .type = RECORD_REAL, .applies = RDTSC_TSC, .get = g_resolution },
	{ .name = "ksmd_pages_to_scan", .type = RECORD_UINT, .applies = KSMD, .get = g_ksmd_pages },
	{ .name = "ksmd_sleep_millisecs", .type = RECORD_UINT, .applies = KSMD, .get = g_ksmd_sleep },
	{ .name = "ksmd_first_page_ns_median", .type = RECORD_REAL, .applies = KSMD, .format = "%.1f",
	  .get = g_ksmd_first },
	{ .name = "ksmd_ns_per_page_p10", .type = RECORD_REAL, .applies = KSMD, .format = "%.1f", .get = g_ksmd_p10 },
	{ .name = "ksmd_ns_per_page_p90", .type = RECORD_REAL, .applies = KSMD, .format = "%.1f", .get = g_ksmd_p90 },
	{ .name = "rounds", .type = RECORD_OBJECT, .get = g_round, .count = n_rounds, .sub = &report_round_schema },
};

const struct record_schema report_result_schema = {
	NULL, RECORD_FIELDS(result_fields), result_class, sizeof(struct loaded_result),
};

/* The context: the machine, the build, the settings, the warnings. */
RECORD_GETTER(c_date, record_str(v, CTX(w)->date))
RECORD_GETTER(c_host, record_str(v, CTX(w)->host))
RECORD_GETTER(c_version, record_str(v, CTX(w)->version))
RECORD_GETTER(c_git, record_str(v, CTX(w)->git_revision))
RECORD_GETTER(c_compiler, record_str(v, CTX(w)->compiler))
RECORD_GETTER(c_cflags, record_str(v, CTX(w)->cflags))
RECORD_GETTER(c_optimized, record_bool(v, CTX(w)->optimized))
RECORD_GETTER(c_sanitized, record_bool(v, CTX(w)->sanitized))
static size_t n_libraries(const struct record_row *w)
{
	size_t n = 0;

	(void)w;
	while (kb_library_keys[n])
		n++;
	return n;
}
static int c_library(const struct record_row *w, struct record_value *v)
{
	v->key = kb_library_keys[w->index];
	v->type = RECORD_STR;
	return record_str(v, kb_library_version(v->key));
}
RECORD_GETTER(c_cpu, record_item(v, &CTX(w)->cpu))
static size_t n_features(const struct record_row *w)
{
	return CTX(w)->nfeatures;
}

RECORD_GETTER(c_feature, record_str(v, CTX(w)->features_used[w->index]))
/* A counter_hz of 0: identified, not calibrated (nothing was timed with it). */
RECORD_GETTER(c_tsc_hz, CTX(w)->counter_is_tsc && CTX(w)->counter_hz > 0 && record_real(v, CTX(w)->counter_hz))
RECORD_GETTER(c_invariant, record_bool(v, CTX(w)->counter_is_tsc && CTX(w)->tsc_invariant))
RECORD_GETTER(c_rdtscp, record_bool(v, CTX(w)->has_rdtscp))
RECORD_GETTER(c_overhead, CTX(w)->counter_is_tsc && CTX(w)->counter_hz > 0 &&
				  record_real(v, CTX(w)->counter_overhead_ticks))
RECORD_GETTER(c_resolution, record_uint(v, CTX(w)->clock_resolution_ns))
RECORD_GETTER(c_granularity, record_uint(v, CTX(w)->clock_granularity_ns))
RECORD_GETTER(c_kernel, record_str(v, CTX(w)->kernel_release))
RECORD_GETTER(c_governor, record_str(v, CTX(w)->governor))
RECORD_GETTER(c_pinned, record_int(v, CTX(w)->pinned_cpu))
static size_t n_process_cpus(const struct record_row *w)
{
	return CTX(w)->nprocess_cpus;
}
RECORD_GETTER(c_process_cpu, record_int(v, CTX(w)->process_cpus[w->index]))
static size_t n_cpu_probes(const struct record_row *w)
{
	return CTX(w)->ncpu_probes;
}
static int c_cpu_probe(const struct record_row *w, struct record_value *v)
{
	const struct pin_probe *p = &CTX(w)->cpu_probes[w->index];

	snprintf(v->buf, sizeof(v->buf), "%d", p->cpu);
	v->key = v->buf;
	v->type = RECORD_OBJECT;
	return record_item(v, p);
}
#define PROBE(row) ((const struct pin_probe *)(row)->item)
RECORD_GETTER(p_adds, record_real(v, PROBE(w)->adds_per_ns))
RECORD_GETTER(p_busy, PROBE(w)->busy_share >= 0 && record_real(v, PROBE(w)->busy_share))
static const struct record_field cpu_probe_fields[] = {
	{ .name = "adds_per_ns", .type = RECORD_REAL, .format = "%.2f", .get = p_adds },
	{ .name = "busy_share", .type = RECORD_REAL, .format = "%.2f", .get = p_busy },
};
static const struct record_schema cpu_probe_schema = { NULL, RECORD_FIELDS(cpu_probe_fields), NULL, 0 };
RECORD_GETTER(c_quota, CTX(w)->quota.cpus > 0 && record_real(v, CTX(w)->quota.cpus))
RECORD_GETTER(c_pin_rule, record_str(v, CTX(w)->pin_rule))
RECORD_GETTER(c_ceiling, record_item(v, CTX(w)->ceiling))
RECORD_GETTER(c_step, CTX(w)->counter_step_ticks > 0 && record_real(v, CTX(w)->counter_step_ticks))
RECORD_GETTER(c_page, CTX(w)->system_page_size > 0 && record_uint(v, (uint64_t)CTX(w)->system_page_size))
RECORD_GETTER(c_processes, CTX(w)->processes && record_uint(v, CTX(w)->processes))
RECORD_GETTER(c_rounds, CTX(w)->processes && record_uint(v, CTX(w)->rounds_per_process))
RECORD_GETTER(c_seed, CTX(w)->processes && record_uint(v, CTX(w)->order_seed))
RECORD_GETTER(c_interleaved, CTX(w)->processes && record_bool(v, 1))
RECORD_GETTER(c_pmu, record_bool(v, CTX(w)->hardware_counters))
RECORD_GETTER(c_pmu_note, record_str(v, CTX(w)->hardware_counters_note))
RECORD_GETTER(c_xsave_bytes, CTX(w)->xsave.state_bytes && record_uint(v, CTX(w)->xsave.state_bytes))
RECORD_GETTER(c_xsave_ns, CTX(w)->xsave.state_bytes && record_real(v, CTX(w)->xsave.save_restore_ns))
RECORD_GETTER(c_migrations, record_str(v, CTX(w)->migrations_source))
RECORD_GETTER(c_reference, CTX(w)->reference_clock_hz > 0 && record_real(v, CTX(w)->reference_clock_hz))
RECORD_GETTER(c_reference_tp, CTX(w)->reference_throughput > 0 && record_real(v, CTX(w)->reference_throughput))
RECORD_GETTER(c_reference_woken,
	      CTX(w)->reference_woken_throughput > 0 && record_real(v, CTX(w)->reference_woken_throughput))
/* KSMBENCH_FREE_CORE's range (bench/free_core.h). */
static const struct record_range free_core_range = { 0, 1000, 0 };
RECORD_GETTER(c_free_core, CTX(w)->free_core.adds_per_cycle > 0 && record_real(v, CTX(w)->free_core.adds_per_cycle))
RECORD_GETTER(c_free_core_source, CTX(w)->free_core.source && record_str(v, CTX(w)->free_core.source))
RECORD_GETTER(c_thresholds, CTX(w)->processes && record_item(v, &disturb_default))
RECORD_GETTER(c_rules, CTX(w)->processes && record_item(v, &estimate_default))
static size_t n_warnings(const struct record_row *w)
{
	return CTX(w)->nwarnings;
}

RECORD_GETTER(c_warning, record_str(v, CTX(w)->warnings[w->index]))

RECORD_GETTER(u_vendor, CPU(w)->known && record_str(v, CPU(w)->vendor))
RECORD_GETTER(u_brand, CPU(w)->known && record_str(v, CPU(w)->brand))
RECORD_GETTER(u_family, CPU(w)->known && record_int(v, CPU(w)->family))
RECORD_GETTER(u_model, CPU(w)->known && record_int(v, CPU(w)->model))
RECORD_GETTER(u_stepping, CPU(w)->known && record_int(v, CPU(w)->stepping))
RECORD_GETTER(u_ext_family, CPU(w)->known && record_int(v, CPU(w)->ext_family))
RECORD_GETTER(u_ext_model, CPU(w)->known && record_int(v, CPU(w)->ext_model))
RECORD_GETTER(u_cpus, record_int(v, CPU(w)->logical_cpus))
RECORD_GETTER(u_l1d, CPU(w)->l1d_kib > 0 && record_uint(v, CPU(w)->l1d_kib * 1024ull))
RECORD_GETTER(u_l2, CPU(w)->l2_kib > 0 && record_uint(v, CPU(w)->l2_kib * 1024ull))
RECORD_GETTER(u_l3, CPU(w)->l3_kib > 0 && record_uint(v, CPU(w)->l3_kib * 1024ull))

static const struct record_field cpu_fields[] = {
	{ .name = "vendor", .type = RECORD_STR, .get = u_vendor },
	{ .name = "brand", .type = RECORD_STR, .get = u_brand, .load = RECORD_LOAD(struct loaded_cpu, brand) },
	{ .name = "family", .type = RECORD_INT, .get = u_family },
	{ .name = "model", .type = RECORD_INT, .get = u_model },
	{ .name = "stepping", .type = RECORD_INT, .get = u_stepping },
	{ .name = "ext_family", .type = RECORD_INT, .get = u_ext_family },
	{ .name = "ext_model", .type = RECORD_INT, .get = u_ext_model },
	{ .name = "logical_cpus", .type = RECORD_INT, .get = u_cpus },
	{ .name = "cache_l1d_bytes", .type = RECORD_UINT, .get = u_l1d },
	{ .name = "cache_l2_bytes", .type = RECORD_UINT, .get = u_l2 },
	{ .name = "cache_l3_bytes", .type = RECORD_UINT, .get = u_l3 },
};

static const struct record_schema cpu_schema = { NULL, RECORD_FIELDS(cpu_fields), NULL, sizeof(struct loaded_cpu) };

#define LC(member) RECORD_LOAD(struct loaded_context, member)

static const struct record_field context_fields[] = {
	{ .name = "date", .type = RECORD_STR, .get = c_date, .load = LC(date) },
	{ .name = "host", .type = RECORD_STR, .get = c_host },
	{ .name = "ksmbench_version", .type = RECORD_STR, .get = c_version },
	{ .name = "git_revision", .type = RECORD_STR, .get = c_git, .load = LC(git_revision) },
	{ .name = "compiler", .type = RECORD_STR, .get = c_compiler },
	{ .name = "cflags", .type = RECORD_STR, .get = c_cflags },
	{ .name = "optimized", .type = RECORD_BOOL, .get = c_optimized },
	{ .name = "sanitized", .type = RECORD_BOOL, .get = c_sanitized },
	{ .name = "libraries", .type = RECORD_MAP, .get = c_library, .count = n_libraries },
	{ .name = "cpu", .type = RECORD_OBJECT, .get = c_cpu, .sub = &cpu_schema, .load = LC(cpu) },
	{ .name = "features_used", .type = RECORD_STR, .get = c_feature, .count = n_features },
	{ .name = "tsc_hz", .type = RECORD_REAL, .get = c_tsc_hz },
	{ .name = "tsc_invariant", .type = RECORD_BOOL, .get = c_invariant },
	{ .name = "rdtscp", .type = RECORD_BOOL, .get = c_rdtscp },
	{ .name = "timer_overhead_tsc_cycles", .type = RECORD_REAL, .get = c_overhead },
	{ .name = "clock_resolution_ns", .type = RECORD_UINT, .get = c_resolution },
	{ .name = "clock_granularity_ns", .type = RECORD_UINT, .get = c_granularity },
	{ .name = "counter_step_ticks", .type = RECORD_REAL, .get = c_step },
	{ .name = "system_page_size_bytes", .type = RECORD_UINT, .get = c_page },
	{ .name = "kernel_release", .type = RECORD_STR, .get = c_kernel },
	{ .name = "governor", .type = RECORD_STR, .get = c_governor },
	{ .name = "pinned_cpu", .type = RECORD_INT, .get = c_pinned },
	{ .name = "pinned_cpu_rule", .type = RECORD_STR, .get = c_pin_rule },
	{ .name = "process_cpus", .type = RECORD_INT, .get = c_process_cpu, .count = n_process_cpus },
	{ .name = "cpu_choice", .type = RECORD_MAP, .get = c_cpu_probe, .count = n_cpu_probes,
	  .sub = &cpu_probe_schema },
	{ .name = "cpu_quota_cpus", .type = RECORD_REAL, .format = "%.4g", .get = c_quota },
	{ .name = "ceiling", .type = RECORD_OBJECT, .get = c_ceiling, .sub = &ceiling_figures_schema },
	{ .name = "processes", .type = RECORD_UINT, .get = c_processes },
	{ .name = "rounds_per_process", .type = RECORD_UINT, .get = c_rounds },
	{ .name = "order_seed", .type = RECORD_UINT, .get = c_seed },
	{ .name = "interleaved", .type = RECORD_BOOL, .get = c_interleaved },
	{ .name = "hardware_counters", .type = RECORD_BOOL, .get = c_pmu },
	{ .name = "hardware_counters_note", .type = RECORD_STR, .get = c_pmu_note },
	{ .name = "xsave_state_bytes", .type = RECORD_UINT, .get = c_xsave_bytes },
	{ .name = "xsave_xrstor_ns", .type = RECORD_REAL, .format = "%.1f", .get = c_xsave_ns },
	{ .name = "migrations_source", .type = RECORD_STR, .get = c_migrations },
	{ .name = "reference_clock_hz", .type = RECORD_REAL, .get = c_reference, .range = &report_clock_range },
	{ .name = "reference_throughput_adds_per_ns", .type = RECORD_REAL, .get = c_reference_tp,
	  .range = &report_adds_range },
	{ .name = "reference_woken_throughput_adds_per_ns", .type = RECORD_REAL, .get = c_reference_woken,
	  .range = &report_adds_range },
	{ .name = "free_core_adds_per_cycle", .type = RECORD_REAL, .get = c_free_core, .range = &free_core_range },
	{ .name = "free_core_source", .type = RECORD_STR, .get = c_free_core_source },
	{ .name = "disturbance_thresholds", .type = RECORD_OBJECT, .get = c_thresholds,
	  .sub = &report_thresholds_schema },
	{ .name = "stability_rules", .type = RECORD_OBJECT, .get = c_rules, .sub = &report_rules_schema },
	{ .name = "warnings", .type = RECORD_STR, .get = c_warning, .count = n_warnings },
};

const struct record_schema report_context_schema = {
	NULL, RECORD_FIELDS(context_fields), NULL, sizeof(struct loaded_context),
};
