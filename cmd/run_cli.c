/* Shared pieces of the measuring commands (see run_cli.h). */
#include "run_cli.h"

#include <stdio.h>
#include <stdlib.h>

#include "../bench/ceiling.h"
#include "../bench/pin.h"
#include "../common/duration_parse.h"
#include "../common/plural.h"
#include "../common/quote.h"
#include "../common/size_parse.h"
#include "../common/stop_signal.h"
#include "../scan/ksm_model.h"
#include "../report/stability_text.h"
#include "cli.h"
#include "interrupt.h"
#include "term.h"
#include "workers.h"

int run_cli_parse_cpu(const char *cmd, const char *text, int *cpu)
{
	struct kb_err err;
	uint64_t v;

	if (kb_parse_uint(text, 65535, &v, &err))
		return cli_error(cmd, "--cpu: %s", err.msg);
	*cpu = (int)v;
	return 0;
}

int run_cli_parse_repeat(const char *cmd, const char *text, unsigned max, unsigned *repeat)
{
	struct kb_err err;
	uint64_t v;

	if (kb_parse_uint(text, max, &v, &err))
		return cli_error(cmd, "--repeat: %s", err.msg);
	if (v == 0)
		return cli_error(cmd, "--repeat: must be at least 1");
	*repeat = (unsigned)v;
	return 0;
}

int run_cli_parse_hz(const char *cmd, const char *text, unsigned *hz)
{
	struct kb_err err;
	uint64_t v;
	char q[KB_QUOTE_SIZE];

	if (kb_parse_uint(text, 10000, &v, &err) || v < 8)
		return cli_error(cmd, "--hz '%s' must be from 8 to 10000", kb_quote(text, q));
	*hz = (unsigned)v;
	return 0;
}

int run_cli_parse_working_set(const char *cmd, const char *text, uint64_t *bytes)
{
	struct kb_err err;
	uint64_t v;
	char q[KB_QUOTE_SIZE];

	if (kb_parse_size(text, &v, &err))
		return cli_error(cmd, "--working-set: %s", err.msg);
	if (v < (64u << 10) || v > (64ull << 30)) /* "000...1K": a long text, a small size */
		return cli_error(cmd, "--working-set '%s' must be from 64K to 64G", kb_quote(text, q));
	*bytes = v;
	return 0;
}

int run_cli_parse_window(const char *cmd, const char *text, uint64_t *ns)
{
	struct kb_err err;

	if (kb_parse_duration_ns(text, 100000u, 60000000000u, ns, &err))
		return cli_error(cmd, "--window: %s", err.msg);
	return 0;
}

int run_cli_parse_processes(const char *cmd, const char *text, unsigned *n)
{
	struct kb_err err;
	uint64_t v;
	char q[KB_QUOTE_SIZE];

	if (kb_parse_uint(text, BENCH_PROCESSES_MAX, &v, &err) || v == 0)
		return cli_error(cmd, "--processes '%s' must be from 1 to %u", kb_quote(text, q), BENCH_PROCESSES_MAX);
	*n = (unsigned)v;
	return 0;
}

int run_cli_parse_seed(const char *cmd, const char *text, uint64_t *seed)
{
	struct kb_err err;

	if (kb_parse_uint(text, UINT64_MAX, seed, &err))
		return cli_error(cmd, "--seed: %s", err.msg);
	return 0;
}

int run_cli_parse_kernel_release(const char *cmd, const char *text, const char **release)
{
	struct ksm_rules rules;
	struct kb_err err;

	if (!*text) /* empty would mean "not given": the newest rules */
		return cli_error(cmd, "--kernel-release: empty (a release such as 6.12)");
	if (ksm_rules_for(text, "option", &rules, &err))
		return cli_error(cmd, "--kernel-release: %s", err.msg);
	*release = text;
	return 0;
}

int run_cli_spacing(const char *cmd, int apart, int back_to_back, enum bench_timer timer, struct bench_config *cfg)
{
	if (apart && back_to_back)
		return cli_error(cmd, "--apart and --back-to-back: one of them");
	cfg->apart = apart || (!back_to_back && bench_apart_by_default(timer));
	return 0;
}

int run_cli_format(const char *cmd, const char *name, enum report_kind kind, const struct report_format **f)
{
	struct kb_err err;

	*f = report_format_find(name, kind, &err);
	return *f ? 0 : cli_fail(cmd, &err);
}

const char *run_cli_formats(enum report_kind kind)
{
	static char names[REPORT_KINDS][160];

	return report_format_names(kind, "|", names[kind], sizeof(names[kind]));
}

const char *run_cli_format_list(enum report_kind kind)
{
	static char names[REPORT_KINDS][160];

	return report_format_names(kind, ", ", names[kind], sizeof(names[kind]));
}

