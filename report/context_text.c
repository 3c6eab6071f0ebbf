/* The context around text tables (see context_text.h). MB/s in the tables
 * is 10^6 bytes per second; the kernel's "MB/s" is MiB/s, in its own column. */
#include "context_text.h"

#include <signal.h>

#include "escape.h"
#include "../common/plural.h"

/* The machine's own strings (a hypervisor sets the CPU's brand, sysfs files
 * give the governor a warning names), escaped for the target. */
struct context_strings {
	char git[64], brand[320], kernel[320], date[128];
};

static void context_strings(const struct bench_context *ctx, enum escape_target e, const char *no_cpu,
			    struct context_strings *s)
{
	escape_str(ctx->git_revision, e, s->git, sizeof(s->git));
	escape_str(ctx->cpu.known ? ctx->cpu.brand : no_cpu, e, s->brand, sizeof(s->brand));
	escape_str(ctx->kernel_release, e, s->kernel, sizeof(s->kernel));
	escape_str(ctx->date, e, s->date, sizeof(s->date));
}

static void warning_lines(FILE *out, const struct bench_context *ctx, const char *prefix, enum escape_target e)
{
	for (unsigned i = 0; i < ctx->nwarnings; i++) {
		fputs(prefix, out);
		escape_put(out, ctx->warnings[i], e);
		fputc('\n', out);
	}
}

static void tsc_text(const struct bench_context *ctx, const char *none, char *buf, size_t size)
{
	if (ctx->counter_is_tsc)
		snprintf(buf, size, "TSC %.3f GHz", ctx->counter_hz / 1e9);
	else
		snprintf(buf, size, "%s", none);
}

int report_context_line(FILE *out, const struct bench_context *ctx)
{
	struct context_strings s;
	char tsc[64];

	tsc_text(ctx, "no TSC (CLOCK_MONOTONIC counter)", tsc, sizeof(tsc));
	context_strings(ctx, ESCAPE_TERM, "unidentified CPU", &s);
	fprintf(out, "# ksmbench %s (git %s), %s, CPU %d pinned (%s), %s, kernel %s\n", ctx->version, s.git, s.brand,
		ctx->pinned_cpu, ctx->pin_rule ? ctx->pin_rule : "given", tsc, s.kernel);
	return ferror(out) ? -1 : 0;
}

int report_warnings(FILE *out, const struct bench_context *ctx)
{
	warning_lines(out, ctx, "warning: ", ESCAPE_TERM);
	return ferror(out) ? -1 : 0;
}

int report_interruption(FILE *out, const struct bench_context *ctx, const char *prefix)
{
	if (!ctx->interrupted_by)
		return 0;
	fprintf(out, "%sinterrupted by %s: %u of %u measurement%s reported, %u of %u round%s (a round cut short "
		     "is dropped)\n", prefix, ctx->interrupted_by == SIGTERM ? "SIGTERM" : "SIGINT", ctx->completed,
		ctx->planned, kb_s(ctx->planned), ctx->rounds_done, ctx->rounds_planned, kb_s(ctx->rounds_planned));
	return ferror(out) ? -1 : 0;
}

static int markdown(FILE *out, const struct bench_context *ctx, const struct table *t, int notes)
{
	struct context_strings s;
	char tsc[64];

	tsc_text(ctx, "no TSC", tsc, sizeof(tsc));
	context_strings(ctx, ESCAPE_MARKDOWN, "an unidentified CPU", &s);
	fprintf(out, "ksmbench %s (git %s) on %s, CPU %d pinned (%s), %s, kernel %s, %s\n\n", ctx->version, s.git,
		s.brand, ctx->pinned_cpu, ctx->pin_rule ? ctx->pin_rule : "given", tsc, s.kernel, s.date);
	if (table_print_markdown(t, out))
		return -1;
	if (!notes)
		return ferror(out) ? -1 : 0;
	if (ctx->nwarnings || ctx->interrupted_by)
		fputc('\n', out);
	if (report_interruption(out, ctx, "- **Note**: "))
		return -1;
	warning_lines(out, ctx, "- Warning: ", ESCAPE_MARKDOWN);
	return ferror(out) ? -1 : 0;
}

int report_table_in_context(FILE *out, const struct bench_context *ctx, const struct table *t,
			    enum report_style style, int notes)
{
	if (style == REPORT_MARKDOWN)
		return markdown(out, ctx, t, notes);
	if (report_context_line(out, ctx) || table_print(t, out))
		return -1;
	if (notes && (report_warnings(out, ctx) || report_interruption(out, ctx, "note: ")))
		return -1;
	return 0;
}
