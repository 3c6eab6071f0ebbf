/* The bench document in text: the results table (plain or Markdown) under
 * the context, and the kernel's lines.
 * Columns show fields of the result schema (result_fields.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/estimate.h"
#include "../bench/stats.h"
#include "../common/plural.h"
#include "context_text.h"
#include "record_table.h"
#include "result_fields.h"
#include "stability_text.h"
#include "text_wrap.h"

#define RES(row) ((const struct bench_result *)(row)->item)

/* "hash (implementation)" when an alias ran something else; "hash (also
 * alias, ...)" for the other names of the implementation measured. */
static int hash_cell(const struct record_row *w, char *buf, size_t size)
{
	const struct bench_result *r = RES(w);
	size_t used;

	if (r->impl && strcmp(r->impl, r->hash) != 0 && *r->impl)
		used = (size_t)snprintf(buf, size, "%s (%s)", r->hash, r->impl);
	else
		used = (size_t)snprintf(buf, size, "%s", r->hash);
	for (unsigned i = 0; i < r->naliases && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s%s", i ? ", " : " (also ", r->aliases[i],
					 i + 1 == r->naliases ? ")" : "");
	return 1;
}

/* The headline, "39900 ±1.2%": the median over processes and its interval's
 * half-width (none for a single process). */
static int median_cell(const struct record_row *w, char *buf, size_t size)
{
	const struct bench_result *r = RES(w);
	double pct = estimate_half_width_percent(&r->over_processes);

	if (pct >= 0)
		snprintf(buf, size, "%.0f ±%.1f%%", bench_bytes_per_s(r->page_size, r->ns_per_page.median) / 1e6, pct);
	else
		snprintf(buf, size, "%.0f", bench_bytes_per_s(r->page_size, r->ns_per_page.median) / 1e6);
	return 1;
}

/* Rounds used of rounds measured: the rest were disturbed. */
static int rounds_cell(const struct record_row *w, char *buf, size_t size)
{
	const struct bench_result *r = RES(w);

	if (r->rounds_disturbed)
		snprintf(buf, size, "%u/%u", r->repeats - r->rounds_disturbed, r->repeats);
	else
		snprintf(buf, size, "%u", r->repeats);
	return 1;
}

static int stability_cell(const struct record_row *w, char *buf, size_t size)
{
	snprintf(buf, size, "%s", RES(w)->unstable ? "unstable" : "stable");
	return 1;
}

/* The page size, "+N" when misaligned. */
static int page_cell(const struct record_row *w, char *buf, size_t size)
{
	const struct bench_result *r = RES(w);

	if (r->misalign)
		snprintf(buf, size, "%u+%u", r->page_size, r->misalign);
	else
		snprintf(buf, size, "%u", r->page_size);
	return 1;
}

/* A per-call figure with no digit finer than the counter resolves: rounded
 * to the power of ten of the resolution's leading digit (a step of 26
 * ticks: tens) when that is coarser than one tick. */
static double resolved(double ticks, double resolution)
{
	if (resolution < 10)
		return round(ticks);
	double unit = pow(10, floor(log10(resolution)));
	return round(ticks / unit) * unit;
}

/* rdtsc: p10/p50/p90 per call, in TSC cycles or (no TSC) ns; "/bN" when
 * timed in batches of N calls. */
static int cycles_cell(const struct record_row *w, char *buf, size_t size)
{
	const struct bench_result *r = RES(w);
	const struct bench_rdtsc_part *p = &r->rdtsc;
	char batch[32] = "";

	if (r->timer == BENCH_TIMER_KSMD) {
		const struct bench_ksmd_part *k = &r->ksmd;
		/* The rounds' median, as p10 and p90 are: the headline's time
		 * (a median of rates) could fall below p10. */
		snprintf(buf, size, "%.0f/%.0f/%.0f%s", k->ticks_per_page_p10, k->ticks_per_page_median,
			 k->ticks_per_page_p90, r->counter.is_tsc ? "" : " ns");
		return 1;
	}
	if (r->timer != BENCH_TIMER_RDTSC)
		return 0;
	if (p->batch_calls > 1)
		snprintf(batch, sizeof(batch), " b%llu", (unsigned long long)p->batch_calls);
	snprintf(buf, size, "%.0f/%.0f/%.0f%s%s", resolved(p->ticks_per_call_p10, p->resolution_ticks),
		 resolved(p->ticks_per_call_median, p->resolution_ticks),
		 resolved(p->ticks_per_call_p90, p->resolution_ticks), r->counter.is_tsc ? "" : " ns", batch);
	return 1;
}

static int timer_cell(const struct record_row *w, char *buf, size_t size)
{
	snprintf(buf, size, "%s", bench_timer_label(RES(w)->timer, RES(w)->apart));
	return 1;
}

static int timer_bare_cell(const struct record_row *w, char *buf, size_t size)
{
	snprintf(buf, size, "%s", bench_timer_name(RES(w)->timer));
	return 1;
}

/* Whether every result's calls were timed apart. */
static int all_apart(const struct report_document *doc)
{
	for (size_t i = 0; i < doc->nresults; i++)
		if (!doc->results[i].apart)
			return 0;
	return doc->nresults > 0;
}

/* "hot", or a cold (or warm: under 4x the last-level cache) set's size:
 * "cold 128M", "warm 1M". */
static int set_cell(const struct record_row *w, char *buf, size_t size)
{
	const struct bench_result *r = RES(w);
	uint64_t ws = r->working_set_bytes;

	if (strcmp(r->cache, "hot") == 0 || ws == 0)
		snprintf(buf, size, "%s", r->cache);
	else if (ws >= (1ull << 20) && ws % (1ull << 20) == 0)
		snprintf(buf, size, "%s %lluM", r->cache, (unsigned long long)(ws >> 20));
	else
		snprintf(buf, size, "%s %lluK", r->cache, (unsigned long long)(ws >> 10));
	return 1;
}

/* MB/s is 10^6 B/s; kMB/s the kernel's (count*PAGE_SIZE>>17, MiB/s). A
 * narrow table leaves out what a run's rows all share (said once under
 * it: RECORD_FIT_SAME) and what only some timers or a ceiling give, where
 * no row has it (RECORD_FIT_EMPTY). */
static const struct record_column columns[] = {
	{ .header = "HASH", .align = 'l', .cell = hash_cell },
	{ .header = "DATA", .align = 'l', .field = "data", .fit = RECORD_FIT_SAME },
	{ .header = "SET", .align = 'l', .cell = set_cell, .fit = RECORD_FIT_SAME },
	{ .header = "TIMER", .align = 'l', .cell = timer_cell, .fit = RECORD_FIT_SAME },
	{ .header = "PAGE", .align = 'r', .cell = page_cell, .fit = RECORD_FIT_SAME },
	{ .header = "MB/s best", .align = 'r', .field = "bytes_per_second_best", .scale = 1e-6, .format = "%.0f" },
	{ .header = "% ceiling", .align = 'r', .field = "pct_of_ceiling", .format = "%.0f", .fit = RECORD_FIT_EMPTY },
	{ .header = "MB/s median", .align = 'r', .cell = median_cell },
	{ .header = "ns/page median", .align = 'r', .field = "ns_per_page_median", .format = "%.1f" },
	{ .header = "ROUNDS", .align = 'r', .cell = rounds_cell },
	{ .header = "kMB/s best", .align = 'r', .field = "kernel_mb_per_s_best", .fit = RECORD_FIT_EMPTY },
	{ .header = "bias % median", .align = 'r', .field = "bias_percent_median", .format = "%+.1f",
	  .fit = RECORD_FIT_EMPTY },
	{ .header = "cyc p10/50/90", .align = 'r', .cell = cycles_cell, .fit = RECORD_FIT_EMPTY },
	{ .header = "STABILITY", .align = 'l', .cell = stability_cell },
};

#define BENCH_COLUMNS (sizeof(columns) / sizeof(columns[0]))

/* A table too wide for its width is fitted in steps: first the hash column
 * shows the implementation measured alone (its other names go to the line
 * under the table), then the longest headers are shortened ("med" for
 * median, "pg" for page, said there too), then "apart", where every row's
 * calls were, goes from the timer to that line and "% ceiling" becomes "%
 * ceil" (bench --ksmd: 107 columns), then "% ceil" goes (a share of two
 * figures the JSON and --wide keep; rdtsc's cycles with five digits and
 * medians with their ± over processes reached 101 columns under a loaded
 * test suite), then a dump's long path in the DATA column loses its
 * middle. */
enum { BENCH_FIT_WHOLE, BENCH_FIT_NAMES, BENCH_FIT_HEADERS, BENCH_FIT_TERSE, BENCH_FIT_NO_CEILING };

#define BENCH_DATA_MIN 18u /* a cut DATA cell keeps at least this much */

static int impl_cell(const struct record_row *w, char *buf, size_t size)
{
	const struct bench_result *r = RES(w);

	snprintf(buf, size, "%s", r->impl && *r->impl ? r->impl : r->hash);
	return 1;
}

static const char *const short_headers[][2] = {
	{ "MB/s median", "MB/s med" }, { "ns/page median", "ns/pg med" }, { "bias % median", "bias% med" },
};

/* The columns of shown[0..n) at a step; how many are left. */
static unsigned fit_step(struct record_column *shown, unsigned n, unsigned step, int apart)
{
	unsigned kept = 0;

	for (unsigned i = 0; i < n; i++) {
		if (step >= BENCH_FIT_NAMES && shown[i].cell == hash_cell)
			shown[i].cell = impl_cell;
		for (size_t k = 0; step >= BENCH_FIT_HEADERS && k < sizeof(short_headers) / sizeof(short_headers[0]); k++)
			if (strcmp(shown[i].header, short_headers[k][0]) == 0)
				shown[i].header = short_headers[k][1];
		if (step >= BENCH_FIT_TERSE && apart && shown[i].cell == timer_cell)
			shown[i].cell = timer_bare_cell;
		int ceiling = shown[i].field && strcmp(shown[i].field, "pct_of_ceiling") == 0;
		if (step >= BENCH_FIT_TERSE && ceiling)
			shown[i].header = "% ceil";
		if (!(step >= BENCH_FIT_NO_CEILING && ceiling))
			shown[kept++] = shown[i];
	}
	return kept;
}

/* Whether result i's names were said for an earlier result (another
 * dataset, cache or timer of the same hash). */
static int names_said(const struct report_document *doc, size_t i)
{
	const struct bench_result *r = &doc->results[i];

	for (size_t j = 0; j < i; j++) {
		const struct bench_result *q = &doc->results[j];
		if (strcmp(q->hash, r->hash) == 0 && q->naliases == r->naliases &&
		    (!r->naliases || strcmp(q->aliases[0], r->aliases[0]) == 0))
			return 1;
	}
	return 0;
}

/* "other names: xxhash = xxh64; crc32c = crc32c-fused-avx2", or "". */
static void other_names(const struct report_document *doc, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < doc->nresults && n < size; i++) {
		const struct bench_result *r = &doc->results[i];
		int renamed = r->impl && *r->impl && strcmp(r->impl, r->hash) != 0;
		if ((!renamed && !r->naliases) || names_said(doc, i))
			continue;
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "; " : "other names: ", renamed ? r->hash : "");
		for (unsigned a = 0; a < r->naliases && n < size; a++)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", renamed || a ? ", " : "", r->aliases[a]);
		if (n < size)
			n += (size_t)snprintf(buf + n, size - n, " = %s", renamed ? r->impl : r->hash);
	}
}

