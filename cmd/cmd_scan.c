/* ksmbench scan: what KSM would merge in a set of dumps, and what
 * checksumming that memory costs (scan/scan.h does the work). */
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../bench/clock.h"
#include "../bench/context.h"
#include "../common/duration_parse.h"
#include "../common/size_parse.h"
#include "../report/scan_report.h"
#include "bench_cli.h"
#include "cli.h"

static void usage(void)
{
	printf("usage: ksmbench scan [-H NAME[,NAME...]] [--pages-to-scan N] [--sleep-ms N] [--top N]\n"
	       "                     [--format table|json|csv] [-o FILE] [options] DUMP...\n\n"
	       "Reads every DUMP (any format sum --per-page reads; several dumps = several VMs\n"
	       "on one host) and reports zero, duplicate and unique pages decided by full\n"
	       "content, what KSM would leave in pages_shared and pages_sharing with and without\n"
	       "use_zero_pages, per hash the 32-bit checksum collisions against an ideal hash,\n"
	       "the zero_checksum, the cost per page on the dumps' own pages visited cold, and\n"
	       "ksmd's checksumming share of a CPU.\n\n"
	       "  -H, --hash LIST        checksums to examine (default xxhash, KSM's)\n"
	       "  --pages-to-scan N      ksmd's pages per batch (default 100)\n"
	       "  --sleep-ms N           ksmd's sleep between batches in ms (default 20)\n"
	       "  --max-page-sharing N   mappings per KSM page (default 256; 0: no limit)\n"
	       "  --top N                list the N most duplicated contents (at most 1000)\n"
	       "  --page-size N          page size (default 4K)\n"
	       "  --input-format F       %s (default auto)\n"
	       "  --lime-ranges R        ranges of a lime-raw or lime-padded dump\n"
	       "  --sample-pages N       pages sampled for the cost (default 1024; 0: no cost)\n"
	       "  --working-set SIZE     cold set the sample is laid out in (default 4x LLC, >= 64M)\n"
	       "  --repeat N             timing rounds per hash (default 3)\n"
	       "  --window TIME          length of a timing round (default 50ms)\n"
	       "  --seed N               sample and visiting order seed (default 1)\n"
	       "  --cpu N                pin to CPU N\n"
	       "  --format FMT           table (default), json or csv\n"
	       "  -o, --output FILE      write the report to FILE (atomically)\n",
	       dump_format_names);
}

struct progress {
	uint64_t start_ns, last_ns;
	int shown;
};

static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct progress *p = ctx;
	uint64_t now = clock_now_ns();

	/* Only for runs longer than a second, at most four times a second. */
	if (now - p->start_ns < 1000000000u || now - p->last_ns < 250000000u)
		return;
	p->last_ns = now;
	p->shown = 1;
	double gb_per_s = (double)done / (double)(now - p->start_ns);
	if (total)
		fprintf(stderr, "\rscan: %.2f of %.2f GiB (%.0f%%), %.2f GB/s   ", done / 1073741824.0,
			total / 1073741824.0, total ? 100.0 * (double)done / (double)total : 0, gb_per_s);
	else
		fprintf(stderr, "\rscan: %.2f GiB, %.2f GB/s   ", done / 1073741824.0, gb_per_s);
	fflush(stderr);
}

static int parse_uint_opt(const char *what, const char *text, uint64_t max, uint64_t *out)
{
	struct kb_err err;

	if (kb_parse_uint(text, max, out, &err))
		return cli_error("scan", "%s: %s", what, err.msg);
	return 0;
}

