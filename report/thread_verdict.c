/* The thread's verdict (see thread.h): built from the rows, written on top
 * of the table (three lines: what KSM uses and what it costs at ksmd's
 * settings, the fastest the kernel has here, the fastest outside it, then
 * whether it can be trusted) and as the thread object's "verdict" in JSON. */
#include <string.h>

#include "../bench/disturb.h"
#include "../bench/estimate.h"
#include "../common/plural.h"
#include "escape.h"
#include "stability_text.h"
#include "text_wrap.h"
#include "kinds.h"
#include "thread.h"

const char *thread_settings_source(const struct thread_ksmd *k)
{
	if (k->given == (KSMD_GIVEN_PAGES | KSMD_GIVEN_SLEEP))
		return "options";
	if (!k->given)
		return k->from;
	return strcmp(k->from, "sysfs") == 0 ? "options+sysfs" : "options+defaults";
}

double thread_cpu_share(double ns_per_page, const struct thread_ksmd *k)
{
	return ns_per_page > 0 && k ? ksmd_cpu_share(&k->s, ns_per_page, 1.0) : 0;
}

/* ksmd's period in ms hashing with today's checksum (none when it was not
 * measured): its sleep as the kernel takes it, and the batch's checksums. */
static double today_period_ms(const struct thread_verdict *v)
{
	double work_ns = thread_row_ns_here(v->today) * (double)v->ksmd.s.pages_to_scan;

	return ksmd_batch_period_ns(&v->ksmd.s, work_ns) / 1e6;
}

/* How many times faster r is than today's, side by side. */
static double against_today(const struct thread_row *r, const struct thread_row *today, struct stats_interval *iv)
{
	memset(iv, 0, sizeof(*iv));
	if (!r || !today || !r->ksm || !today->ksm || estimate_ratio(r->ksm, today->ksm, iv))
		return 0;
	return iv->median;
}

/* Whether r is a candidate of its block: not today's, measured in ksmd's
 * style, a row the release has, and outside the kernel no kernel code. */
static int contends(const struct thread_row *r, int in_kernel, const struct thread_row *today)
{
	return r != today && r->in_kernel == in_kernel && !r->newer_than_release && thread_row_ns_here(r) > 0 &&
	       (in_kernel || !thread_row_kernel_function(r));
}

/* The fastest row of a block, other than today's and than kernel rows the
 * release lacks, with its speed-up against today's (0 when there is none)
 * in *x and *iv; NULL if no row has a ksmd-style ns/page. Ranked by that
 * speed-up, from rounds side by side, so that the row named, its speed-up
 * and its share of a CPU come from one estimate (by medians of ns/page two
 * rows a few per cent apart could rank the other way round); by the ratio
 * of the medians where a row has no rounds beside today's. */
static const struct thread_row *fastest(const struct thread_row *rows, size_t n, int in_kernel,
					const struct thread_row *today, double *x, struct stats_interval *iv)
{
	const struct thread_row *best = NULL;
	double best_key = 0, today_ns = thread_row_ns_here(today);

	*x = 0;
	memset(iv, 0, sizeof(*iv));
	for (size_t i = 0; i < n; i++) {
		const struct thread_row *r = &rows[i];
		if (!contends(r, in_kernel, today))
			continue;
		struct stats_interval riv;
		double rx = against_today(r, today, &riv);
		double key = rx > 0 ? rx : (today_ns > 0 ? today_ns : 1) / thread_row_ns_here(r);
		if (!best || key > best_key) {
			best = r;
			best_key = key;
			*x = rx;
			*iv = riv;
		}
	}
	return best;
}

/* The candidates of best's block it cannot be told from, in ties[] (at
 * most THREAD_VERDICT_TIES): the interval of how many times faster best
 * is, from their rounds side by side, reaches 1. On cold pages several
 * hashes run at the memory's pace (crc32c-isal, crc32c-fused6 and xxh3
 * within 3% on the Zen 5 VM), and which of them is named best changes
 * from run to run; the rest are named beside it. None where there is no
 * interval (one process), and none where today's leads the kernel's block
 * (its line names the next row as slower). */