int bench_report_rows(const struct report_document *doc, struct record_list *rows)
{
	*rows = (struct record_list){ &report_result_schema, doc->results, doc->nresults, sizeof(*doc->results),
				      { .item = doc } };
	return 0;
}

/* The median interrupted share of the undisturbed rounds that logged
 * their batches, or -1 where none did. */
static double interrupted_median(const struct report_document *doc)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < doc->nresults; i++)
		n += doc->results[i].repeats;
	double *v = n ? malloc(n * sizeof(*v)) : NULL;
	if (!v)
		return -1;
	for (size_t i = 0; i < doc->nresults; i++)
		for (unsigned j = 0; j < doc->results[i].repeats; j++) {
			const struct bench_round *r = &doc->results[i].rounds[j];
			double share = bench_round_interrupted_share(r);
			if (!r->disturbed && share >= 0)
				v[k++] = share;
		}
	struct stats_summary sum;
	double m = k && stats_summarize(v, k, &sum) == 0 ? sum.median : -1;
	free(v);
	return m;
}

/* Below this median share the interruptions go unmentioned (bare metal:
 * a tick's few us in 4 ms). */
#define INTERRUPTED_NOTE_SHARE 0.01

/* After the table: how it was measured, what interruptions took, and one
 * line per unstable result. */
