/* ksmbench plot: draws a results document as an SVG bar chart
 * (report/svg_chart.c). */
#include <getopt.h>
#include <stdio.h>

#include "../report/results_load.h"
#include "cli.h"
#include "output.h"
#include "run_cli.h"

static void usage(void)
{
	printf("usage: ksmbench plot RESULTS.json [-o chart.svg] [--title TEXT]\n\n"
	       "Draws the results of bench, thread or select --format json as an SVG bar\n"
	       "chart: one bar per result (the median round's rate, with a whisker from the\n"
	       "slowest to the fastest round and the value written at its end), grouped by\n"
	       "dataset, on a labelled throughput axis (GB/s or MB/s).\n\n"
	       "  -o, --output FILE     write the SVG to FILE (atomically; default stdout)\n"
	       "  --title TEXT          the chart's title\n");
}

int cmd_plot(int argc, char **argv)
{
	enum { O_TITLE = 256 };
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' }, { "title", required_argument, NULL, O_TITLE },
		{ "help", no_argument, NULL, 'h' },         { NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *title = NULL;
	const struct report_format *f;
	struct loaded_doc doc;
	struct kb_err err;
	int c, rc;

	opterr = 0;
	optind = 1;
	while ((c = cli_getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': output = optarg; break;
		case O_TITLE: title = optarg; break;
		case 'h': usage(); return KB_EXIT_OK;
		default: return cli_bad_option("plot", argv, optopt);
		}
	}
	if (argc - optind != 1)
		return cli_error("plot", "needs one results file (see ksmbench plot --help)");
	if (results_load(argv[optind], &doc, &err))
		return cli_fail("plot", &err);
	if (doc.n == 0) {
		results_release(&doc);
		return cli_error("plot", "%s holds no results to draw", argv[optind]);
	}
	struct report_document d = { .kind = REPORT_PLOT, .base = &doc, .title = title };
	if ((rc = run_cli_format("plot", "svg", REPORT_PLOT, &f)) == 0)
		rc = cmd_report("plot", output, f, &d);
	results_release(&doc);
	return rc;
}