static size_t ties_of(const struct thread_row *rows, size_t n, const struct thread_row *best, double x, int in_kernel,
		      const struct thread_row *today, const struct thread_row **ties)
{
	size_t k = 0;

	if (!best || !best->ksm || (in_kernel && x > 0 && x < 1))
		return 0;
	for (size_t i = 0; i < n && k < THREAD_VERDICT_TIES; i++) {
		const struct thread_row *r = &rows[i];
		struct stats_interval iv;
		if (r != best && contends(r, in_kernel, today) && r->ksm && estimate_ratio(best->ksm, r->ksm, &iv) == 0 &&
		    iv.n > 1 && iv.low <= 1)
			ties[k++] = r;
	}
	return k;
}

/* ksmd's share of a CPU with r's checksum: at today's cost over its
 * speed-up where it has one (the share then says what the speed-up says),
 * else at its own ns/page. */
static double share_of(const struct thread_row *r, double x, const struct thread_row *today,
		       const struct thread_ksmd *k)
{
	double today_ns = thread_row_ns_here(today);

	if (!r)
		return 0;
	return thread_cpu_share(x > 0 && today_ns > 0 ? today_ns / x : thread_row_ns_here(r), k);
}

void thread_verdict_build(const struct thread_row *rows, size_t n, const struct bench_result *results,
			  size_t nresults, const char *today_hash, const char *today_impl,
			  const struct thread_ksmd *k, struct thread_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->ksmd = *k;
	v->today_hash = today_hash;
	for (size_t i = 0; i < n && !v->today; i++)
		if (rows[i].in_kernel && rows[i].ksm && rows[i].ksm->impl && strcmp(rows[i].ksm->impl, today_impl) == 0)
			v->today = &rows[i];
	v->kernel_best = fastest(rows, n, 1, v->today, &v->kernel_x, &v->kernel_x_interval);
	v->outside_best = fastest(rows, n, 0, v->today, &v->outside_x, &v->outside_x_interval);
	v->nkernel_ties = ties_of(rows, n, v->kernel_best, v->kernel_x, 1, v->today, v->kernel_ties);
	v->noutside_ties = ties_of(rows, n, v->outside_best, v->outside_x, 0, v->today, v->outside_ties);
	v->today_cpu_share = thread_cpu_share(thread_row_ns_here(v->today), k);
	v->kernel_cpu_share = share_of(v->kernel_best, v->kernel_x, v->today, k);
	v->outside_cpu_share = share_of(v->outside_best, v->outside_x, v->today, k);
	v->results = nresults;
	for (size_t i = 0; i < nresults; i++) {
		v->unstable += results[i].unstable != 0;
		v->unstable_kinds |= results[i].unstable;
	}
}

/* "1.38x faster (± 3.1%)", "as fast (± 9%)", "1.20x slower", "1.05x
 * faster (± 7.0%: within the noise)" where the interval holds 1, or that it
 * was not measured. */
static void speedup_text(char *buf, size_t size, double x, const struct stats_interval *iv)
{
	double pct = estimate_half_width_percent(iv);
	int holds_one = iv->n > 1 && iv->low <= 1 && iv->high >= 1;
	char spread[48] = "";

	if (pct >= 0)
		snprintf(spread, sizeof(spread), " (± %.*f%%%s)", pct < 10 ? 1 : 0, pct,
			 holds_one && (x < 0.995 || x >= 1.005) ? ": within the noise" : "");
	if (x <= 0)
		snprintf(buf, size, "speed-up not measured");
	else if (x >= 0.995 && x < 1.005) /* "1.00x slower" would say less */
		snprintf(buf, size, "as fast%s", spread);
	else if (x >= 1)
		snprintf(buf, size, "%.2fx faster%s", x, spread);
	else
		snprintf(buf, size, "%.2fx slower%s", 1 / x, spread);
}

