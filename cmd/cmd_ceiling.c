/* ksmbench ceiling: this CPU's measured limits that bound page hashing, and
 * each available implementation's ceiling (bench/ceiling.h), as a
 * REPORT_CEILING document (report/ceiling_report.c renders it). */
#include <getopt.h>
#include <stdio.h>

#include "../bench/ceiling.h"
#include "../hashes/hash.h"
#include "../report/ceiling_report.h"
#include "cli.h"
#include "output.h"
#include "run_cli.h"

#define CEILING_REPEAT_MAX 31
#define CEILING_HASHES_MAX 64

static void usage(void)
{
	printf("usage: ksmbench ceiling [--format %s] [-o FILE] [--page-size N] [--repeat N] [--cpu N]\n\n"
	       "Measures the limits of this CPU that bound page hashing (core clock, crc32q\n"
	       "throughput and latency, (v)pclmulqdq and 32-bit vector multiply throughput\n"
	       "per register width, whether crc32q and clmul overlap, L1 load bandwidth,\n"
	       "streamed memory bandwidth, one cold page) as the best of short rounds over\n"
	       "a second (those on a core an SMT sibling shared left out), with their\n"
	       "spread, and from them each available implementation's ceiling at the page\n"
	       "size (docs/ceilings.md has the formulas). Under 3 seconds.\n\n"
	       "  --format F          %s (default table)\n"
	       "  -o, --output FILE   write the report to FILE (atomically)\n"
	       "  --page-size N       bytes per call for the ceilings (default 4K)\n"
	       "  --repeat N          rounds on an unshared core at least (default 7, 1..31)\n"
	       "  --cpu N             pin to CPU N (default: the fastest allowed)\n",
	       run_cli_formats(REPORT_CEILING), run_cli_format_list(REPORT_CEILING));
}

struct ceiling_args {
	const char *format_name, *output;
	int cpu;
	uint32_t page_size;
	unsigned repeats;
};

/* 0, an exit code, or -1 after --help. */
static int parse(int argc, char **argv, struct ceiling_args *a)
{
	enum { O_FMT = 256, O_PAGE, O_REPEAT, O_CPU };
	static const struct option opts[] = {
		{ "format", required_argument, NULL, O_FMT }, { "page-size", required_argument, NULL, O_PAGE },
		{ "repeat", required_argument, NULL, O_REPEAT }, { "cpu", required_argument, NULL, O_CPU },
		{ "output", required_argument, NULL, 'o' },   { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	optind = 1;
	while ((c = cli_getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case O_FMT: a->format_name = optarg; break;
		case 'o': a->output = optarg; break;
		case O_PAGE:
			if (cli_parse_page_size("ceiling", optarg, &a->page_size))
				return KB_EXIT_USAGE;
			break;
		case O_REPEAT:
			if (run_cli_parse_repeat("ceiling", optarg, CEILING_REPEAT_MAX, &a->repeats))
				return KB_EXIT_USAGE;
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
	struct ceiling_args a = { "table", NULL, -1, 4096, 7 };
	const struct hash_impl *hashes[CEILING_HASHES_MAX];
	const struct report_format *f;
	struct ceiling_figures figures;
	struct cpu_description cpu;
	struct ceiling_opts o;
	struct cmd_output out;
	struct kb_err err;
	const char *rule;
	int rc, pinned;

	if ((rc = parse(argc, argv, &a)) != 0)
		return rc < 0 ? KB_EXIT_OK : rc;
	if ((rc = run_cli_format("ceiling", a.format_name, REPORT_CEILING, &f)) != 0)
		return rc;
	int n = hash_select_list("all", hashes, CEILING_HASHES_MAX, &err);
	if (n < 0)
		return cli_fail("ceiling", &err);
	if ((rc = run_cli_cpu("ceiling", a.cpu, 0, &pinned, &rule)) != 0 ||
	    (rc = cmd_output_open("ceiling", a.output, 0644, &out)) != 0)
		return rc;
	ceiling_default_opts(&o);
	o.repeats = a.repeats;
	if (ceiling_measure(&o, &figures, &err)) {
		cmd_output_abort(&out);
		return cli_fail("ceiling", &err);
	}
	cpu_describe(&cpu);
	struct ceiling_report r = { .figures = &figures, .cpu = &cpu, .pinned_cpu = pinned, .pin_rule = rule,
				    .page_size = a.page_size, .hashes = hashes, .nhashes = (unsigned)n };
	struct report_document doc = { .kind = REPORT_CEILING, .ceiling = &r };
	return cmd_output_close("ceiling", &out, cmd_output_write(&out, f, &doc));
}