static int method_notes(FILE *out, const struct report_document *doc, enum report_style style)
{
	const struct bench_context *ctx = doc->ctx;
	int md = style == REPORT_MARKDOWN;
	unsigned width = md ? 0 : report_columns(doc);
	double lost = interrupted_median(doc);

	if (lost >= INTERRUPTED_NOTE_SHARE &&
	    report_wrappedf(out, width, md ? "\n- " : "", "interruptions (ticks, a VM's exits) took %.1f%% of a "
			    "round's time (median): MB/s includes them, the share of the ceiling does not",
			    100 * lost))
		return -1;
	/* The interval's coverage follows the values each result had, not the
	 * processes asked for: disturbed rounds can leave a result two. */
	double level = 2;
	for (size_t i = 0; i < doc->nresults; i++)
		if (doc->results[i].over_processes.n > 1 && doc->results[i].over_processes.level < level)
			level = doc->results[i].over_processes.level;
	char interval[128] = "";
	if (level >= 0.95 && level <= 1)
		snprintf(interval, sizeof(interval), ", ± its interval's half-width (95%%+ confidence)");
	else if (level < 0.95)
		snprintf(interval, sizeof(interval), ", ± its interval's half-width (%.0f%%+ confidence: the min..max "
			 "where too few processes had a value for 95%%)", floor(level * 100));
	if (ctx->processes &&
	    report_wrappedf(out, width, md ? "\n- " : "", "%u process%s x %u round%s per measurement, taken in turns; "
			    "MB/s median: over processes%s", ctx->processes, kb_es(ctx->processes),
			    ctx->rounds_per_process, kb_s(ctx->rounds_per_process), interval))
		return -1;
	return report_unstable_summary(out, doc->results, doc->nresults, 0, md ? ESCAPE_MARKDOWN : ESCAPE_TERM,
				       md ? "- Warning: " : "warning: ", width);
}

