/* The context around text tables (see context_text.h). MB/s in the tables
 * is 10^6 bytes per second; the kernel's "MB/s" is MiB/s, in its own column. */
#include "context_text.h"


#include "../common/plural.h"
#include "../common/stop_signal.h"
#include "escape.h"
#include "text_wrap.h"

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

/* Each warning escaped for e, then wrapped to width (0: not wrapped). */
static int warning_lines(FILE *out, const struct bench_context *ctx, const char *prefix, enum escape_target e,
			 unsigned width)
{
	char line[4 * sizeof(ctx->warnings[0])];

	for (unsigned i = 0; i < ctx->nwarnings; i++) {
		escape_str(ctx->warnings[i], e, line, sizeof(line));
		if (report_wrapped(out, prefix, line, width))
			return -1;
	}
	return 0;
}

/* The timing counter, and the core clock the rounds ran at (the host's
 * frequency moves it between runs, and every rate with it: two tables read
 * side by side need it). */
static void tsc_text(const struct bench_context *ctx, const char *none, char *buf, size_t size)
{
	char core[48] = "";

	if (ctx->reference_clock_hz > 0)
		snprintf(core, sizeof(core), ", core %.2f GHz", ctx->reference_clock_hz / 1e9);
	if (ctx->counter_is_tsc && ctx->counter_hz > 0)
		snprintf(buf, size, "TSC %.3f GHz%s", ctx->counter_hz / 1e9, core);
	else if (ctx->counter_is_tsc)
		snprintf(buf, size, "TSC (not timed: nothing used it)%s", core);
	else
		snprintf(buf, size, "%s%s", none, core);
}

/* "CPU 1 pinned (rule)", or where the processes were placed one by one
 * on more than one CPU, each CPU with its processes' count. */
static void pinned_text(const struct bench_context *ctx, char *buf, size_t size)
{
	const char *rule = ctx->pin_rule ? ctx->pin_rule : "given";
	int cpus[4];
	unsigned counts[4] = { 0 }, distinct = 0, others = 0;

	for (unsigned i = 0; i < ctx->nprocess_cpus; i++) {
		unsigned k = 0;
		while (k < distinct && cpus[k] != ctx->process_cpus[i])
			k++;
		if (k == distinct && distinct < 4)
			cpus[distinct++] = ctx->process_cpus[i];
		if (k < distinct)
			counts[k]++;
		else
			others++;
	}
	if (distinct < 2) {
		snprintf(buf, size, "CPU %d pinned (%s)", ctx->pinned_cpu, rule);
		return;
	}
	size_t at = (size_t)snprintf(buf, size, "CPUs");
	for (unsigned k = 0; k < distinct && at < size; k++)
		at += (size_t)snprintf(buf + at, size - at, "%s %d (%u)", k ? "," : "", cpus[k], counts[k]);
	if (others && at < size)
		at += (size_t)snprintf(buf + at, size - at, ", others (%u)", others);
	if (at < size)
		snprintf(buf + at, size - at, " pinned (%s, for each process)", rule);
}

int report_context_line(FILE *out, const struct bench_context *ctx, unsigned width)
{
	struct context_strings s;
	char tsc[64], pinned[128];

	tsc_text(ctx, "no TSC (CLOCK_MONOTONIC counter)", tsc, sizeof(tsc));
	pinned_text(ctx, pinned, sizeof(pinned));
	context_strings(ctx, ESCAPE_TERM, "unidentified CPU", &s);
	return report_wrappedf(out, width, "# ", "ksmbench %s (git %s), %s, %s, %s, kernel %s", ctx->version, s.git,
			       s.brand, pinned, tsc, s.kernel);
}

int report_warnings(FILE *out, const struct bench_context *ctx, const char *prefix, unsigned width)
{
	return warning_lines(out, ctx, prefix, ESCAPE_TERM, width);
}

int report_interruption(FILE *out, const struct bench_context *ctx, const char *prefix)
{
	int signo = ctx->interrupted_by;

	if (!signo)
		return 0;
	fprintf(out, "%sinterrupted by %s: %u of %u measurement%s reported, %u of %u round%s (a round cut short "
		     "is dropped)\n", prefix, kb_stop_signal_name(signo), ctx->completed, ctx->planned, kb_s(ctx->planned),
		ctx->rounds_done, ctx->rounds_planned, kb_s(ctx->rounds_planned));
	return ferror(out) ? -1 : 0;
}

int report_context_markdown(FILE *out, const struct bench_context *ctx)
{
	struct context_strings s;
	char tsc[64], pinned[128];

	tsc_text(ctx, "no TSC", tsc, sizeof(tsc));
	pinned_text(ctx, pinned, sizeof(pinned));
	context_strings(ctx, ESCAPE_MARKDOWN, "an unidentified CPU", &s);
	fprintf(out, "ksmbench %s (git %s) on %s, %s, %s, kernel %s, %s\n\n", ctx->version, s.git, s.brand, pinned, tsc,
		s.kernel, s.date);
	return ferror(out) ? -1 : 0;
}

static int markdown_notes(FILE *out, const struct bench_context *ctx)
{
	if (ctx->nwarnings || ctx->interrupted_by)
		fputc('\n', out);
	if (report_interruption(out, ctx, "- **Note**: "))
		return -1;
	return warning_lines(out, ctx, "- Warning: ", ESCAPE_MARKDOWN, 0);
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
