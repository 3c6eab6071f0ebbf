/* ksmbench plot: results documents as an SVG bar chart, written by hand
 * (no library). Bench-style documents (svg_chart.c): one horizontal bar per
 * result, grouped by dataset (data, cache, page size, timer), on a
 * labelled throughput axis, each bar's value printed at its end and a
 * whisker from the slowest to the fastest round; several runs put their
 * bars for the same result side by side, one colour per run, with a legend.
 * Thread runs (svg_thread.c): two panels with their own axes, the
 * self-test's kernel MB/s and ksmd's ns per page, the thread's published
 * figures beside as hatched bars. */
#ifndef KB_SVG_CHART_H
#define KB_SVG_CHART_H

#include <stdio.h>

#include "plot_runs.h"

/* runs[0..n) as checked by plot_runs_check; title: NULL for the default. */
int svg_chart_write(FILE *out, const struct plot_run *runs, size_t n, const char *title);

/* The thread runs' two panels (svg_thread.c). */
int svg_thread_write(FILE *out, const struct plot_run *runs, size_t n, const char *title);

#endif
