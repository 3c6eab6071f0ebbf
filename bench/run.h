/* A run: hashes measured over a plan of page sets, one step per set (bench:
 * one step; thread: the zero page hot, then random pages cold; a sweep:
 * one step per combination), every result kept in one list. Stops early,
 * with the results so far, when a stop is requested. Nothing prints:
 * progress goes to a callback. */
#ifndef KB_RUN_H
#define KB_RUN_H

#include "bench.h"

/* The results of a run, in the order measured (measurements with no whole
 * round are left out). */
struct bench_results {
	struct bench_result *items;
	size_t n, cap;
	unsigned planned; /* measurements the plan had */
};

void bench_results_free(struct bench_results *l);

/* Appends *r (taking over its rounds); -1 when memory runs out. */
int bench_results_add(struct bench_results *l, struct bench_result *r);

/* One step of a plan: a page set and how to time it. */
struct bench_step {
	struct page_set_request set;
	struct bench_config cfg;   /* its on_round is replaced by the run's progress */
	const char *building_note; /* progress text while the set is built; NULL for none */
};

/* Where a run is, for a progress line. */
struct bench_progress {
	const char *note;          /* set while a page set is built, else NULL */
	unsigned step, steps;      /* from 1 */
	unsigned index, total;     /* the measurement in its step, from 1; hashes per step */
	const struct hash_impl *hash;
	unsigned round, rounds;    /* from 1 */
};

typedef void (*bench_progress_fn)(void *arg, const struct bench_progress *p);

/* Measures hashes[0..nhashes) in every step, appending to out (which the
 * caller frees, also after an error). progress may be NULL. */
int bench_run(const struct bench_step *steps, unsigned nsteps, const struct hash_impl *const *hashes,
	      unsigned nhashes, bench_progress_fn progress, void *progress_arg, struct bench_results *out,
	      struct kb_err *err);

#endif
