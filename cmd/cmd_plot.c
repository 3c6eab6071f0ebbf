/* ksmbench plot: draws results documents as an SVG chart, several runs side
 * by side (report/svg_chart.c, report/svg_thread.c). */
#include <getopt.h>
#include <stdio.h>

#include "../report/plot_runs.h"
#include "cli.h"
#include "output.h"
#include "run_cli.h"

static void usage(void)
{
	printf("usage: ksmbench plot RESULTS.json... [-o chart.svg] [--title TEXT]\n\n"
	       "Draws the results of bench, thread or select --format json as an SVG bar\n"
	       "chart. Bench and select results: one bar per result (its median over\n"
	       "processes, with a whisker from the slowest to the fastest round and the value\n"
	       "written at its end), grouped by dataset, on a throughput axis (GB/s or MB/s).\n"
	       "A thread run: two panels with their own axes, the self-test's kernel MB/s\n"
	       "and ksmd's ns per page, the thread's published figures beside as hatched\n"
	       "bars. Several files (up to %d: two commits, two machines) are drawn side by\n"
	       "side, one colour per run, each named in the legend by its CPU, commit and\n"
	       "date; they must be all thread runs or all bench-style results.\n\n"
	       "  -o, --output FILE     write the SVG to FILE (atomically; default stdout)\n"
	       "  --title TEXT          the chart's title\n",
	       PLOT_RUNS_MAX);
}

/* Reads paths[0..n) into runs, checked to draw together; 0 or an exit status. */
static int load(char **paths, size_t n, struct plot_run *runs, size_t *loaded)
{
	struct kb_err err;

	for (*loaded = 0; *loaded < n; ++*loaded)
		if (plot_run_load(paths[*loaded], &runs[*loaded], &err))
			return cli_fail("plot", &err);
	if (plot_runs_check(runs, n, &err))
		return cli_fail("plot", &err);
	plot_runs_name(runs, n);
	return 0;
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
	struct plot_run runs[PLOT_RUNS_MAX];
	size_t n, loaded;
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
	n = (size_t)(argc - optind);
	if (n == 0)
		return cli_error("plot", "needs a results file (see ksmbench plot --help)");
	if (n > PLOT_RUNS_MAX)
		return cli_error("plot", "draws at most %d runs side by side, not %zu", PLOT_RUNS_MAX, n);
	if ((rc = cli_stdin_once("plot", argv + optind, n)) != 0 ||
	    (rc = cli_output_not_input("plot", output, argv + optind, n)) != 0)
		return rc;
	if ((rc = load(argv + optind, n, runs, &loaded)) == 0) {
		struct report_document d = { .kind = REPORT_PLOT, .plot_runs = runs, .nplot_runs = n, .title = title };
		if ((rc = run_cli_format("plot", "svg", REPORT_PLOT, &f)) == 0)
			rc = cmd_report("plot", output, f, &d);
	}
	for (size_t i = 0; i < loaded; i++)
		plot_run_release(&runs[i]);
	return rc;
}
