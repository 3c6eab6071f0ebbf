/* ksmbench thread (and plain ksmbench): the linux-mm thread's comparison on
 * this machine, in the two styles the thread measured: the v2 patch's
 * in-kernel self-test, and ns per page as ksmd paid it. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../bench/bench.h"
#include "../bench/context.h"
#include "../common/duration_parse.h"
#include "../common/size_parse.h"
#include "../report/results.h"
#include "../report/thread.h"
#include "bench_cli.h"
#include "cli.h"
#include "interrupt.h"
#include "term.h"

#define THREAD_MAX 16

static void usage(void)
{
	printf("usage: ksmbench thread [--format table|kernel|csv|json|gha|markdown] [-o FILE] [--quiet] [options]\n\n"
	       "The 2017-2018 linux-mm comparison of KSM page checksums, measured here and set\n"
	       "beside the published figures: crc32c (the fastest available), xxh64, xxh32,\n"
	       "jhash2, crc32c-generic, and today's xxh3 and crc32c-isal. Two styles:\n"
	       "  MB/s     the v2 patch's self-test: jiffies timer, zero page, hot\n"
	       "  ns/page  ksmd's cost: rdtsc per call, random pages, cold working set\n"
	       "Each with its speed-up against jhash2 here and in the thread.\n\n"
	       "  --repeat N            rounds per measurement (default 5)\n"
	       "  --window TIME         rdtsc round length (default 125ms)\n"
	       "  --hz N                emulated CONFIG_HZ of the self-test (default 250)\n"
	       "  --working-set SIZE    cold working set (default 4x the last-level cache, 64M..1G)\n"
	       "  --seed N              seed of the random pages and visiting order (default 1)\n"
	       "  --cpu N               pin to CPU N (default: the CPU it starts on)\n"
	       "  --format FMT          table (default), kernel, csv, json, gha or markdown\n"
	       "  -o, --output FILE     write the report to FILE (atomically)\n"
	       "  -q, --quiet           no progress line and no warnings on stderr\n\n"
	       "Ctrl-C (or SIGTERM) stops early: what was measured is reported, marked interrupted,\n"
	       "and the exit status is 130 (143).\n");
}

static int write_report(FILE *out, enum report_format f, const struct bench_context *ctx,
			const struct bench_result *results, unsigned nresults, const struct thread_row *rows,
			unsigned n)
{
	switch (f) {
	case REPORT_TABLE: return thread_report_table(out, ctx, rows, n);
	case REPORT_KERNEL: return thread_report_kernel(out, rows, n);
	case REPORT_CSV: return thread_report_csv(out, rows, n);
	case REPORT_JSON: return report_json_print(out, thread_report_json(ctx, results, nresults, rows, n));
	case REPORT_GHA: return report_gha(out, ctx, results, nresults);
	case REPORT_MARKDOWN: return thread_report_markdown(out, ctx, rows, n);
	}
	return -1;
}

int cmd_thread(int argc, char **argv)
{
	enum { O_REP = 256, O_WIN, O_HZ, O_WS, O_SEED, O_CPU, O_FMT };
	static const struct option opts[] = {
		{ "repeat", required_argument, NULL, O_REP },  { "window", required_argument, NULL, O_WIN },
		{ "hz", required_argument, NULL, O_HZ },       { "working-set", required_argument, NULL, O_WS },
		{ "seed", required_argument, NULL, O_SEED },   { "cpu", required_argument, NULL, O_CPU },
		{ "format", required_argument, NULL, O_FMT },  { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },            { "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench_config kcfg, rcfg;
	struct bench_set_request req = { .data = "zero", .page_size = 4096, .seed = 1 };
	const char *format_name = "table", *output = NULL;
	int cpu = -1, c, rc, pinned, quiet = 0;
	struct kb_err err;

	bench_config_default(&kcfg);
	kcfg.timer = BENCH_TIMER_JIFFIES;
	rcfg = kcfg;
	rcfg.timer = BENCH_TIMER_RDTSC;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:hq", opts, NULL)) != -1) {
		switch (c) {
		case O_REP:
			if (bench_cli_parse_repeat("thread", optarg, &kcfg.repeat))
				return KB_EXIT_USAGE;
			rcfg.repeat = kcfg.repeat;
			break;
		case O_WIN:
			if (kb_parse_duration_ns(optarg, 100000u, 60000000000u, &rcfg.window_ns, &err))
				return cli_error("thread", "--window: %s", err.msg);
			break;
		case O_HZ:
			if (bench_cli_parse_hz("thread", optarg, &kcfg.hz))
				return KB_EXIT_USAGE;
			break;
		case O_WS:
			if (bench_cli_parse_working_set("thread", optarg, &req.working_set_bytes))
				return KB_EXIT_USAGE;
			break;
		case O_SEED:
			if (kb_parse_uint(optarg, UINT64_MAX, &req.seed, &err))
				return cli_error("thread", "--seed: %s", err.msg);
			break;
		case O_CPU:
			if (bench_cli_parse_cpu("thread", optarg, &cpu))
				return KB_EXIT_USAGE;
			break;
		case O_FMT: format_name = optarg; break;
		case 'o': output = optarg; break;
		case 'h': usage(); return KB_EXIT_OK;
		case 'q': quiet = 1; break;
		default: return cli_bad_option("thread", argv, optopt);
		}
	}
	if (optind < argc)
		return cli_error("thread", "unexpected argument '%s'", argv[optind]);
	enum report_format format;
	if (report_format_parse(format_name, &format, &err))
		return cli_fail("thread", &err);
	/* The warm-ups: a quarter of a self-test window, and of an rdtsc round. */
	kcfg.warmup_ns = 31250000u;
	rcfg.warmup_ns = rcfg.window_ns / 4;

	interrupt_install();
	if ((rc = bench_cli_pin("thread", cpu, &pinned)) != 0)
		return rc;
	/* "crc32c" is the alias for the fastest crc32c this CPU runs, as the
	 * thread's crc32c was the kernel's best. A contender this build lacks
	 * (ISA-L is not packaged for every architecture) is left out, with a note. */
	const struct hash_impl *hashes[THREAD_MAX];
	const struct thread_published *published[THREAD_MAX];
	unsigned n = 0;
	for (unsigned i = 0; i < thread_published_count; i++) {
		hashes[n] = hash_select(thread_published[i].hash, &err);
		if (!hashes[n]) {
			fprintf(stderr, "ksmbench thread: note: %s; its row is left out\n", err.msg);
			continue;
		}
		published[n++] = &thread_published[i];
	}
	struct bench_context ctx;
	bench_context_gather(&ctx, pinned, hashes, n, 1);
	req.llc_bytes = cpu_llc_bytes(&ctx.cpu);

	struct bench_output out;
	if ((rc = bench_cli_output_open("thread", output, &out)) != 0)
		return rc;
	struct bench_result results[2 * THREAD_MAX];
	struct page_set set;
	struct progress progress;
	unsigned nk = 0, nr = 0;
	progress_init(&progress, "thread", quiet);
	/* The self-test style: the zero page, hot. */
	rc = bench_cli_build_set("thread", &req, &set);
	if (rc == 0) {
		rc = bench_cli_measure("thread", hashes, n, &set, &kcfg, &progress, results, &nk);
		page_set_release(&set);
	}
	/* The ksmd style: random pages, cold. */
	if (rc == 0 && !bench_stop_requested()) {
		req.data = "random";
		req.cold = 1;
		progress_note(&progress, "building the cold working set");
		rc = bench_cli_build_set("thread", &req, &set);
		progress_clear(&progress);
		if (rc == 0) {
			rc = bench_cli_measure("thread", hashes, n, &set, &rcfg, &progress, results + nk, &nr);
			page_set_release(&set);
		}
	}
	if (rc != 0) {
		bench_cli_output_abort(&out);
		return rc;
	}

	/* After an interruption the rows not measured have no figures. */
	struct thread_row rows[THREAD_MAX];
	for (unsigned i = 0; i < n; i++) {
		rows[i].label = published[i]->hash;
		rows[i].kernel = i < nk ? &results[i] : NULL;
		rows[i].ksm = i < nr ? &results[nk + i] : NULL;
		rows[i].published = published[i];
	}
	bench_cli_note_interruption("thread", &ctx, 2 * n, nk + nr);
	if ((format == REPORT_KERNEL || format == REPORT_CSV) && !quiet)
		bench_cli_warnings_to_stderr("thread", &ctx);
	return bench_cli_exit_code(bench_cli_output_close(
		"thread", &out, write_report(out.fp, format, &ctx, results, nk + nr, rows, n)));
}
