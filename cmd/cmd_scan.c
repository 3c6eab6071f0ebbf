/* ksmbench scan: what KSM would merge in a set of dumps, and what
 * checksumming that memory costs (scan/scan.h does the work). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench/clock.h"
#include "../common/quote.h"
#include "../common/size_parse.h"
#include "../scan/ksm_cost.h"
#include "../scan/scan.h"
#include "cli.h"
#include "output.h"
#include "run_cli.h"

static void usage(void)
{
	printf("usage: ksmbench scan [-H NAME[,NAME...]] [--pages-to-scan N] [--sleep-ms N] [--top N]\n"
	       "                     [--format %s] [-o FILE] [--wide] [options] DUMP...\n\n"
	       "Reads every DUMP (any format sum --per-page reads; several dumps = several VMs\n"
	       "on one host) and reports zero, duplicate and unique pages decided by full\n"
	       "content, sharing within each dump and across dumps, the kernel counters KSM\n"
	       "would show (pages_shared, pages_sharing, pages_unshared, pages_volatile,\n"
	       "ksm_zero_pages, stable_node_chains/dups, general_profit) with and without\n"
	       "use_zero_pages and the memory really saved, per hash the 32-bit checksum\n"
	       "collisions against an ideal hash, the cost per page on the dumps' own pages\n"
	       "visited cold, and ksmd's checksumming share of a CPU. A ksmbench capture's\n"
	       "notes give the kernel release, the KSM settings and, per page, THP, PFN and\n"
	       "volatility (two snapshots of capture).\n\n"
	       "  -H, --hash LIST        checksums to examine (default KSM's: xxhash, or jhash2 with\n"
	       "                         --kernel-release before 5.0, jhash2-lookup2 before\n"
	       "                         2.6.38; xxh32 with --kernel-bits 32); 'xxh*' is a glob\n"
	       "  --pages-to-scan N      ksmd's pages per batch (default: the capture's, else 100)\n"
	       "  --sleep-ms N           ksmd's sleep between batches in ms (default: the capture's, else 20)\n"
	       "  --hz N                 the kernel's CONFIG_HZ, which ksmd's sleep is rounded to (default:\n"
	       "                         the capture's, else 250)\n"
	       "  --max-page-sharing N   mappings per KSM page (default: the capture's, else 256;\n"
	       "                         0: no limit, as before 4.13)\n"
	       "  --smart-scan 0|1       smart_scan's skipping in the cost once merged (default: the\n"
	       "                         capture's, else on from 6.7, when it came)\n"
	       "  --kernel-release R     follow the rules of kernel R (default: the capture's, else\n"
	       "                         the newest; e.g. 6.6 merges THP zero subpages, 6.12+ not)\n"
	       "  --kernel-bits 32|64    the word size of the kernel KSM runs in: xxhash() is xxh32\n"
	       "                         on 32-bit, and its rmap items are smaller (default: the\n"
	       "                         capture's machine, else this machine's kernel)\n"
	       "  --top N                list the N most duplicated contents (at most 1000;\n"
	       "                         table and json)\n"
	       "  --mergeable            leave out a capture's pages outside mappings KSM may merge\n"
	       "                         (MADV_MERGEABLE or prctl; default: every page as if offered)\n"
	       "  --page-size N          page size (default 4K)\n"
	       "  --input-format F       %s (default auto)\n"
	       "  --lime-ranges R        ranges of a lime-raw or lime-padded dump\n"
	       "  --sample-pages N       pages sampled for the cost (default 1024, at most 8 MiB of\n"
	       "                         them; 0: no cost)\n"
	       "  --working-set SIZE     cold set the sample is laid out in (default 4x LLC, 64M..2G)\n"
	       "  --repeat N             timing rounds per hash (default 3)\n"
	       "  --window TIME          length of a timing round (default 50ms)\n"
	       "  --seed N               sample and visiting order seed (default 1)\n"
	       "  --cpu N                pin the timing to CPU N (default: the fastest allowed)\n"
	       "  --format FMT           %s (default table)\n"
	       "  -o, --output FILE      write the report to FILE (atomically)\n"
	       "  --wide                 the table unabridged: whole paths, one hash table, long\n"
	       "                         lines unwrapped (default: fits 100 columns, or COLUMNS\n"
	       "                         on a terminal; a long path loses its middle)\n\n"
	       "Ctrl-C (or SIGTERM) abandons the scan: no report, exit status 130 (143).\n",
	       run_cli_formats(REPORT_SCAN), dump_format_names(), run_cli_format_list(REPORT_SCAN));
}

struct scan_progress {
	uint64_t start_ns, last_ns;
	int shown;
};

static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct scan_progress *p = ctx;
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

struct scan_cli {
	struct scan_options o;
	const char *hashes, *format_name, *output;
	int cpu, wide;
};

enum { O_PTS = 256, O_SLEEP, O_HZ, O_MPS, O_SMART, O_KREL, O_KBITS, O_MERGEABLE, O_TOP, O_PAGE, O_IFMT, O_LIME, O_SAMPLE, O_WS, O_REP,
       O_WIN, O_SEED, O_CPU, O_FMT, O_WIDE };

static const struct option options[] = {
	{ "hash", required_argument, NULL, 'H' },
	{ "pages-to-scan", required_argument, NULL, O_PTS },
	{ "sleep-ms", required_argument, NULL, O_SLEEP },
	{ "hz", required_argument, NULL, O_HZ },
	{ "max-page-sharing", required_argument, NULL, O_MPS },
	{ "smart-scan", required_argument, NULL, O_SMART },
	{ "kernel-release", required_argument, NULL, O_KREL },
	{ "kernel-bits", required_argument, NULL, O_KBITS },
	{ "mergeable", no_argument, NULL, O_MERGEABLE },
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
	{ "wide", no_argument, NULL, O_WIDE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* An unsigned option value up to max, at least min. */