/* "crc32c (crc32c-3way)" or "xxh64". */
static void row_label(char *buf, size_t size, const struct thread_row *r)
{
	const char *impl = r->ksm && r->ksm->impl ? r->ksm->impl : r->hash;

	if (strcmp(impl, r->hash) == 0)
		snprintf(buf, size, "%s", r->hash);
	else
		snprintf(buf, size, "%s (%s)", r->hash, impl);
}

/* Why the figures cannot be trusted: the stability reasons, and the kinds
 * of disturbance in the unstable results' rounds (those rounds were left
 * out; a stable result's disturbed rounds explain nothing here). Returns
 * whether every one of those rounds met a core shared from outside this
 * machine alone (its other CPUs idle): then an idle machine is what it
 * already was. */
static int untrusted_why(const struct thread_verdict *v, const struct bench_result *results, size_t n, char *buf,
			 size_t size)
{
	static const char *const kinds[STABILITY_KINDS] = { "too few undisturbed processes", "spread over processes",
							    "disturbed rounds", "timer too coarse",
							    "too many of the run's rounds disturbed" };
	unsigned seen = 0, outside = 0, disturbed = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if ((v->unstable_kinds >> i) & 1 && used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "", kinds[i]);
	for (size_t r = 0; r < n; r++) {
		if (!results[r].unstable)
			continue;
		for (unsigned i = 0; results[r].rounds && i < results[r].repeats; i++) {
			seen |= results[r].rounds[i].disturbed;
			disturbed += results[r].rounds[i].disturbed != 0;
		}
		outside += report_shared_from_outside(&results[r]);
	}
	for (unsigned k = 0, first = 1; k < DISTURB_KINDS && used < size; k++)
		if ((seen >> k) & 1) {
			used += (size_t)snprintf(buf + used, size - used, "%s%s", first ? " (rounds left out as disturbed by: " : ", ",
						 disturb_name(k));
			if ((1u << k) == DISTURB_SHARED && outside && used < size)
				used += (size_t)snprintf(buf + used, size - used, " from outside this machine in %u round%s",
							 outside, kb_s(outside));
			first = 0;
		}
	if (seen && used < size)
		snprintf(buf + used, size - used, ")");
	return disturbed && outside == disturbed;
}

static int today_line(FILE *out, const struct thread_verdict *v, unsigned width, const char *pre)
{
	const struct thread_ksmd *k = &v->ksmd;

	char label[96];

	if (!v->today)
		return report_wrappedf(out, width, pre, "KSM's %s was not measured here.", v->today_hash);
	if (strcmp(v->today_hash, v->today->ksm->impl) == 0)
		snprintf(label, sizeof(label), "%s", v->today_hash);
	else
		snprintf(label, sizeof(label), "%s (%s here)", v->today_hash, v->today->ksm->impl);
	return report_wrappedf(out, width, pre,
			       "KSM today: %s, %.0f ns/page in ksmd's pattern, %.2f%% of a CPU at %u pages/%u ms.", label,
			       thread_row_ns_here(v->today), 100 * v->today_cpu_share, (unsigned)k->s.pages_to_scan,
			       k->s.sleep_ms);
}

