/* ksmbench bench: measures the chosen hashes over one page set with one
 * timer and reports the results in the chosen format. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/selfcheck.h"
#include "../common/duration_parse.h"
#include "../common/size_parse.h"
#include "cli.h"
#include "interrupt.h"
#include "output.h"
#include "run_cli.h"

#define MAX_HASHES 64

static void usage(void)
{
	printf("usage: ksmbench bench [-H NAME[,NAME...]|all] [--data zero|random|FILE] [--cache hot|cold]\n"
	       "                      [--timer window|jiffies|rdtsc] [--page-size N]\n"
	       "                      [--format %s] [-o FILE] [--quiet] [options]\n\n"
	       "Measures page hashes: warm-up, then --repeat rounds; reports best, median, min,\n"
	       "max and coefficient of variation of the time per page.\n\n"
	       "  -H, --hash LIST       hashes to measure (default all available); 'xxh3-*' is a glob\n"
	       "  --data SRC            zero (the zero page), random (default), or a FILE's pages\n"
	       "  --input-format F      the FILE's format: %s (default auto)\n"
	       "  --lime-ranges R       ranges of a lime-raw or lime-padded FILE\n"
	       "  --seed N              seed of the random pages and of the cold visiting order (default 1)\n"
	       "  --page-size N         page size (default 4K; a multiple of 64 up to 16M)\n"
	       "  --cache hot|cold      hot: one page (a file: its first 256 KiB) reused (default);\n"
	       "                        cold: a working set of 4x the last-level cache, random order\n"
	       "  --working-set SIZE    size of the cold working set instead (e.g. 256M)\n"
	       "  --misalign N          start every page N bytes past a 64-byte boundary\n"
	       "  --timer NAME          window (default): calls counted in a CLOCK_MONOTONIC window;\n"
	       "                        jiffies: the kernel self-test's HZ>>3 jiffies and its MB/s;\n"
	       "                        rdtsc: every call timed with serialized TSC reads\n"
	       "  --window TIME         window length, and rdtsc round length (default 125ms)\n"
	       "  --warmup TIME         untimed calls first (default a quarter of the window)\n"
	       "  --repeat N            rounds (default 5)\n"
	       "  --hz N                jiffies: the emulated CONFIG_HZ (default 250)\n"
	       "  --align-tick          jiffies: start on a tick edge (the patch did not)\n"
	       "  --cpu N               pin to CPU N (default: the highest-numbered CPU allowed)\n"
	       "  --format FMT          %s (default table;\n"
	       "                        gha: github-action-benchmark's array)\n"
	       "  -o, --output FILE     write the report to FILE (atomically)\n"
	       "  --export-json FILE    also write the results as JSON to FILE (- is stdout)\n"
	       "  --export-csv FILE     ... as CSV\n"
	       "  --export-markdown FILE ... as Markdown\n"
	       "  -q, --quiet           no progress line and no warnings on stderr\n"
	       "  --no-ceiling          do not measure this CPU's limits first (about 0.3 s): no\n"
	       "                        ceiling and %% of ceiling in the results\n"
	       "  --selfcheck           compare the harness with a minimal loop, and rdtsc with\n"
	       "                        window, per hash on a hot page; exit 1 if a target is missed\n\n"
	       "Ctrl-C (or SIGTERM) stops early: what was measured is reported, marked interrupted,\n"
	       "and the exit status is 130 (143).\n",
	       run_cli_formats(REPORT_BENCH), dump_format_names(), run_cli_format_list(REPORT_BENCH));
}

struct bench_opts {
	const char *hashes, *format_name, *output, *timer_name;
	struct bench_step step;
	struct cmd_exports exports;
	int warmup_given, cpu, selfcheck, quiet, no_ceiling;
};

enum { O_DATA = 256, O_SEED, O_PAGE, O_CACHE, O_WS, O_MIS, O_IFMT, O_LIME, O_TIMER, O_WIN, O_WARM, O_REP, O_HZ,
       O_ALIGN, O_CPU, O_FMT, O_SELF, O_NOCEIL };

static const struct option options[] = {
	{ "hash", required_argument, NULL, 'H' },      { "data", required_argument, NULL, O_DATA },
	{ "seed", required_argument, NULL, O_SEED },   { "page-size", required_argument, NULL, O_PAGE },
	{ "cache", required_argument, NULL, O_CACHE }, { "working-set", required_argument, NULL, O_WS },
	{ "misalign", required_argument, NULL, O_MIS }, { "input-format", required_argument, NULL, O_IFMT },
	{ "lime-ranges", required_argument, NULL, O_LIME }, { "timer", required_argument, NULL, O_TIMER },
	{ "window", required_argument, NULL, O_WIN },  { "warmup", required_argument, NULL, O_WARM },
	{ "repeat", required_argument, NULL, O_REP },  { "hz", required_argument, NULL, O_HZ },
	{ "align-tick", no_argument, NULL, O_ALIGN },  { "cpu", required_argument, NULL, O_CPU },
	{ "format", required_argument, NULL, O_FMT },  { "output", required_argument, NULL, 'o' },
	{ "selfcheck", no_argument, NULL, O_SELF },    { "help", no_argument, NULL, 'h' },
	{ "quiet", no_argument, NULL, 'q' },           { "no-ceiling", no_argument, NULL, O_NOCEIL },
	CMD_EXPORT_OPTIONS,                            { NULL, 0, NULL, 0 },
};

/* What is hashed: 0, an exit code, or -1 when c is not such an option. */
static int parse_set(int c, const char *arg, struct page_set_request *set)
{
	struct kb_err err;
	uint64_t v;

	switch (c) {
	case O_DATA: set->data = arg; return 0;
	case O_SEED:
		if (kb_parse_uint(arg, UINT64_MAX, &set->seed, &err))
			return cli_error("bench", "--seed: %s", err.msg);
		return 0;
	case O_PAGE: return kb_parse_page_size(arg, &set->page_size, &err) ? cli_fail("bench", &err) : 0;
	case O_CACHE:
		if (strcmp(arg, "hot") != 0 && strcmp(arg, "cold") != 0)
			return cli_error("bench", "unknown cache mode '%s' (hot or cold)", arg);
		set->cold = strcmp(arg, "cold") == 0;
		return 0;
	case O_WS: return run_cli_parse_working_set("bench", arg, &set->working_set_bytes);
	case O_MIS:
		if (kb_parse_uint(arg, KB_PAGE_SIZE_MAX, &v, &err))
			return cli_error("bench", "--misalign: %s", err.msg);
		set->misalign = (uint32_t)v;
		return 0;
	case O_IFMT:
		set->dump.format = arg;
		return dump_format_check(arg, &err) ? cli_fail("bench", &err) : 0;
	case O_LIME: set->dump.lime.ranges = arg; return 0;
	default: return -1;
	}
}