static int number_u(const char *what, const char *text, uint64_t min, uint64_t max, unsigned *out)
{
	struct kb_err err;
	uint64_t v;

	if (kb_parse_uint(text, max, &v, &err))
		return cli_error("scan", "%s: %s", what, err.msg);
	if (v < min)
		return cli_error("scan", "%s must be at least %llu", what, (unsigned long long)min);
	*out = (unsigned)v;
	return 0;
}

/* The KSM model's settings: 0, an exit code, or -1 when c is not one. */
static int parse_model(int c, const char *arg, struct scan_options *o)
{
	char q[KB_QUOTE_SIZE];

	switch (c) {
	case O_PTS:
		o->given |= SCAN_GIVEN_PAGES_TO_SCAN;
		return number_u("--pages-to-scan", arg, 1, UINT32_MAX, &o->pages_to_scan);
	case O_SLEEP:
		o->given |= SCAN_GIVEN_SLEEP_MS;
		return number_u("--sleep-ms", arg, 0, UINT32_MAX, &o->sleep_ms);
	case O_HZ:
		o->given |= SCAN_GIVEN_HZ;
		return number_u("--hz", arg, KERNEL_HZ_MIN, KERNEL_HZ_MAX, &o->hz);
	case O_KREL:
		return run_cli_parse_kernel_release("scan", arg, &o->kernel_release);
	case O_MPS:
		o->given |= SCAN_GIVEN_MAX_PAGE_SHARING;
		if (number_u("--max-page-sharing", arg, 0, UINT32_MAX, &o->max_page_sharing))
			return KB_EXIT_USAGE;
		if (o->max_page_sharing == 1)
			return cli_error("scan", "--max-page-sharing must be 0 (no limit) or at least 2");
		return 0;
	case O_SMART: {
		unsigned on;
		o->given |= SCAN_GIVEN_SMART_SCAN;
		if (number_u("--smart-scan", arg, 0, 1, &on))
			return KB_EXIT_USAGE;
		o->smart_scan = (int)on;
		return 0;
	}
	case O_KBITS:
		o->given |= SCAN_GIVEN_KERNEL_BITS;
		if (strcmp(arg, "32") != 0 && strcmp(arg, "64") != 0)
			return cli_error("scan", "--kernel-bits: '%s' is not 32 or 64", kb_quote(arg, q));
		o->kernel_bits = arg[0] == '3' ? 32 : 64;
		return 0;
	case O_MERGEABLE:
		o->mergeable_only = 1;
		return 0;
	case O_TOP: return number_u("--top", arg, 0, SCAN_TOP_MAX, &o->top);
	default: return -1;
	}
}