static int best_line(FILE *out, const struct thread_verdict *v, int in_kernel, unsigned width, const char *pre)
{
	const struct thread_row *r = in_kernel ? v->kernel_best : v->outside_best;
	const char *what = in_kernel ? "The fastest the kernel has here" : "Fastest outside the kernel";
	char label[96], x[64];

	double speedup = in_kernel ? v->kernel_x : v->outside_x;

	if (!r)
		return report_wrappedf(out, width, pre, "%s: none measured.", what);
	row_label(label, sizeof(label), r);
	speedup_text(x, sizeof(x), speedup, in_kernel ? &v->kernel_x_interval : &v->outside_x_interval);
	if (in_kernel && speedup > 0 && speedup < 1)
		return report_wrappedf(out, width, pre, "%s: KSM's own %s; next %s, %s.", what, v->today_hash, label, x);

	const struct thread_row *const *ties = in_kernel ? v->kernel_ties : v->outside_ties;
	size_t nties = in_kernel ? v->nkernel_ties : v->noutside_ties, used = 0;
	char also[THREAD_VERDICT_TIES * 100] = "";
	for (size_t i = 0; i < nties && used < sizeof(also); i++) {
		char tie[96];
		row_label(tie, sizeof(tie), ties[i]);
		used += (size_t)snprintf(also + used, sizeof(also) - used, "%s%s", i ? ", " : "; as fast within the noise: ",
					 tie);
	}
	return report_wrappedf(out, width, pre, "%s: %s, %s, %.2f%% of a CPU%s.", what, label, x,
			       100 * (in_kernel ? v->kernel_cpu_share : v->outside_cpu_share), also);
}

int thread_verdict_text(FILE *out, const struct report_document *doc, enum report_style style)
{
	const struct thread_verdict *v = doc->verdict;
	unsigned width = style == REPORT_MARKDOWN ? 0 : report_columns(doc);
	const char *pre = style == REPORT_MARKDOWN ? "- " : "";
	char why[400];

	if (!v)
		return 0;
	if (today_line(out, v, width, pre) || best_line(out, v, 1, width, pre) || best_line(out, v, 0, width, pre))
		return -1;
	const struct thread_ksmd *k = &v->ksmd;
	char from[320], dir[300], settings[720], period[32];
	double ms = today_period_ms(v);

	/* The directory may be KSMBENCH_KSM_DIR's, text from outside: shown,
	 * never obeyed (its control characters reached the terminal). */
	if (strcmp(k->from, "sysfs") == 0)
		snprintf(from, sizeof(from), "read from %s",
			 escape_str(k->dir ? k->dir : "sysfs", style == REPORT_MARKDOWN ? ESCAPE_MARKDOWN : ESCAPE_TERM, dir,
				    sizeof(dir)));
	else
		snprintf(from, sizeof(from), "the kernel's defaults");
	/* Each setting with where it came from, once for both when they agree. */
	if (k->given == 0 || k->given == (KSMD_GIVEN_PAGES | KSMD_GIVEN_SLEEP))
		snprintf(settings, sizeof(settings), "pages_to_scan %u, sleep_millisecs %u (%s)",
			 (unsigned)k->s.pages_to_scan, k->s.sleep_ms, k->given ? "given" : from);
	else
		snprintf(settings, sizeof(settings), "pages_to_scan %u (%s), sleep_millisecs %u (%s)",
			 (unsigned)k->s.pages_to_scan, k->given & KSMD_GIVEN_PAGES ? "given" : from, k->s.sleep_ms,
			 k->given & KSMD_GIVEN_SLEEP ? "given" : from);
	/* Whole ms for a sleep; a period of work alone may be a fraction of one. */
	snprintf(period, sizeof(period), ms >= 10 ? "%.0f" : "%.3g", ms);
	int off = k->ksm_off, nosleep = k->s.sleep_ms == 0 && k->s.zero_sleep_skips;
	if (report_wrappedf(out, width, pre, "Settings: %s, a batch every %s ms at HZ %u%s%s%s%s%s; speed-ups from "
			    "rounds side by side, ± half the interval over processes.", settings, period, k->s.hz,
			    off || nosleep ? " (" : "", off ? "KSM is off, run=0: the shares are what ksmd would spend" : "",
			    off && nosleep ? "; " : "",
			    nosleep ? "sleep_millisecs 0: ksmd never sleeps, so every share reads 100% of a CPU, of which "
				      "these figures count the checksums only; a faster one scans more pages a second "
				      "instead"
				    : "",
			    off || nosleep ? ")" : ""))
		return -1;
	if (v->unstable) {
		int host = untrusted_why(v, doc->results, doc->nresults, why, sizeof(why));
		if (report_wrappedf(out, width, pre, "Cannot be trusted: %zu of %zu results unstable: %s. %s", v->unstable,
				    v->results, why,
				    host ? "This machine was idle: its core was shared by a VM's host. Run it again when "
					   "the host is quieter, or on dedicated cores."
					 : "Run it on an idle machine, or with more --processes."))
			return -1;
	}
	return fputc('\n', out) == EOF ? -1 : 0;
}