/* How it is timed: 0, an exit code, or -1 when c is not such an option. */
static int parse_timing(int c, const char *arg, struct bench_opts *o)
{
	struct bench_config *cfg = &o->step.cfg;
	struct kb_err err;

	switch (c) {
	case O_TIMER: o->timer_name = arg; return 0;
	case O_WIN: return run_cli_parse_window("bench", arg, &cfg->window_ns);
	case O_WARM:
		o->warmup_given = 1;
		if (kb_parse_duration_ns(arg, 0, 60000000000u, &cfg->warmup_ns, &err))
			return cli_error("bench", "--warmup: %s", err.msg);
		return 0;
	case O_REP: return run_cli_parse_repeat("bench", arg, &cfg->repeat);
	case O_HZ: return run_cli_parse_hz("bench", arg, &cfg->hz);
	case O_ALIGN: cfg->align_tick = 1; return 0;
	case O_CPU: return run_cli_parse_cpu("bench", arg, &o->cpu);
	default: return -1;
	}
}

/* 0, an exit code, or -1 after --help. */
static int parse(int argc, char **argv, struct bench_opts *o)
{
	struct kb_err err;
	int c, rc;

	opterr = 0;
	optind = 1;
	while ((c = cli_getopt_long(argc, argv, "H:o:hq", options, NULL)) != -1) {
		if ((rc = parse_set(c, optarg, &o->step.set)) >= 0 || (rc = parse_timing(c, optarg, o)) >= 0) {
			if (rc)
				return rc;
			continue;
		}
		if (cmd_exports_option(c, optarg, &o->exports))
			continue;
		switch (c) {
		case 'H': o->hashes = optarg; break;
		case O_FMT: o->format_name = optarg; break;
		case 'o': o->output = optarg; break;
		case O_SELF: o->selfcheck = 1; break;
		case O_NOCEIL: o->no_ceiling = 1; break;
		case 'q': o->quiet = 1; break;
		case 'h': usage(); return -1;
		default: return cli_bad_option("bench", argv, optopt);
		}
	}
	if (optind < argc)
		return cli_error("bench", "unexpected argument '%s'", argv[optind]);
	if (bench_timer_parse(o->timer_name, &o->step.cfg.timer, &err))
		return cli_fail("bench", &err);
	if (!o->warmup_given)
		o->step.cfg.warmup_ns = o->step.cfg.window_ns / 4;
	const struct page_set_request *set = &o->step.set;
	if ((set->dump.format || set->dump.lime.ranges) &&
	    (strcmp(set->data, "zero") == 0 || strcmp(set->data, "random") == 0))
		return cli_error("bench", "--input-format and --lime-ranges are for --data FILE");
	if (o->step.set.misalign >= o->step.set.page_size)
		return cli_error("bench", "--misalign %u must be smaller than the page size %u", o->step.set.misalign,
				 o->step.set.page_size);
	return 0;
}