/* The dumps and the timing: 0, an exit code, or -1 when c is not one. */
static int parse_input(int c, const char *arg, struct scan_cli *s)
{
	struct scan_options *o = &s->o;
	struct kb_err err;
	unsigned sample;

	switch (c) {
	case O_PAGE:
		return cli_parse_page_size("scan", arg, &o->page_size);
	case O_IFMT: o->dump.format = arg; return dump_format_check(arg, &err) ? cli_fail("scan", &err) : 0;
	case O_LIME: o->dump.lime.ranges = arg; return 0;
	case O_SAMPLE:
		if (number_u("--sample-pages", arg, 0, 1u << 20, &sample))
			return KB_EXIT_USAGE;
		o->sample_pages = sample;
		return 0;
	case O_WS: return run_cli_parse_working_set("scan", arg, &o->working_set_bytes);
	case O_REP: return run_cli_parse_repeat("scan", arg, BENCH_REPEAT_MAX, &o->bench.repeat);
	case O_WIN: return run_cli_parse_window("scan", arg, &o->bench.window_ns);
	case O_SEED: return run_cli_parse_seed("scan", arg, &o->seed);
	case O_CPU: return run_cli_parse_cpu("scan", arg, &s->cpu);
	default: return -1;
	}
}

/* 0, an exit code, or -1 after --help. */
static int parse(int argc, char **argv, struct scan_cli *s)
{
	int c, rc;

	opterr = 0;
	optind = 1;
	while ((c = cli_getopt_long(argc, argv, "H:o:h", options, NULL)) != -1) {
		if ((rc = parse_model(c, optarg, &s->o)) >= 0 || (rc = parse_input(c, optarg, s)) >= 0) {
			if (rc)
				return rc;
			continue;
		}
		switch (c) {
		case 'H': s->hashes = optarg; break;
		case O_FMT: s->format_name = optarg; break;
		case 'o': s->output = optarg; break;
		case O_WIDE: s->wide = 1; break;
		case 'h': usage(); return -1;
		default: return cli_bad_option("scan", argv, optopt);
		}
	}
	if (optind == argc)
		return cli_error("scan", "no dump given (see ksmbench scan --help)");
	/* A format of the rows alone (a row per hash) has no place for the
	 * top contents, and their second pass over the dumps would go
	 * unreported. An unknown format is said once the options are read. */
	const struct report_format *f = report_format_find(s->format_name, REPORT_SCAN, NULL);
	if (s->o.top && f && (f->flags & REPORT_ROWS_ONLY))
		return cli_error("scan", "--top is in the table and the JSON, not in --format %s (a row per hash)",
				 s->format_name);
	if ((rc = cli_stdin_once("scan", argv + optind, (size_t)(argc - optind))) != 0 ||
	    (rc = cli_files_distinct("scan", argv + optind, (size_t)(argc - optind))) != 0 ||
	    (rc = cli_output_not_input("scan", s->output, argv + optind, (size_t)(argc - optind))) != 0)
		return rc;
	s->o.paths = argv + optind;
	s->o.npaths = (size_t)(argc - optind);
	s->o.bench.warmup_ns = s->o.bench.window_ns / 4;
	return 0;
}

