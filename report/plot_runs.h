/* The runs plot draws side by side (plot_runs.c): each a results document
 * read back (results_load.h) with its thread comparison, if it has one
 * (thread.h), and a label from its context (CPU, commit, date). Runs are
 * drawn together only when they are all thread runs or all bench-style
 * documents: a mix has no common axis. */
#ifndef KB_PLOT_RUNS_H
#define KB_PLOT_RUNS_H

#include <stddef.h>

#include "../common/err.h"
#include "results_load.h"
#include "thread.h"

#define PLOT_RUNS_MAX 8         /* runs side by side: one colour each */
#define PLOT_THREAD_ROWS_MAX 64 /* thread rows over every run (a thread run has about 8) */

struct plot_run {
	struct loaded_doc doc;
	struct thread_read thread;
	char label[320]; /* raw: escaped where it is drawn */
};

/* A run from path, or from len bytes of text (path names it in errors). */
int plot_run_load(const char *path, struct plot_run *run, struct kb_err *err);
int plot_run_parse(const char *path, const void *text, size_t len, struct plot_run *run, struct kb_err *err);
void plot_run_release(struct plot_run *run);

/* Whether runs[0..n) can be drawn together: every one holds results, none
 * or all are thread runs, at most PLOT_THREAD_ROWS_MAX distinct rows. */
int plot_runs_check(const struct plot_run *runs, size_t n, struct kb_err *err);

/* With several runs, each label ends in its file's name: two runs of one
 * commit on one machine stay apart in the legend. */
void plot_runs_name(struct plot_run *runs, size_t n);

#endif
