/* ksmbench ceiling: this CPU's measured limits that bound page hashing, and
 * each available implementation's ceiling (bench/ceiling.h). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../bench/ceiling.h"
#include "../bench/context.h"
#include "../common/size_parse.h"
#include "../hashes/hash.h"
#include "../report/ceiling_report.h"
#include "run_cli.h"
#include "cli.h"

static void usage(void)
{
	printf("usage: ksmbench ceiling [--format table|json] [--page-size N] [--repeat N] [--cpu N]\n\n"
	       "Measures the limits of this CPU that bound page hashing (core clock, crc32q\n"
	       "throughput and latency, (v)pclmulqdq and 32-bit vector multiply throughput\n"
	       "per register width, whether crc32q and clmul overlap, L1 load bandwidth,\n"
	       "streamed memory bandwidth, one cold page) as the best of short repeats,\n"
	       "with their spread, and from them each available implementation's ceiling\n"
	       "at the page size (docs/ceilings.md has the formulas). Under 3 seconds.\n\n"
	       "  --format F      table (default) or json\n"
	       "  --page-size N   bytes per call for the ceilings (default 4K)\n"
	       "  --repeat N      repeats of every probe, best kept (default 7, 1..31)\n"
	       "  --cpu N         pin to CPU N (default: the highest-numbered CPU allowed)\n");
}

struct ceiling_args {
	int json, cpu;
	uint32_t page_size;
	unsigned repeats;
};

static int parse(int argc, char **argv, struct ceiling_args *a)
{
	enum { O_FMT = 256, O_PAGE, O_REPEAT, O_CPU };
	static const struct option opts[] = {
		{ "format", required_argument, NULL, O_FMT }, { "page-size", required_argument, NULL, O_PAGE },
		{ "repeat", required_argument, NULL, O_REPEAT }, { "cpu", required_argument, NULL, O_CPU },
		{ "help", no_argument, NULL, 'h' },           { NULL, 0, NULL, 0 },
	};
	struct kb_err err;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case O_FMT:
			if (strcmp(optarg, "table") != 0 && strcmp(optarg, "json") != 0)
				return cli_error("ceiling", "unknown format '%s' (table or json)", optarg);
			a->json = strcmp(optarg, "json") == 0;
			break;
		case O_PAGE:
			if (kb_parse_page_size(optarg, &a->page_size, &err))
				return cli_fail("ceiling", &err);
			break;
		case O_REPEAT:
			if (run_cli_parse_repeat("ceiling", optarg, &a->repeats))
				return KB_EXIT_USAGE;
			if (a->repeats > 31)
				return cli_error("ceiling", "--repeat is at most 31 here, not %u", a->repeats);
			break;
		case O_CPU:
			if (run_cli_parse_cpu("ceiling", optarg, &a->cpu))
				return KB_EXIT_USAGE;
			break;
		case 'h': usage(); return -1;
		default: return cli_bad_option("ceiling", argv, optopt);
		}
	}
	if (optind < argc)
		return cli_error("ceiling", "unexpected argument '%s'", argv[optind]);
	return 0;
}

int cmd_ceiling(int argc, char **argv)
{
	struct ceiling_args a = { 0, -1, 4096, 7 };
	const struct hash_impl *hashes[64];
	struct ceiling_figures figures;
	struct cpu_description cpu;
	struct ceiling_opts o;
	struct kb_err err;
	const char *rule;
	int rc, pinned;

	if ((rc = parse(argc, argv, &a)) != 0)
		return rc < 0 ? KB_EXIT_OK : rc;
	if ((rc = run_cli_cpu("ceiling", a.cpu, 0, &pinned, &rule)) != 0)
		return rc;
	ceiling_default_opts(&o);
	o.repeats = a.repeats;
	if (ceiling_measure(&o, &figures, &err))
		return cli_fail("ceiling", &err);
	int n = hash_select_list("all", hashes, 64, &err);
	if (n < 0)
		return cli_fail("ceiling", &err);
	memset(&cpu, 0, sizeof(cpu));
	cpu_describe(&cpu);
	struct ceiling_report r = { &figures, &cpu, a.page_size, hashes, (unsigned)n };
	if ((a.json ? ceiling_report_json(&r, stdout) : ceiling_report_table(&r, stdout)) != 0 || fflush(stdout) != 0)
		return cli_error("ceiling", "cannot write the report");
	return KB_EXIT_OK;
}