/* The hashes to examine, each able to take a page: by default KSM's
 * checksum in the release --kernel-release names, else today's, which
 * scan_run replaces with the first capture's kernel's when it can read
 * that first (default_checksum). A bad release is said now, not after the
 * scan. */
static int select_hashes(struct scan_cli *s)
{
	struct ksm_rules rules;
	struct kb_err err;
	int n;

	if (ksm_rules_for(s->o.kernel_release, "option", &rules, &err))
		return cli_fail("scan", &err);
	if (s->o.given & SCAN_GIVEN_KERNEL_BITS)
		ksm_rules_set_bits(&rules, s->o.kernel_bits, "option");
	s->o.hashes[0] = rules.checksum;
	s->o.default_checksum = !s->hashes;
	n = s->hashes ? hash_select_list(s->hashes, s->o.hashes, CENSUS_SUMS_MAX, &err) : 1;
	if (n < 0)
		return cli_fail("scan", &err);
	s->o.nhashes = (unsigned)n;
	for (int i = 0; i < n; i++)
		if (hash_check_len(s->o.hashes[i], s->o.page_size, &err))
			return cli_fail("scan", &err);
	return 0;
}

static int scan_and_report(struct scan_cli *s, const struct bench_context *ctx, const struct report_format *f)
{
	struct scan_progress prog = { 0 };
	struct scan_result r;
	struct cmd_output out;
	struct kb_err err;
	int rc;

	if (isatty(STDERR_FILENO)) {
		prog.start_ns = clock_now_ns();
		s->o.on_progress = show_progress;
		s->o.progress_ctx = &prog;
	}
	if ((rc = cmd_output_open("scan", s->output, 0644, &out)) != 0)
		return rc;
	rc = scan_run(&s->o, &r, &err);
	if (prog.shown)
		fprintf(stderr, "\r%60s\r", "");
	if (rc) {
		cmd_output_abort(&out);
		return cli_fail("scan", &err);
	}
	struct report_document doc = { .kind = REPORT_SCAN, .ctx = ctx, .scan = &r, .wide = s->wide };
	rc = cmd_output_close("scan", &out, cmd_output_write(&out, f, &doc));
	scan_result_free(&r);
	return rc;
}

int cmd_scan(int argc, char **argv)
{
	struct scan_cli s = { .o = { .page_size = 4096, .pages_to_scan = SCAN_PAGES_TO_SCAN_DEFAULT,
				     .sleep_ms = SCAN_SLEEP_MS_DEFAULT,
				     .max_page_sharing = SCAN_MAX_PAGE_SHARING_DEFAULT,
				     .sample_pages = SCAN_SAMPLE_PAGES_DEFAULT, .seed = 1 },
			      .format_name = "table", .cpu = -1 };
	const struct report_format *f;
	const char *rule;
	int rc;

	ksm_cost_config(&s.o.bench); /* --repeat and --window may change it */
	if ((rc = parse(argc, argv, &s)) != 0)
		return rc < 0 ? KB_EXIT_OK : rc;
	if ((rc = run_cli_format("scan", s.format_name, REPORT_SCAN, &f)) != 0 || (rc = select_hashes(&s)) != 0)
		return rc;
	/* Chosen now, pinned by the scan for the timing only (scan.h). */
	if ((rc = run_cli_cpu("scan", s.cpu, 1, &s.o.pin_cpu, &rule)) != 0)
		return rc;
	/* Without sampling nothing is timed with the counter: not calibrated. */
	struct bench_context *ctx = run_cli_context("scan", s.o.pin_cpu, rule, s.o.hashes, s.o.nhashes,
						    s.o.sample_pages > 0 ? CONTEXT_COUNTER_REPORTED : CONTEXT_COUNTER_UNUSED);
	if (!ctx)
		return KB_EXIT_USAGE;
	s.o.llc_bytes = cpu_llc_bytes(&ctx->cpu);
	rc = scan_and_report(&s, ctx, f);
	free(ctx);
	return rc;
}