int run_cli_cpu(const char *cmd, int requested, int only_choose, int *cpu, const char **rule)
{
	struct kb_err err;

	*cpu = pin_choose(requested, rule, &err);
	if (*cpu < 0 || (!only_choose && pin_to_cpu(*cpu, &err)))
		return cli_fail(cmd, &err);
	return 0;
}

struct bench_context *run_cli_context(const char *cmd, int cpu, const char *rule,
				      const struct hash_impl *const *hashes, unsigned n, enum context_counter counter)
{
	/* Its warnings and names take a few KiB: not on the stack. */
	struct bench_context *ctx = malloc(sizeof(*ctx));

	if (!ctx)
		cli_error(cmd, "out of memory");
	else
		bench_context_gather(ctx, cpu, rule, hashes, n, counter);
	return ctx;
}

int run_cli_serve(const struct run_cli_run *run)
{
	return worker_spec.active ? worker_serve(run->cmd, &run->plan) : -1;
}

int run_cli_measure(const struct run_cli_run *run, struct bench_results *out)
{
	struct progress progress;
	struct kb_err err;
	int rc;

	struct bench_plan plan = run->plan;
	struct page_store pages;
	progress_init(&progress, run->cmd, run->quiet);
	int from_file = 0;
	for (unsigned i = 0; i < plan.nsteps && !from_file; i++)
		from_file = page_set_data_is_file(plan.steps[i].set.data);
	if (from_file) {
		progress_show(&progress, &(struct bench_progress){ .note = "reading the pages of the data" });
		/* Ctrl-C while the data is awaited (a FIFO's open) ends the run:
		 * the exit says so, not an input error. */
		if ((rc = interrupt_wait_begin()) != 0) {
			progress_clear(&progress);
			return rc;
		}
	}
	int failed = bench_plan_read_pages(&plan, &pages, &err);
	if (from_file)
		interrupt_wait_end();
	if (failed) {
		rc = cli_fail(run->cmd, &err);
	} else if (plan.pages = &pages, plan.processes == 1) {
		rc = bench_run(&plan, progress_show, &progress, out, &err) ? cli_fail(run->cmd, &err) : 0;
		out->process_cpu[0] = run->cpu;
	} else {
		rc = workers_run(run->cmd, &plan, run->argc, run->argv, run->cpu, progress.on ? progress_show : NULL,
				 &progress, out);
		if (rc == 0 && bench_results_finish(out, &err))
			rc = cli_fail(run->cmd, &err);
	}
	page_store_close(&pages);
	progress_clear(&progress);
	return rc;
}

void run_cli_ceiling(const char *cmd, struct bench_context *ctx, int quiet)
{
	struct bench_progress note = { .note = "measuring this CPU's limits (--no-ceiling skips this)" };
	struct progress progress;
	struct kb_err err;

	progress_init(&progress, cmd, quiet);
	progress_show(&progress, &note);
	ctx->ceiling = ceiling_process_figures(&err);
	progress_clear(&progress);
	if (!ctx->ceiling)
		bench_context_warn(ctx, "no ceiling figures: %s", err.msg);
}

void run_cli_finish(const char *cmd, struct bench_context *ctx, struct bench_results *r,
		    const struct report_format *f, int quiet)
{
	int signo;

	ceiling_bound_results(ctx->ceiling, r->items, r->n);
	bench_context_note_stop(ctx, r->planned, (unsigned)r->n, r->rounds_done, r->rounds_planned);
	bench_context_note_cpus(ctx, r->process_cpu, r->processes_planned);
	if ((signo = ctx->interrupted_by) != 0)
		fprintf(stderr, "ksmbench %s: interrupted by %s: %u of %u measurement%s reported\n", cmd,
			kb_stop_signal_name(signo), ctx->completed, ctx->planned, kb_s(ctx->planned));
	bench_context_note_reference(ctx, &r->reference, &r->free_core);
	if (!run_cli_warnings(cmd, ctx, f, quiet))
		return;
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "ksmbench %s: warning: ", cmd);
	report_unstable_summary(stderr, r->items, r->n, 0, ESCAPE_TERM, prefix, 0);
}

int run_cli_warnings(const char *cmd, const struct bench_context *ctx, const struct report_format *f, int quiet)
{
	if (!(f->flags & REPORT_NO_WARNINGS) || quiet)
		return 0;
	for (unsigned i = 0; i < ctx->nwarnings; i++)
		cli_error(cmd, "warning: %s", ctx->warnings[i]);
	return 1;
}

int run_cli_exit_code(int close_rc)
{
	int code = interrupt_exit_code();

	return code ? code : close_rc;
}