/* --selfcheck: the table of comparisons; exit 1 when a target is missed. */
static int run_selfcheck(const struct bench_opts *o, const struct hash_impl *const *hashes, unsigned n,
			 struct bench_context *ctx, const struct report_format *f, struct cmd_output *out)
{
	struct selfcheck_row *rows = calloc(n ? n : 1, sizeof(*rows));
	struct page_set set;
	struct kb_err err;
	int failed = rows ? 0 : kb_fail(&err, "out of memory"), missed = 0;

	if (!failed && !(failed = page_set_build(&o->step.set, &set, &err))) {
		for (unsigned i = 0; i < n && !failed && !bench_stop_requested(); i++)
			failed = selfcheck_run(hashes[i], &set, &o->step.cfg, &rows[i], &err);
		page_set_release(&set);
	}
	if (failed || bench_stop_requested()) { /* a self-check cut short checks nothing */
		free(rows);
		cmd_output_abort(out);
		if (!failed)
			return cli_error("bench", "interrupted: self-check abandoned"), interrupt_exit_code();
		return cli_fail("bench", &err);
	}
	for (unsigned i = 0; i < n; i++)
		missed |= !rows[i].harness_ok || (rows[i].compute_bound && !rows[i].rdtsc_ok);
	struct report_document doc = { .kind = REPORT_SELFCHECK, .ctx = ctx, .checks = rows, .nchecks = n };
	int rc = cmd_output_close("bench", out, cmd_output_write(out, f, &doc));
	free(rows);
	return rc != KB_EXIT_OK ? rc : missed ? KB_EXIT_FAIL : KB_EXIT_OK;
}

static int run_measure(const struct bench_opts *o, const struct hash_impl *const *hashes, unsigned n,
		       struct bench_context *ctx, const struct report_format *f, struct cmd_output *out)
{
	struct bench_results results = { 0 };
	int rc = run_cli_measure("bench", &o->step, 1, hashes, n, o->quiet, &results);

	if (rc != 0) {
		bench_results_free(&results);
		cmd_output_abort(out);
		return rc;
	}
	run_cli_finish("bench", ctx, &results, f, o->quiet);
	struct report_document doc = { .kind = REPORT_BENCH, .ctx = ctx, .results = results.items,
				       .nresults = results.n };
	rc = run_cli_exit_code(cmd_output_close("bench", out, cmd_output_write(out, f, &doc)));
	bench_results_free(&results);
	return rc;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_opts o = { .hashes = "all", .format_name = "table", .timer_name = "window", .cpu = -1,
				.step.set = { .data = "random", .page_size = 4096, .seed = 1 } };
	const struct hash_impl *hashes[MAX_HASHES];
	const struct report_format *f;
	struct bench_context *ctx;
	struct cmd_output out;
	struct kb_err err;
	const char *rule;
	int rc, cpu;

	bench_config_default(&o.step.cfg);
	if ((rc = parse(argc, argv, &o)) != 0)
		return rc < 0 ? KB_EXIT_OK : rc;
	if (o.selfcheck && (strcmp(o.format_name, "table") != 0 || o.exports.path[0] || o.exports.path[1] ||
			    o.exports.path[2]))
		return cli_error("bench", "--selfcheck prints a table only");
	if ((rc = run_cli_format("bench", o.format_name, o.selfcheck ? REPORT_SELFCHECK : REPORT_BENCH, &f)) != 0)
		return rc;
	int n = hash_select_list(o.hashes, hashes, MAX_HASHES, &err);
	if (n < 0)
		return cli_fail("bench", &err);
	for (int i = 0; i < n; i++)
		if (hash_check_len(hashes[i], o.step.set.page_size, &err))
			return cli_fail("bench", &err);
	interrupt_install(INTERRUPT_STOP);
	if ((rc = run_cli_cpu("bench", o.cpu, 0, &cpu, &rule)) != 0)
		return rc;
	if (!(ctx = run_cli_context("bench", cpu, rule, hashes, (unsigned)n,
				    o.step.cfg.timer == BENCH_TIMER_RDTSC || o.selfcheck)))
		return KB_EXIT_USAGE;
	if (!o.no_ceiling && !o.selfcheck)
		run_cli_ceiling("bench", ctx, o.quiet);
	o.step.set.llc_bytes = cpu_llc_bytes(&ctx->cpu);
	o.step.set.cold &= !o.selfcheck;
	if ((rc = cmd_output_open("bench", o.output, 0644, &out)) == 0 &&
	    (rc = cmd_output_exports("bench", &out, &o.exports, REPORT_BENCH, o.output)) == 0)
		rc = o.selfcheck ? run_selfcheck(&o, hashes, (unsigned)n, ctx, f, &out)
				 : run_measure(&o, hashes, (unsigned)n, ctx, f, &out);
	free(ctx);
	return rc;
}
