/* ksmbench bench: measures the chosen hashes over one page set, or over a
 * sweep of them (lists of data, caches, page sizes, misalignments: one
 * result per combination and hash), with one timer, in --processes
 * processes, and reports the results in the chosen format. The options are
 * read in cmd_bench_options.c, the plan made in cmd_bench_plan.c; here it
 * is run, or the self-check, and the report written. */
#include <stdlib.h>

#include "../bench/selfcheck.h"
#include "cli.h"
#include "cmd_bench.h"
#include "interrupt.h"
#include "output.h"
#include "run_cli.h"

/* --selfcheck: the comparisons in f; exit 1 when a target is missed,
 * whatever the format. */
static int run_selfcheck(const struct bench_step *step, const struct hash_impl *const *hashes, unsigned n,
			 struct bench_context *ctx, const struct report_format *f, int quiet, struct cmd_output *out)
{
	struct selfcheck_row *rows = calloc(n ? n : 1, sizeof(*rows));
	struct page_set set;
	struct kb_err err;
	int failed = rows ? 0 : kb_fail(&err, "out of memory");
	int from_file = page_set_data_is_file(step->set.data);

	/* --data read as run_cli_measure reads it: while a FIFO's open or
	 * read waits, a signal ends the process (a stop request there went
	 * unseen, and the open waited for good, or failed as an input error);
	 * a stop asked for before abandons the self-check. */
	if (!failed && !(from_file && interrupt_wait_begin())) {
		int built = page_set_build(&step->set, &set, &err) == 0;
		if (from_file)
			interrupt_wait_end();
		failed = !built;
		for (unsigned i = 0; i < n && !failed && !bench_stop_requested(); i++)
			failed = selfcheck_run(hashes[i], &set, &step->cfg, &rows[i], &err);
		if (built)
			page_set_release(&set);
	}
	if (failed || bench_stop_requested()) { /* a self-check cut short checks nothing */
		free(rows);
		cmd_output_abort(out);
		if (!failed)
			return cli_error("bench", "interrupted: self-check abandoned"), interrupt_exit_code();
		return cli_fail("bench", &err);
	}
	int missed = !selfcheck_all_passed(rows, n);
	run_cli_warnings("bench", ctx, f, quiet);
	struct report_document doc = { .kind = REPORT_SELFCHECK, .ctx = ctx, .checks = rows, .nchecks = n };
	int rc = cmd_output_close("bench", out, cmd_output_write(out, f, &doc));
	free(rows);
	return rc != KB_EXIT_OK ? rc : missed ? KB_EXIT_FAIL : KB_EXIT_OK;
}

static int run_measure(const struct run_cli_run *run, struct bench_context *ctx, const struct report_format *f,
		       int wide, struct cmd_output *out)
{
	struct bench_results results = { 0 };
	int rc = run_cli_measure(run, &results);

	if (rc != 0) {
		bench_results_free(&results);
		cmd_output_abort(out);
		return rc;
	}
	run_cli_finish("bench", ctx, &results, f, run->quiet);
	struct report_document doc = { .kind = REPORT_BENCH, .ctx = ctx, .results = results.items,
				       .nresults = results.n, .wide = wide };
	rc = run_cli_exit_code(cmd_output_close("bench", out, cmd_output_write(out, f, &doc)));
	bench_results_free(&results);
	return rc;
}

/* After the plan is made: pinned, the context, the output, the ceiling,
 * the measurement or the self-check. */
static int measure(const struct bench_opts *o, struct run_cli_run *run, const struct report_format *f)
{
	struct bench_context *ctx;
	struct cmd_output out;
	const char *rule;
	int rc;

	interrupt_install(INTERRUPT_STOP);
	if ((rc = run_cli_cpu("bench", o->cpu, 0, &run->cpu, &rule)) != 0)
		return rc;
	if (!(ctx = run_cli_context("bench", run->cpu, rule, run->plan.hashes, run->plan.nhashes,
				    o->base.cfg.timer == BENCH_TIMER_RDTSC || o->selfcheck ? CONTEXT_COUNTER_REPORTED
											   : CONTEXT_COUNTER_CALIBRATED)))
		return KB_EXIT_USAGE;
	bench_context_note_plan(ctx, &run->plan);
	/* The outputs first: a path that cannot be written is said at once. */
	if ((rc = cmd_output_open("bench", o->output, 0644, &out)) == 0 &&
	    (rc = cmd_output_exports("bench", &out, &o->exports, REPORT_BENCH, o->output)) == 0) {
		if (!o->no_ceiling && !o->selfcheck)
			run_cli_ceiling("bench", ctx, o->quiet);
		rc = o->selfcheck ? run_selfcheck(&run->plan.steps[0], run->plan.hashes, run->plan.nhashes, ctx, f,
						  o->quiet, &out)
				  : run_measure(run, ctx, f, o->wide, &out);
	}
	free(ctx);
	return rc;
}

int cmd_bench(int argc, char **argv)
{
	static struct bench_opts o;
	static struct bench_step steps[STEPS_MAX];
	const struct hash_impl *hashes[MAX_HASHES];
	static struct bench_names names[MAX_HASHES];
	struct cpu_description cpu;
	const struct report_format *f;
	unsigned n = 0;
	int rc;

	cmd_bench_defaults(&o);
	if ((rc = cmd_bench_parse(argc, argv, &o)) != 0)
		return rc < 0 ? KB_EXIT_OK : rc;
	/* The exports name bench's formats; the self-check is one report, in --format. */
	if (o.selfcheck && cmd_exports_given(&o.exports))
		return cli_error("bench", "--selfcheck writes one report (--format, -o): no --export-json, --export-csv "
				 "or --export-markdown");
	if ((rc = run_cli_format("bench", o.format_name, o.selfcheck ? REPORT_SELFCHECK : REPORT_BENCH, &f)) != 0)
		return rc;
	if ((rc = cmd_bench_choose_hashes(&o, hashes, names, &n)) != 0)
		return rc;
	cpu_describe(&cpu);
	struct run_cli_run run = { .cmd = "bench", .argc = argc, .argv = argv, .quiet = o.quiet,
				   .plan = { .steps = steps, .nsteps = cmd_bench_build_steps(&o, cpu_llc_bytes(&cpu), steps),
					     .hashes = hashes, .nhashes = n, .names = o.selfcheck ? NULL : names,
					     .processes = o.selfcheck ? 1 : o.processes, .seed = o.base.set.seed } };
	if ((rc = run_cli_serve(&run)) >= 0)
		return rc;
	return measure(&o, &run, f);
}
