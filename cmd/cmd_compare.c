/* ksmbench compare: the CI regression gate. Two results documents, results
 * matched and judged (report/compare.c); exit 1 when anything regressed. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/decimal_parse.h"
#include "../common/quote.h"
#include "../report/compare.h"
#include "cli.h"
#include "output.h"
#include "run_cli.h"
#include "term.h"

static void usage(void)
{
	printf("usage: ksmbench compare BASE.json NEW.json [--threshold PERCENT] [--alpha P]\n"
	       "                        [--format %s] [-o FILE]\n\n"
	       "Compares two results documents (bench, thread or select --format json): results\n"
	       "are matched by hash, data, cache, page size, misalignment, timer and calls\n"
	       "apart, and judged on the per-process values: the change is the median of the\n"
	       "ratios of every pair of processes (new / base). A change within the threshold\n"
	       "is 'unchanged'. Beyond it, 'inconclusive' when either side is unstable (a\n"
	       "version-1 document counts as one process) or has too few processes for the\n"
	       "test; 'noise' when a two-sided Mann-Whitney U test over the processes' values\n"
	       "does not separate them at level --alpha, or the shift's interval reaches back\n"
	       "inside the threshold; else a regression or an improvement. Fields of the two\n"
	       "contexts that make figures incomparable (CPU, build, libraries, kernel, page\n"
	       "size, an alias's implementation) are named.\n\n"
	       "  --threshold PERCENT   smallest change that counts, e.g. 5%% (default 5%%)\n"
	       "  --alpha P             significance level of the rank test (default 0.05)\n"
	       "  --format FMT          %s (default table)\n"
	       "  -o, --output FILE     write the report to FILE (atomically)\n\n"
	       "Exit status: 0 nothing regressed and nothing inconclusive, 1 a regression,\n"
	       "2 unusable input (not a results document, a field missing, or no result in\n"
	       "common), 3 no regression but some results inconclusive.\n",
	       run_cli_formats(REPORT_COMPARE), run_cli_format_list(REPORT_COMPARE));
}

/* 0, an exit code, or -1 after --help. */
static int parse(int argc, char **argv, struct compare_settings *s, const char **format, const char **output)
{
	enum { O_THRESHOLD = 256, O_ALPHA, O_FMT };
	static const struct option opts[] = {
		{ "threshold", required_argument, NULL, O_THRESHOLD }, { "alpha", required_argument, NULL, O_ALPHA },
		{ "format", required_argument, NULL, O_FMT },          { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },                    { NULL, 0, NULL, 0 },
	};
	char q[KB_QUOTE_SIZE];
	int c;

	opterr = 0;
	optind = 1;
	while ((c = cli_getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case O_THRESHOLD:
			if (kb_parse_decimal(optarg, 1, 0, 1000, &s->threshold_percent))
				return cli_error("compare", "--threshold '%s' must be a percentage from 0 to 1000",
						 kb_quote(optarg, q));
			break;
		case O_ALPHA:
			if (kb_parse_decimal(optarg, 0, 1e-9, 0.5, &s->alpha))
				return cli_error("compare", "--alpha '%s' must be a number from 1e-9 to 0.5",
						 kb_quote(optarg, q));
			break;
		case O_FMT: *format = optarg; break;
		case 'o': *output = optarg; break;
		case 'h': usage(); return -1;
		default: return cli_bad_option("compare", argv, optopt);
		}
	}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_settings s = { .threshold_percent = 5, .alpha = 0.05 };
	const char *format = "table", *output = NULL;
	const struct report_format *f;
	static struct loaded_doc base, new_; /* 5 KB each: not on the stack */
	static struct compare_outcome o;
	struct kb_err err;
	int rc;

	if ((rc = parse(argc, argv, &s, &format, &output)) != 0)
		return rc < 0 ? KB_EXIT_OK : rc;
	if ((rc = run_cli_format("compare", format, REPORT_COMPARE, &f)) != 0)
		return rc;
	if (argc - optind != 2)
		return cli_error("compare", "needs two files, BASE.json and NEW.json (see ksmbench compare --help)");
	if ((rc = cli_stdin_once("compare", argv + optind, 2)) != 0 ||
	    (rc = cli_output_not_input("compare", output, argv + optind, 2)) != 0)
		return rc;
	if (results_load(argv[optind], &base, &err))
		return cli_fail("compare", &err);
	if (results_load(argv[optind + 1], &new_, &err)) {
		results_release(&base);
		return cli_fail("compare", &err);
	}
	rc = compare_run(&base, &new_, &s, &o, &err) ? cli_fail("compare", &err) : 0;
	if (rc == 0) {
		struct report_document doc = { .kind = REPORT_COMPARE, .base = &base, .new_ = &new_, .settings = &s,
					       .outcome = &o, .color = !output && term_color(stdout) };
		rc = cmd_report("compare", output, f, &doc);
		if (rc == 0 && o.counts[VERDICT_REGRESSION])
			rc = KB_EXIT_FAIL;
		else if (rc == 0 && o.counts[VERDICT_INCONCLUSIVE])
			rc = KB_EXIT_INCONCLUSIVE;
	}
	compare_release(&o);
	results_release(&base);
	results_release(&new_);
	return rc;
}
