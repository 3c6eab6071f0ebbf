/* Reading plot's runs and judging whether they can be drawn together (see
 * plot_runs.h). */
#include "plot_runs.h"

#include <string.h>

/* Whether a thread run's ksmd style called back to back: before December
 * 2026, or with --back-to-back (its bars then read up to 1.4 times faster
 * than calls apart, and the bench chart's groups say so by their timer). */
static int ksmd_back_to_back(const struct plot_run *run)
{
	for (size_t i = 0; run->thread.present && i < run->doc.n; i++)
		if (strcmp(run->doc.results[i].timer, "ksmd") == 0 && !run->doc.results[i].apart)
			return 1;
	return 0;
}

/* "AMD EPYC, git 86c391d33887, 2026-12-01T17:37:06Z": long foreign strings
 * cut, so a legend entry stays on its line. */
static void label(struct plot_run *run)
{
	const struct loaded_doc *d = &run->doc;

	snprintf(run->label, sizeof(run->label), "%.80s, git %.40s, %.40s%s%s",
		 d->cpu_brand ? d->cpu_brand : "unidentified CPU", d->git_revision ? d->git_revision : "unknown",
		 d->date ? d->date : "undated", ksmd_back_to_back(run) ? ", ksmd calls back to back" : "",
		 d->interrupted ? " (interrupted: partial)" : "");
}

static int finish(struct plot_run *run, struct kb_err *err)
{
	if (thread_read(run->doc.root, run->doc.path, &run->thread, err)) {
		plot_run_release(run);
		return -1;
	}
	label(run);
	return 0;
}

int plot_run_load(const char *path, struct plot_run *run, struct kb_err *err)
{
	memset(run, 0, sizeof(*run));
	if (results_load(path, &run->doc, err))
		return -1;
	return finish(run, err);
}

int plot_run_parse(const char *path, const void *text, size_t len, struct plot_run *run, struct kb_err *err)
{
	memset(run, 0, sizeof(*run));
	if (results_parse(path, text, len, &run->doc, err))
		return -1;
	return finish(run, err);
}

void plot_run_release(struct plot_run *run)
{
	thread_read_release(&run->thread);
	results_release(&run->doc);
}

/* The distinct rows over every run, up to limit + 1. */
static size_t distinct_rows(const struct plot_run *runs, size_t n, size_t limit)
{
	const struct thread_row_read *seen[PLOT_THREAD_ROWS_MAX + 1];
	size_t nseen = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < runs[i].thread.nrows && nseen <= limit; k++) {
			const struct thread_row_read *r = &runs[i].thread.rows[k];
			size_t j = 0;
			while (j < nseen && !(seen[j]->in_kernel == r->in_kernel && strcmp(seen[j]->hash, r->hash) == 0))
				j++;
			if (j == nseen)
				seen[nseen++] = r;
		}
	return nseen;
}

void plot_runs_name(struct plot_run *runs, size_t n)
{
	for (size_t i = 0; n > 1 && i < n; i++) {
		const char *slash = strrchr(runs[i].doc.path, '/');
		size_t len = strlen(runs[i].label);
		snprintf(runs[i].label + len, sizeof(runs[i].label) - len, " - %.120s",
			 slash ? slash + 1 : runs[i].doc.path);
	}
}

int plot_runs_check(const struct plot_run *runs, size_t n, struct kb_err *err)
{
	if (n == 0 || n > PLOT_RUNS_MAX)
		return kb_fail(err, "draws 1 to %d runs side by side, not %zu", PLOT_RUNS_MAX, n);
	for (size_t i = 0; i < n; i++) {
		if (runs[i].doc.n == 0)
			return kb_fail(err, "%s holds no results to draw", runs[i].doc.path);
		if (runs[i].thread.present != runs[0].thread.present)
			return kb_fail(err, "%s is %s run and %s is not: a thread run and bench results have no "
					    "common axis (plot them apart)",
				       runs[0].thread.present ? runs[0].doc.path : runs[i].doc.path, "a thread",
				       runs[0].thread.present ? runs[i].doc.path : runs[0].doc.path);
		if (runs[i].thread.present && runs[i].thread.nrows == 0)
			return kb_fail(err, "%s: its \"thread\" object has no rows to draw", runs[i].doc.path);
	}
	if (runs[0].thread.present && distinct_rows(runs, n, PLOT_THREAD_ROWS_MAX) > PLOT_THREAD_ROWS_MAX)
		return kb_fail(err, "more than %d thread rows over the runs given: more than a chart can show",
			       PLOT_THREAD_ROWS_MAX);
	return 0;
}
