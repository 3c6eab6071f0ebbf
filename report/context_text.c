/* The context around text tables (see context_text.h). MB/s in the tables
 * is 10^6 bytes per second; the kernel's "MB/s" is MiB/s, in its own column. */
#include "context_text.h"

#include <signal.h>

#include "text_wrap.h"

static void tsc_text(const struct bench_context *ctx, const char *none, char *buf, size_t size)
{
	if (ctx->counter_is_tsc)
		snprintf(buf, size, "TSC %.3f GHz", ctx->counter_hz / 1e9);
	else
		snprintf(buf, size, "%s", none);
}

int report_context_line(FILE *out, const struct bench_context *ctx, unsigned width)
{
	char tsc[64];

	tsc_text(ctx, "no TSC (CLOCK_MONOTONIC counter)", tsc, sizeof(tsc));
	return report_wrappedf(out, width, "# ", "ksmbench %s (git %s), %s, CPU %d pinned (%s), %s, kernel %s",
			       ctx->version, ctx->git_revision, ctx->cpu.known ? ctx->cpu.brand : "unidentified CPU",
			       ctx->pinned_cpu, ctx->pin_rule ? ctx->pin_rule : "given", tsc, ctx->kernel_release);
}

int report_warnings(FILE *out, const struct bench_context *ctx, const char *prefix, unsigned width)
{
	for (unsigned i = 0; i < ctx->nwarnings; i++)
		if (report_wrapped(out, prefix, ctx->warnings[i], width))
			return -1;
	return 0;
}

int report_interruption(FILE *out, const struct bench_context *ctx, const char *prefix)
{
	if (!ctx->interrupted_by)
		return 0;
	fprintf(out, "%sinterrupted by %s: %u of %u measurements reported, %u of %u rounds (a round cut short is "
		     "dropped)\n", prefix, ctx->interrupted_by == SIGTERM ? "SIGTERM" : "SIGINT", ctx->completed,
		ctx->planned, ctx->rounds_done, ctx->rounds_planned);
	return ferror(out) ? -1 : 0;
}

int report_context_markdown(FILE *out, const struct bench_context *ctx)
{
	char tsc[64];

	tsc_text(ctx, "no TSC", tsc, sizeof(tsc));
	fprintf(out, "ksmbench %s (git %s) on %s, CPU %d pinned (%s), %s, kernel %s, %s\n\n", ctx->version,
		ctx->git_revision, ctx->cpu.known ? ctx->cpu.brand : "an unidentified CPU", ctx->pinned_cpu,
		ctx->pin_rule ? ctx->pin_rule : "given", tsc, ctx->kernel_release, ctx->date);
	return ferror(out) ? -1 : 0;
}

static int markdown_notes(FILE *out, const struct bench_context *ctx)
{
	if (ctx->nwarnings || ctx->interrupted_by)
		fputc('\n', out);
	if (report_interruption(out, ctx, "- **Note**: "))
		return -1;
	for (unsigned i = 0; i < ctx->nwarnings; i++)
		fprintf(out, "- Warning: %s\n", ctx->warnings[i]);
	return ferror(out) ? -1 : 0;
}

int report_table_notes(FILE *out, const struct bench_context *ctx, enum report_style style, unsigned width)
{
	if (style == REPORT_MARKDOWN)
		return markdown_notes(out, ctx);
	return report_warnings(out, ctx, "warning: ", width) || report_interruption(out, ctx, "note: ") ? -1 : 0;
}

int report_table_in_context(FILE *out, const struct bench_context *ctx, const struct table *t,
			    enum report_style style, int notes, unsigned width)
{
	if (style == REPORT_MARKDOWN ? report_context_markdown(out, ctx) || table_print_markdown(t, out)
				     : report_context_line(out, ctx, width) || table_print(t, out))
		return -1;
	return notes ? report_table_notes(out, ctx, style, width) : 0;
}
