/* The default report: a context line, aligned columns with units in the
 * headers, then any warnings. MB/s here is 10^6 bytes per second; the
 * kernel's "MB/s" (count * PAGE_SIZE >> 17) is MiB/s and has its own column. */
#include <signal.h>
#include <stdio.h>

#include "table.h"
#include "results.h"

int report_context_line(FILE *out, const struct bench_context *ctx)
{
	char tsc[64] = "no TSC (CLOCK_MONOTONIC counter)";

	if (ctx->counter_is_tsc)
		snprintf(tsc, sizeof(tsc), "TSC %.3f GHz", ctx->counter_hz / 1e9);
	fprintf(out, "# ksmbench %s (git %s), %s, CPU %d pinned, %s, kernel %s\n", ctx->version, ctx->git_revision,
		ctx->cpu.known ? ctx->cpu.brand : "unidentified CPU", ctx->pinned_cpu, tsc, ctx->kernel_release);
	return ferror(out) ? -1 : 0;
}

int report_warnings(FILE *out, const struct bench_context *ctx)
{
	for (unsigned i = 0; i < ctx->nwarnings; i++)
		fprintf(out, "warning: %s\n", ctx->warnings[i]);
	return ferror(out) ? -1 : 0;
}

int report_interruption(FILE *out, const struct bench_context *ctx, const char *prefix)
{
	if (!ctx->interrupted_by)
		return 0;
	fprintf(out, "%sinterrupted by %s: %u of %u measurements completed (a round cut short is dropped)\n",
		prefix, ctx->interrupted_by == SIGTERM ? "SIGTERM" : "SIGINT", ctx->completed, ctx->planned);
	return ferror(out) ? -1 : 0;
}

int report_table_under_context(FILE *out, const struct bench_context *ctx, const struct table *t)
{
	if (report_context_line(out, ctx))
		return -1;
	return table_print(t, out);
}

int report_markdown_under_context(FILE *out, const struct bench_context *ctx, const struct table *t)
{
	char tsc[64] = "no TSC";

	if (ctx->counter_is_tsc)
		snprintf(tsc, sizeof(tsc), "TSC %.3f GHz", ctx->counter_hz / 1e9);
	fprintf(out, "ksmbench %s (git %s) on %s, CPU %d pinned, %s, kernel %s, %s\n\n", ctx->version,
		ctx->git_revision, ctx->cpu.known ? ctx->cpu.brand : "an unidentified CPU", ctx->pinned_cpu, tsc,
		ctx->kernel_release, ctx->date);
	if (table_print_markdown(t, out))
		return -1;
	if (ctx->nwarnings || ctx->interrupted_by)
		fputc('\n', out);
	if (report_interruption(out, ctx, "- **Note**: "))
		return -1;
	for (unsigned i = 0; i < ctx->nwarnings; i++)
		fprintf(out, "- Warning: %s\n", ctx->warnings[i]);
	return ferror(out) ? -1 : 0;
}

static struct table *results_table(const struct bench_result *r, size_t n)
{
	struct table *t = table_new(12, "llllrrrrrrrr");
	int rc = 0;

	if (!t || table_add_rowf(t, "HASH", "DATA", "CACHE", "TIMER", "PAGE", "MB/s best", "MB/s median",
				 "ns/page median", "CV %", "kernel MB/s", "bias %", "TSC cyc/call p10/p50/p90"))
		rc = -1;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const struct bench_result *x = &r[i];
		char page[24], best[32], med[32], ns[32], cv[16], kmb[24] = "-", bias[24] = "-", cyc[64] = "-";
		snprintf(page, sizeof(page), "%u", x->page_size);
		if (x->misalign)
			snprintf(page, sizeof(page), "%u+%u", x->page_size, x->misalign);
		snprintf(best, sizeof(best), "%.0f", x->bytes_per_second_best / 1e6);
		snprintf(med, sizeof(med), "%.0f", x->bytes_per_second_median / 1e6);
		snprintf(ns, sizeof(ns), "%.1f", x->ns_per_page.median);
		snprintf(cv, sizeof(cv), "%.1f", x->ns_per_page.cv * 100);
		if (x->timer == BENCH_TIMER_JIFFIES) {
			snprintf(kmb, sizeof(kmb), "%ld", x->kernel_mb_per_s_best);
			snprintf(bias, sizeof(bias), "%+.1f", x->bias_percent_median);
		}
		if (x->timer == BENCH_TIMER_RDTSC)
			snprintf(cyc, sizeof(cyc), "%.0f/%.0f/%.0f%s", x->ticks_per_call_p10, x->ticks_per_call_median,
				 x->ticks_per_call_p90, x->counter_is_tsc ? "" : " ns");
		const char *name = x->hash;
		char label[64];
		if (x->impl && x->hash && x->impl != x->hash && *x->impl) {
			snprintf(label, sizeof(label), "%s (%s)", x->hash, x->impl);
			name = label;
		}
		rc = table_add_rowf(t, name, x->data, x->cache, bench_timer_name(x->timer), page, best, med, ns, cv,
				    kmb, bias, cyc);
	}
	return table_done(t, rc);
}

int report_table(FILE *out, const struct bench_context *ctx, const struct bench_result *r, size_t n)
{
	struct table *t = results_table(r, n);
	int rc = t ? report_table_under_context(out, ctx, t) : -1;

	if (rc == 0)
		rc = report_warnings(out, ctx);
	if (rc == 0)
		rc = report_interruption(out, ctx, "note: ");
	table_free(t);
	return rc;
}

int report_markdown(FILE *out, const struct bench_context *ctx, const struct bench_result *r, size_t n)
{
	struct table *t = results_table(r, n);
	int rc = t ? report_markdown_under_context(out, ctx, t) : -1;

	table_free(t);
	return rc;
}