/* The units, what every row shares when the table leaves it out, and the
 * key of a fitted table (step). */
static int units_line(FILE *out, const struct report_document *doc, const char *common, enum report_style style,
		      unsigned step)
{
	int kernel = 0, cycles = 0, ceiling = 0, batched = 0, whole = 0;
	char names[1024] = "";

	for (size_t i = 0; i < doc->nresults; i++) {
		const struct bench_result *r = &doc->results[i];
		kernel |= r->timer == BENCH_TIMER_JIFFIES;
		cycles |= r->timer == BENCH_TIMER_RDTSC || r->timer == BENCH_TIMER_KSMD;
		ceiling |= r->ceiling_bytes_per_s > 0;
		/* pct_of_ceiling: the best round, less its interrupted batches
		 * where they were logged (window, jiffies) */
		batched |= r->ceiling_bytes_per_s > 0 && r->uninterrupted_ns_best > 0;
		whole |= r->ceiling_bytes_per_s > 0 && !(r->uninterrupted_ns_best > 0);
	}
	if (step >= BENCH_FIT_NAMES)
		other_names(doc, names, sizeof(names));
	int dropped = ceiling && step >= BENCH_FIT_NO_CEILING;
	ceiling &= !dropped;
	return report_wrappedf(out, style == REPORT_MARKDOWN ? 0 : report_columns(doc), style == REPORT_MARKDOWN ? "\n- " : "",
			       "MB/s: 10^6 bytes/s%s%s%s%s%s%s%s%s%s%s%s.",
			       dropped ? "; % ceiling left out to fit (--wide and the JSON have it)"
			       : ceiling ? "; % ceiling: the best round" : "",
			       !batched || !ceiling ? "" : whole ? " (window, jiffies: less its interrupted batches)"
								 : ", less its interrupted batches,",
			       ceiling ? " over this CPU's limit for what ran (ksmbench ceiling)" : "",
			       kernel ? "; kMB/s: the kernel's MB/s (count*PAGE_SIZE>>17, MiB/s)" : "",
			       cycles ? "; cyc: TSC cycles per call (ksmd: per page), the rounds' p10/p50/p90" : "",
			       step == BENCH_FIT_TERSE ? "; med: median, pg: page, ceil: ceiling"
			       : step >= BENCH_FIT_HEADERS ? "; med: median, pg: page" : "",
			       step >= BENCH_FIT_TERSE && all_apart(doc) ? "; every timer's calls apart" : "",
			       *common ? "; every row: " : "", common, *names ? "; " : "", names);
}