#define VERDICT(row) ((const struct thread_verdict *)(row)->item)

static int row_impl(struct record_value *v, const struct thread_row *r)
{
	return r && r->ksm && record_str(v, r->ksm->impl);
}

static int share(struct record_value *v, const struct thread_row *r, double s)
{
	return r && s > 0 && record_real(v, 100 * s);
}

static int speedup(struct record_value *v, const struct thread_row *r, double x)
{
	return r && x > 0 && record_real(v, x);
}

static int bound(struct record_value *v, const struct stats_interval *iv, int high)
{
	return iv->n > 1 && record_real(v, high ? iv->high : iv->low);
}

RECORD_GETTER(v_today_hash, record_str(v, VERDICT(w)->today_hash))
RECORD_GETTER(v_today, row_impl(v, VERDICT(w)->today))
RECORD_GETTER(v_today_ns, VERDICT(w)->today && record_real(v, thread_row_ns_here(VERDICT(w)->today)))
RECORD_GETTER(v_today_cpu, share(v, VERDICT(w)->today, VERDICT(w)->today_cpu_share))
RECORD_GETTER(v_kernel, VERDICT(w)->kernel_best && record_str(v, VERDICT(w)->kernel_best->hash))
RECORD_GETTER(v_kernel_impl, row_impl(v, VERDICT(w)->kernel_best))
RECORD_GETTER(v_kernel_x, speedup(v, VERDICT(w)->kernel_best, VERDICT(w)->kernel_x))
RECORD_GETTER(v_kernel_lo, bound(v, &VERDICT(w)->kernel_x_interval, 0))
RECORD_GETTER(v_kernel_hi, bound(v, &VERDICT(w)->kernel_x_interval, 1))
RECORD_GETTER(v_kernel_cpu, share(v, VERDICT(w)->kernel_best, VERDICT(w)->kernel_cpu_share))
RECORD_GETTER(v_outside_impl, row_impl(v, VERDICT(w)->outside_best))
RECORD_GETTER(v_outside_x, speedup(v, VERDICT(w)->outside_best, VERDICT(w)->outside_x))
RECORD_GETTER(v_outside_lo, bound(v, &VERDICT(w)->outside_x_interval, 0))
RECORD_GETTER(v_outside_hi, bound(v, &VERDICT(w)->outside_x_interval, 1))
RECORD_GETTER(v_outside_cpu, share(v, VERDICT(w)->outside_best, VERDICT(w)->outside_cpu_share))
static size_t n_kernel_ties(const struct record_row *w)
{
	return VERDICT(w)->nkernel_ties;
}

static size_t n_outside_ties(const struct record_row *w)
{
	return VERDICT(w)->noutside_ties;
}

