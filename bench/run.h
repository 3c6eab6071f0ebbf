/* A run: hashes measured over a plan of page sets (bench: one step, or
 * one per combination of a sweep; thread: the zero page hot, then random
 * pages cold), in one or more processes. Every measurement (step x hash)
 * is a result; within a process the measurements take their rounds in
 * turns (bench/schedule.h), each round after its own warm-up, so that
 * every hash sees the same machine. Page sets are built up front, as many
 * at once as BENCH_RUN_MEMORY_BYTES allows (the rest in later groups).
 * Stops early, with the rounds so far, when a stop is requested. Nothing
 * prints: progress and rounds go to callbacks. */
#ifndef KB_RUN_H
#define KB_RUN_H

#include "../datasets/page_store.h"
#include "bench.h"
#include "disturb.h"
#include "free_core.h"

#define BENCH_RUN_MEMORY_BYTES (1ull << 30) /* page sets held at once */
#define BENCH_PROCESSES_MAX 100u

/* One step of a plan: a page set and how to time it. */
struct bench_step {
	struct page_set_request set;
	struct bench_config cfg;
	const char *name;          /* shown in the progress line ("self-test"); NULL for none */
	const char *building_note; /* progress text while the set is built; NULL for none */
};

/* The names a measured hash is shown by: the one asked for (or the
 * implementation's own), and the other names of the plan that name the
 * same implementation, measured once for all of them. */
struct bench_names {
	const char *hash;
	const char *aliases[BENCH_ALIASES_MAX];
	unsigned naliases;
};

struct bench_plan {
	const struct bench_step *steps;
	unsigned nsteps;
	const struct hash_impl *const *hashes;
	unsigned nhashes;
	const struct bench_names *names; /* per hash, or NULL: each hash by its own name */
	unsigned processes;              /* 1..BENCH_PROCESSES_MAX */
	uint64_t seed;                   /* of every round's order */
	/* The files' pages, read once for every process (step i: slot i;
	 * bench_plan_read_pages), or NULL: each process reads them. */
	const struct page_store *pages;
};

/* Measurement m of a plan is step m / nhashes, hash m % nhashes. */
static inline unsigned bench_plan_measurements(const struct bench_plan *p)
{
	return p->nsteps * p->nhashes;
}

/* Where a run is, for a progress line. */
struct bench_progress {
	const char *note;              /* set while a page set is built, else NULL */
	unsigned process, processes;   /* from 1 */
	unsigned round, rounds;        /* from 1 */
	unsigned slot, slots;          /* the measurement's turn in this round, from 1, of the group's */
	unsigned step, steps;          /* from 1 */
	const char *step_name;         /* the step's name, NULL if it has none */
	const struct hash_impl *hash;
	unsigned measurement;          /* its number in the plan, from 0 */
};

/* Where a process's run sends what it measures. */
struct bench_sink {
	void *arg;
	/* A measurement's page set is built (its size facts). */
	void (*set_built)(void *arg, unsigned m, uint64_t set_pages, uint64_t working_set_bytes);
	/* Before each round and while a set is built; NULL for none. */
	void (*progress)(void *arg, const struct bench_progress *p);
	/* A round of measurement m, complete; -1 (err set) ends the run. */
	int (*round)(void *arg, unsigned m, const struct bench_round *r, struct kb_err *err);
};

/* Process number process (from 0) of plan, in this process: every
 * measurement's rounds, interleaved, each given to sink. */
int bench_run_process(const struct bench_plan *plan, unsigned process, const struct bench_sink *sink,
		      struct kb_err *err);

/* The results of a run: one per measurement, in plan order, with every
 * process's rounds; after bench_results_finish, the measurements without
 * a whole round are left out. */
struct bench_results {
	struct bench_result *items;
	size_t n;
	unsigned planned;        /* measurements the plan had */
	unsigned processes_planned;
	int process_cpu[BENCH_PROCESSES_MAX]; /* the CPU each measuring process ran on, -1 before it ran */
	unsigned rounds_done, rounds_planned; /* set by bench_results_finish */
	struct disturb_reference reference; /* what the rounds were judged against (bench_results_finish) */
	struct free_core free_core;         /* the floor under its throughput, and where it came from */
};

/* One result per measurement of plan, described but not yet measured. */
int bench_results_plan(struct bench_results *l, const struct bench_plan *plan, struct kb_err *err);
void bench_results_set_facts(struct bench_results *l, unsigned m, uint64_t set_pages, uint64_t ws_bytes);
int bench_results_add_round(struct bench_results *l, unsigned m, const struct bench_round *r);

/* Classifies the rounds, estimates every result (bench/estimate.h), marks
 * the interrupted ones and leaves out those with no round. */
int bench_results_finish(struct bench_results *l, struct kb_err *err);
void bench_results_free(struct bench_results *l);

/* The whole plan in this process (its processes one after another):
 * bench_results_plan, bench_run_process for each, bench_results_finish.
 * progress may be NULL. */
int bench_run(const struct bench_plan *plan, void (*progress)(void *arg, const struct bench_progress *p),
	      void *progress_arg, struct bench_results *out, struct kb_err *err);

/* Reads the pages of every step that hashes a file into store (steps that
 * ask for the same pages share them), for plan->pages: once, before any
 * process measures, up to BENCH_RUN_MEMORY_BYTES beyond the first slot
 * (the steps past it, and every step where no store can be made, are read
 * by each process). A pipe that steps read in two ways is refused before
 * anything is read: it cannot be read again. store is closed by the caller
 * (page_store_close) either way. */
int bench_plan_read_pages(const struct bench_plan *plan, struct page_store *store, struct kb_err *err);

#endif