int bench_report_text(FILE *out, const struct report_document *doc, enum report_style style)
{
	struct record_column shown[BENCH_COLUMNS];
	struct record_list rows;
	char common[512];

	bench_report_rows(doc, &rows);
	/* Markdown is read in a browser: every column. */
	unsigned width = style == REPORT_MARKDOWN ? 0 : report_columns(doc), step = BENCH_FIT_WHOLE;
	unsigned n = record_columns_fit(columns, BENCH_COLUMNS, &rows, width == 0, shown, common, sizeof(common));
	struct table *t = record_table(shown, n, &rows);
	while (t && width && step < BENCH_FIT_NO_CEILING && table_width(t) > width) {
		table_free(t);
		n = fit_step(shown, n, ++step, all_apart(doc));
		t = record_table(shown, n, &rows);
	}
	for (unsigned c = 0; t && width && c < n; c++)
		if (shown[c].field && strcmp(shown[c].field, "data") == 0)
			table_fit_middle(t, c, width, BENCH_DATA_MIN);
	int rc = t ? report_table_in_context(out, doc->ctx, t, style, 0, report_columns(doc)) : -1;
	table_free(t);
	if (rc == 0)
		rc = units_line(out, doc, common, style, step);
	if (rc == 0)
		rc = report_table_notes(out, doc->ctx, style, report_columns(doc));
	return rc ? rc : method_notes(out, doc, style);
}

/* The kernel's figure for a result: its own for the jiffies timer, else the
 * best rate in the same unit (MiB/s, as count * PAGE_SIZE >> 17 is). */
static long kernel_mb_per_s(const struct bench_result *r)
{
	if (r->timer == BENCH_TIMER_JIFFIES)
		return r->jiffies.kernel_mb_per_s_best;
	return (long)(bench_bytes_per_s(r->page_size, r->ns_per_page.best) / (1 << 20));
}

int report_kernel_line(FILE *out, const char *name, long mb_per_s)
{
	return fprintf(out, "ksm: %-8s hash() %5ld MB/s\n", name, mb_per_s) < 0 ? -1 : 0;
}

/* xxhash, the kernel's own alias, keeps its name; crc32c's pick ran over
 * twice the kernel's crc32c() on Zen 5, and the line said "crc32c". */
const char *report_kernel_name(const struct bench_result *r)
{
	const struct hash_impl *h = hash_find(r->hash);

	return h && h->alias_of && !h->kernel.function && r->impl && *r->impl ? r->impl : r->hash;
}

int bench_report_kernel(FILE *out, const struct report_document *doc)
{
	for (size_t i = 0; i < doc->nresults; i++)
		if (report_kernel_line(out, report_kernel_name(&doc->results[i]), kernel_mb_per_s(&doc->results[i])))
			return -1;
	return 0;
}