RECORD_GETTER(v_kernel_tie, row_impl(v, VERDICT(w)->kernel_ties[w->index]))
RECORD_GETTER(v_outside_tie, row_impl(v, VERDICT(w)->outside_ties[w->index]))
RECORD_GETTER(v_pages, record_uint(v, VERDICT(w)->ksmd.s.pages_to_scan))
RECORD_GETTER(v_sleep, record_uint(v, VERDICT(w)->ksmd.s.sleep_ms))
RECORD_GETTER(v_source, record_str(v, thread_settings_source(&VERDICT(w)->ksmd)))
RECORD_GETTER(v_hz, record_uint(v, VERDICT(w)->ksmd.s.hz))
RECORD_GETTER(v_ksm_off, record_bool(v, VERDICT(w)->ksmd.ksm_off))
RECORD_GETTER(v_sleep_taken, record_real(v, ksmd_batch_period_ns(&VERDICT(w)->ksmd.s, 0) / 1e6))
RECORD_GETTER(v_period, VERDICT(w)->today && record_real(v, today_period_ms(VERDICT(w))))
RECORD_GETTER(v_unstable, record_int(v, (int64_t)VERDICT(w)->unstable))
RECORD_GETTER(v_trusted, record_bool(v, VERDICT(w)->unstable == 0))

static const struct record_field verdict_fields[] = {
	{ .name = "ksm_today_hash", .type = RECORD_STR, .get = v_today_hash },
	{ .name = "ksm_today_implementation", .type = RECORD_STR, .get = v_today },
	{ .name = "ksm_today_ns_per_page", .type = RECORD_REAL, .format = "%.2f", .get = v_today_ns },
	{ .name = "ksm_today_cpu_percent", .type = RECORD_REAL, .format = "%.4f", .get = v_today_cpu },
	{ .name = "kernel_best_hash", .type = RECORD_STR, .get = v_kernel },
	{ .name = "kernel_best_implementation", .type = RECORD_STR, .get = v_kernel_impl },
	{ .name = "kernel_best_speedup", .type = RECORD_REAL, .format = "%.4f", .get = v_kernel_x },
	{ .name = "kernel_best_speedup_ci_low", .type = RECORD_REAL, .format = "%.4f", .get = v_kernel_lo },
	{ .name = "kernel_best_speedup_ci_high", .type = RECORD_REAL, .format = "%.4f", .get = v_kernel_hi },
	{ .name = "kernel_best_cpu_percent", .type = RECORD_REAL, .format = "%.4f", .get = v_kernel_cpu },
	{ .name = "kernel_best_ties", .type = RECORD_STR, .get = v_kernel_tie, .count = n_kernel_ties },
	{ .name = "outside_best_implementation", .type = RECORD_STR, .get = v_outside_impl },
	{ .name = "outside_best_speedup", .type = RECORD_REAL, .format = "%.4f", .get = v_outside_x },
	{ .name = "outside_best_speedup_ci_low", .type = RECORD_REAL, .format = "%.4f", .get = v_outside_lo },
	{ .name = "outside_best_speedup_ci_high", .type = RECORD_REAL, .format = "%.4f", .get = v_outside_hi },
	{ .name = "outside_best_cpu_percent", .type = RECORD_REAL, .format = "%.4f", .get = v_outside_cpu },
	{ .name = "outside_best_ties", .type = RECORD_STR, .get = v_outside_tie, .count = n_outside_ties },
	{ .name = "pages_to_scan", .type = RECORD_UINT, .get = v_pages },
	{ .name = "sleep_millisecs", .type = RECORD_UINT, .get = v_sleep },
	{ .name = "settings_source", .type = RECORD_STR, .get = v_source },
	{ .name = "hz", .type = RECORD_UINT, .get = v_hz },
	{ .name = "ksm_off", .type = RECORD_BOOL, .get = v_ksm_off },
	{ .name = "sleep_taken_ms", .type = RECORD_REAL, .format = "%.3f", .get = v_sleep_taken },
	{ .name = "batch_period_ms", .type = RECORD_REAL, .format = "%.3f", .get = v_period },
	{ .name = "unstable_results", .type = RECORD_INT, .get = v_unstable },
	{ .name = "trusted", .type = RECORD_BOOL, .get = v_trusted },
};

const struct record_schema thread_verdict_schema = { NULL, RECORD_FIELDS(verdict_fields), NULL, 0 };