int cmd_scan(int argc, char **argv)
{
	enum { O_PTS = 256, O_SLEEP, O_MPS, O_TOP, O_PAGE, O_IFMT, O_LIME, O_SAMPLE, O_WS, O_REP, O_WIN,
	       O_SEED, O_CPU, O_FMT };
	static const struct option opts[] = {
		{ "hash", required_argument, NULL, 'H' },
		{ "pages-to-scan", required_argument, NULL, O_PTS },
		{ "sleep-ms", required_argument, NULL, O_SLEEP },
		{ "max-page-sharing", required_argument, NULL, O_MPS },
		{ "top", required_argument, NULL, O_TOP },
		{ "page-size", required_argument, NULL, O_PAGE },
		{ "input-format", required_argument, NULL, O_IFMT },
		{ "lime-ranges", required_argument, NULL, O_LIME },
		{ "sample-pages", required_argument, NULL, O_SAMPLE },
		{ "working-set", required_argument, NULL, O_WS },
		{ "repeat", required_argument, NULL, O_REP },
		{ "window", required_argument, NULL, O_WIN },
		{ "seed", required_argument, NULL, O_SEED },
		{ "cpu", required_argument, NULL, O_CPU },
		{ "format", required_argument, NULL, O_FMT },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct scan_options o = { .page_size = 4096, .pages_to_scan = SCAN_PAGES_TO_SCAN_DEFAULT,
				  .sleep_ms = SCAN_SLEEP_MS_DEFAULT, .max_page_sharing = SCAN_MAX_PAGE_SHARING_DEFAULT,
				  .sample_pages = SCAN_SAMPLE_PAGES_DEFAULT, .seed = 1 };
	const char *hashes = "xxhash", *format = "table", *output = NULL;
	struct progress prog = { 0 };
	struct scan_result r;
	struct kb_err err;
	uint64_t v;
	int c, cpu = -1, pinned;

	bench_config_default(&o.bench);
	o.bench.timer = BENCH_TIMER_RDTSC;
	o.bench.repeat = 3;
	o.bench.window_ns = 50000000u;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "H:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'H': hashes = optarg; break;
		case O_PTS:
			if (parse_uint_opt("--pages-to-scan", optarg, UINT32_MAX, &v))
				return KB_EXIT_USAGE;
			if (v == 0)
				return cli_error("scan", "--pages-to-scan must be at least 1");
			o.pages_to_scan = (unsigned)v;
			break;
		case O_SLEEP:
			if (parse_uint_opt("--sleep-ms", optarg, UINT32_MAX, &v))
				return KB_EXIT_USAGE;
			o.sleep_ms = (unsigned)v;
			break;
		case O_MPS:
			if (parse_uint_opt("--max-page-sharing", optarg, UINT32_MAX, &v))
				return KB_EXIT_USAGE;
			if (v == 1)
				return cli_error("scan", "--max-page-sharing must be 0 (no limit) or at least 2");
			o.max_page_sharing = (unsigned)v;
			break;
		case O_TOP:
			if (parse_uint_opt("--top", optarg, SCAN_TOP_MAX, &v))
				return KB_EXIT_USAGE;
			o.top = (unsigned)v;
			break;
		case O_PAGE:
			if (kb_parse_page_size(optarg, &o.page_size, &err))
				return cli_fail("scan", &err);
			break;
		case O_IFMT:
			if (dump_format_check(optarg, &err))
				return cli_fail("scan", &err);
			o.dump.format = optarg;
			break;
		case O_LIME: o.dump.lime_ranges = optarg; break;
		case O_SAMPLE:
			if (parse_uint_opt("--sample-pages", optarg, 1u << 20, &v))
				return KB_EXIT_USAGE;
			o.sample_pages = (size_t)v;
			break;
		case O_WS:
			if (bench_cli_parse_working_set("scan", optarg, &o.working_set_bytes))
				return KB_EXIT_USAGE;
			break;
		case O_REP:
			if (bench_cli_parse_repeat("scan", optarg, &o.bench.repeat))
				return KB_EXIT_USAGE;
			break;
		case O_WIN:
			if (kb_parse_duration_ns(optarg, 100000u, 60000000000u, &o.bench.window_ns, &err))
				return cli_error("scan", "--window: %s", err.msg);
			break;
		case O_SEED:
			if (parse_uint_opt("--seed", optarg, UINT64_MAX, &o.seed))
				return KB_EXIT_USAGE;
			break;
		case O_CPU:
			if (bench_cli_parse_cpu("scan", optarg, &cpu))
				return KB_EXIT_USAGE;
			break;
		case O_FMT: format = optarg; break;
		case 'o': output = optarg; break;
		case 'h': usage(); return KB_EXIT_OK;
		default: return cli_bad_option("scan", argv, optopt);
		}
	}
	if (strcmp(format, "table") != 0 && strcmp(format, "json") != 0 && strcmp(format, "csv") != 0)
		return cli_error("scan", "unknown format '%s' (table, json or csv)", format);
	if (optind == argc)
		return cli_error("scan", "no dump given (see ksmbench scan --help)");
	int n = hash_select_list(hashes, o.hashes, CENSUS_SUMS_MAX, &err);
	if (n < 0)
		return cli_fail("scan", &err);
	o.nhashes = (unsigned)n;
	for (int i = 0; i < n; i++)
		if (hash_check_len(o.hashes[i], o.page_size, &err))
			return cli_fail("scan", &err);
	o.paths = argv + optind;
	o.npaths = (size_t)(argc - optind);
	o.bench.warmup_ns = o.bench.window_ns / 4;

	/* The CPU is checked and chosen now, but the process is pinned only
	 * for the timing: the pass over the dumps reads ahead on a second
	 * thread, which must be free to run on another CPU. */
	cpu_set_t all;
	if (sched_getaffinity(0, sizeof(all), &all) != 0)
		CPU_ZERO(&all);
	int rc = bench_cli_pin("scan", cpu, &pinned);
	if (rc)
		return rc;
	if (CPU_COUNT(&all))
		sched_setaffinity(0, sizeof(all), &all);
	o.pin_cpu = pinned;
	struct bench_context ctx;
	bench_context_gather(&ctx, pinned, o.hashes, o.nhashes, o.sample_pages > 0);
	o.llc_bytes = cpu_llc_bytes(&ctx.cpu);
	if (isatty(STDERR_FILENO)) {
		prog.start_ns = clock_now_ns();
		o.progress = show_progress;
		o.progress_ctx = &prog;
	}
	struct bench_output out;
	if ((rc = bench_cli_output_open("scan", output, &out)) != 0)
		return rc;
	rc = scan_run(&o, &r, &err);
	if (prog.shown)
		fprintf(stderr, "\r%60s\r", "");
	if (rc) {
		if (out.to_file)
			atomic_file_abort(&out.af);
		return cli_fail("scan", &err);
	}
	int wrc;
	if (strcmp(format, "json") == 0)
		wrc = report_json_print(out.fp, scan_report_json(&ctx, &r));
	else if (strcmp(format, "csv") == 0)
		wrc = scan_report_csv(out.fp, &r);
	else
		wrc = scan_report_table(out.fp, &r);
	scan_result_free(&r);
	return bench_cli_output_close("scan", &out, wrc);
}
