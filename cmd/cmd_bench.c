/* ksmbench bench: measures the chosen hashes over one page set with one
 * timer and reports the results in the chosen format. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../bench/bench.h"
#include "../bench/context.h"
#include "../bench/selfcheck.h"
#include "../common/duration_parse.h"
#include "../common/size_parse.h"
#include "../report/results.h"
#include "bench_cli.h"
#include "cli.h"
#include "interrupt.h"
#include "term.h"

#define MAX_HASHES 64

static void usage(void)
{
	printf("usage: ksmbench bench [-H NAME[,NAME...]|all] [--data zero|random|FILE] [--cache hot|cold]\n"
	       "                      [--timer window|jiffies|rdtsc] [--page-size N]\n"
	       "                      [--format table|kernel|csv|json|gha|markdown] [-o FILE] [--quiet] [options]\n\n"
	       "Measures page hashes: warm-up, then --repeat rounds; reports best, median, min,\n"
	       "max and coefficient of variation of the time per page.\n\n"
	       "  -H, --hash LIST       hashes to measure (default all available)\n"
	       "  --data SRC            zero (the zero page), random (default), or a FILE's pages\n"
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
	       "  --cpu N               pin to CPU N (default: the CPU it starts on)\n"
	       "  --format FMT          table (default), kernel, csv, json, gha (github-action-benchmark)\n"
	       "                        or markdown\n"
	       "  -o, --output FILE     write the report to FILE (atomically)\n"
	       "  -q, --quiet           no progress line and no warnings on stderr\n"
	       "  --selfcheck           compare the harness with a minimal loop, and rdtsc with\n"
	       "                        window, per hash on a hot page; exit 1 if a target is missed\n\n"
	       "Ctrl-C (or SIGTERM) stops early: what was measured is reported, marked interrupted,\n"
	       "and the exit status is 130 (143).\n");
}

struct bench_opts {
	const char *hashes, *format_name, *output, *timer_name;
	struct bench_set_request set;
	struct bench_config cfg;
	int warmup_given, cpu, selfcheck, quiet;
};

static int parse(int argc, char **argv, struct bench_opts *o)
{
	enum { O_DATA = 256, O_SEED, O_PAGE, O_CACHE, O_WS, O_MIS, O_TIMER, O_WIN, O_WARM, O_REP, O_HZ, O_ALIGN,
	       O_CPU, O_FMT, O_SELF };
	static const struct option opts[] = {
		{ "hash", required_argument, NULL, 'H' },      { "data", required_argument, NULL, O_DATA },
		{ "seed", required_argument, NULL, O_SEED },   { "page-size", required_argument, NULL, O_PAGE },
		{ "cache", required_argument, NULL, O_CACHE }, { "working-set", required_argument, NULL, O_WS },
		{ "misalign", required_argument, NULL, O_MIS }, { "timer", required_argument, NULL, O_TIMER },
		{ "window", required_argument, NULL, O_WIN },  { "warmup", required_argument, NULL, O_WARM },
		{ "repeat", required_argument, NULL, O_REP },  { "hz", required_argument, NULL, O_HZ },
		{ "align-tick", no_argument, NULL, O_ALIGN },  { "cpu", required_argument, NULL, O_CPU },
		{ "format", required_argument, NULL, O_FMT },  { "output", required_argument, NULL, 'o' },
		{ "selfcheck", no_argument, NULL, O_SELF },    { "help", no_argument, NULL, 'h' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct kb_err err;
	uint64_t v;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "H:o:hq", opts, NULL)) != -1) {
		switch (c) {
		case 'H': o->hashes = optarg; break;
		case O_DATA: o->set.data = optarg; break;
		case O_SEED:
			if (kb_parse_uint(optarg, UINT64_MAX, &o->set.seed, &err))
				return cli_error("bench", "--seed: %s", err.msg);
			break;
		case O_PAGE:
			if (kb_parse_page_size(optarg, &o->set.page_size, &err))
				return cli_fail("bench", &err);
			break;
		case O_CACHE:
			if (strcmp(optarg, "hot") != 0 && strcmp(optarg, "cold") != 0)
				return cli_error("bench", "unknown cache mode '%s' (hot or cold)", optarg);
			o->set.cold = strcmp(optarg, "cold") == 0;
			break;
		case O_WS:
			if (bench_cli_parse_working_set("bench", optarg, &o->set.working_set_bytes))
				return KB_EXIT_USAGE;
			break;
		case O_MIS:
			if (kb_parse_uint(optarg, KB_PAGE_SIZE_MAX, &v, &err))
				return cli_error("bench", "--misalign: %s", err.msg);
			o->set.misalign = (uint32_t)v;
			break;
		case O_TIMER: o->timer_name = optarg; break;
		case O_WIN:
			if (kb_parse_duration_ns(optarg, 100000u, 60000000000u, &o->cfg.window_ns, &err))
				return cli_error("bench", "--window: %s", err.msg);
			break;
		case O_WARM:
			if (kb_parse_duration_ns(optarg, 0, 60000000000u, &o->cfg.warmup_ns, &err))
				return cli_error("bench", "--warmup: %s", err.msg);
			o->warmup_given = 1;
			break;
		case O_REP:
			if (bench_cli_parse_repeat("bench", optarg, &o->cfg.repeat))
				return KB_EXIT_USAGE;
			break;
		case O_HZ:
			if (bench_cli_parse_hz("bench", optarg, &o->cfg.hz))
				return KB_EXIT_USAGE;
			break;
		case O_ALIGN: o->cfg.align_tick = 1; break;
		case O_CPU:
			if (bench_cli_parse_cpu("bench", optarg, &o->cpu))
				return KB_EXIT_USAGE;
			break;
		case O_FMT: o->format_name = optarg; break;
		case 'o': o->output = optarg; break;
		case O_SELF: o->selfcheck = 1; break;
		case 'q': o->quiet = 1; break;
		case 'h': usage(); return -1;
		default: return cli_bad_option("bench", argv, optopt);
		}
	}
	if (optind < argc)
		return cli_error("bench", "unexpected argument '%s'", argv[optind]);
	if (bench_timer_parse(o->timer_name, &o->cfg.timer, &err))
		return cli_fail("bench", &err);
	if (!o->warmup_given)
		o->cfg.warmup_ns = o->cfg.window_ns / 4;
	if (o->set.misalign >= o->set.page_size)
		return cli_error("bench", "--misalign %u must be smaller than the page size %u", o->set.misalign,
				 o->set.page_size);
	return 0;
}

static int write_report(FILE *out, enum report_format f, const struct bench_context *ctx,
			const struct bench_result *r, size_t n)
{
	switch (f) {
	case REPORT_TABLE: return report_table(out, ctx, r, n);
	case REPORT_KERNEL: return report_kernel(out, r, n);
	case REPORT_CSV: return report_csv(out, r, n);
	case REPORT_JSON: return report_json_print(out, report_json_document(ctx, r, n));
	case REPORT_GHA: return report_gha(out, ctx, r, n);
	case REPORT_MARKDOWN: return report_markdown(out, ctx, r, n);
	}
	return -1;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_opts o = { .hashes = "all", .format_name = "table", .timer_name = "window", .cpu = -1 };
	const struct hash_impl *hashes[MAX_HASHES];
	struct bench_result results[MAX_HASHES];
	struct bench_context ctx;
	struct bench_output out;
	enum report_format format;
	struct page_set set;
	struct kb_err err;
	int pinned, rc;

	o.set.data = "random";
	o.set.page_size = 4096;
	o.set.seed = 1;
	bench_config_default(&o.cfg);
	rc = parse(argc, argv, &o);
	if (rc)
		return rc < 0 ? KB_EXIT_OK : rc;
	if (report_format_parse(o.format_name, &format, &err))
		return cli_fail("bench", &err);
	if (o.selfcheck && format != REPORT_TABLE)
		return cli_error("bench", "--selfcheck prints a table only");
	int n = hash_select_list(o.hashes, hashes, MAX_HASHES, &err);
	if (n < 0)
		return cli_fail("bench", &err);
	for (int i = 0; i < n; i++)
		if (hash_check_len(hashes[i], o.set.page_size, &err))
			return cli_fail("bench", &err);
	interrupt_install();
	if ((rc = bench_cli_pin("bench", o.cpu, &pinned)) != 0)
		return rc;
	bench_context_gather(&ctx, pinned, hashes, (unsigned)n, o.cfg.timer == BENCH_TIMER_RDTSC || o.selfcheck);
	o.set.llc_bytes = cpu_llc_bytes(&ctx.cpu);
	if (o.selfcheck)
		o.set.cold = 0;
	if ((rc = bench_cli_build_set("bench", &o.set, &set)) != 0)
		return rc;
	if ((rc = bench_cli_output_open("bench", o.output, &out)) != 0) {
		page_set_release(&set);
		return rc;
	}
	if (o.selfcheck) {
		struct selfcheck_row rows[MAX_HASHES];
		int failed = 0;
		for (int i = 0; i < n && !failed && !bench_stop_requested(); i++)
			failed = selfcheck_run(hashes[i], &set, &o.cfg, &rows[i], &err);
		page_set_release(&set);
		if (bench_stop_requested()) { /* a self-check cut short checks nothing */
			bench_cli_output_abort(&out);
			cli_error("bench", "interrupted: self-check abandoned");
			return interrupt_exit_code();
		}
		if (failed) {
			bench_cli_output_abort(&out);
			return cli_fail("bench", &err);
		}
		int missed = 0;
		for (int i = 0; i < n; i++)
			missed |= !rows[i].harness_ok || (rows[i].compute_bound && !rows[i].rdtsc_ok);
		rc = bench_cli_output_close("bench", &out, report_selfcheck(out.fp, &ctx, rows, (size_t)n));
		return rc != KB_EXIT_OK ? rc : missed ? KB_EXIT_FAIL : KB_EXIT_OK;
	}
	struct progress progress;
	unsigned measured = 0;
	progress_init(&progress, "bench", o.quiet);
	rc = bench_cli_measure("bench", hashes, (unsigned)n, &set, &o.cfg, &progress, results, &measured);
	page_set_release(&set);
	if (rc != 0) {
		bench_cli_output_abort(&out);
		return rc;
	}
	bench_cli_note_interruption("bench", &ctx, (unsigned)n, measured);
	if ((format == REPORT_KERNEL || format == REPORT_CSV) && !o.quiet)
		bench_cli_warnings_to_stderr("bench", &ctx);
	return bench_cli_exit_code(
		bench_cli_output_close("bench", &out, write_report(out.fp, format, &ctx, results, measured)));
}
