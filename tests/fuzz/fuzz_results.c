/* libFuzzer target: reading a results document back (compare's and plot's
 * input, a thread run's rows too), then drawing it as plot does. A document read must hold only
 * finite rates, within the limits of docs/input-limits.md, and its chart
 * no NaN or infinity in an attribute. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/record_load.h"
#include "../../report/plot_runs.h"
#include "../../report/results_load.h"
#include "../../report/svg_chart.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_doc(const struct loaded_doc *doc)
{
	if (doc->n > RECORD_LOAD_MAX_ITEMS)
		abort();
	for (size_t i = 0; i < doc->n; i++) {
		const struct loaded_result *r = &doc->results[i];
		if (!r->hash || !r->data || !r->cache || !r->timer || r->page_size < 1 ||
		    r->nrounds > RECORD_LOAD_MAX_ITEMS || !isfinite(r->bytes_per_second_min) ||
		    !isfinite(r->bytes_per_second_max) || !isfinite(r->bytes_per_second_median))
			abort();
		for (size_t k = 0; k < r->nrounds; k++)
			if (!isfinite(r->rounds[k]))
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plot_run run;
	struct kb_err err;
	char *svg = NULL;
	size_t svg_size = 0;

	if (plot_run_parse("fuzz", data, size, &run, &err))
		return 0;
	check_doc(&run.doc);
	if (plot_runs_check(&run, 1, &err)) {
		plot_run_release(&run);
		return 0;
	}
	FILE *out = open_memstream(&svg, &svg_size);
	if (!out)
		abort();
	if (svg_chart_write(out, &run, 1, NULL))
		abort();
	fclose(out);
	/* A number attribute: a document's strings cannot end in a quote (&quot;). */
	if (strstr(svg, "nan\"") || strstr(svg, "inf\""))
		abort();
	free(svg);
	plot_run_release(&run);
	return 0;
}
