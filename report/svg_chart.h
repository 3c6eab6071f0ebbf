/* ksmbench plot: a results document as an SVG bar chart, written by hand
 * (no library): one horizontal bar per result, grouped by dataset (data,
 * cache, page size, timer), on a labelled throughput axis, with each bar's
 * value printed at its end and a whisker from the slowest to the fastest
 * round, so the chart reads without the table. */
#ifndef KB_SVG_CHART_H
#define KB_SVG_CHART_H

#include <stdio.h>

#include "results_load.h"

/* title: NULL for the default. */
int svg_chart_write(FILE *out, const struct loaded_doc *doc, const char *title);

#endif
