/* From a result's rounds (every process's) to its figures: the rounds a
 * disturbance left out, each process's value (the median of its
 * undisturbed rounds), the headline (their median) with a distribution-free
 * interval over processes, the spread, and a stability verdict in pyperf's
 * spirit. A ratio between two hashes (thread's "x jhash2") is estimated the
 * same way from rounds measured side by side: the same process, the same
 * round. Pure functions of the rounds: unit-tested on known samples. */
#ifndef KB_ESTIMATE_H
#define KB_ESTIMATE_H

#include "bench.h"
#include "disturb.h"

/* When a result is unstable (docs/measurement.md). */
struct estimate_rules {
	unsigned processes_min;      /* fewer processes with an undisturbed value: too few */
	double spread_percent_max;   /* robust spread of the per-process values above this (stats.h) */
	double disturbed_share_max;  /* a larger share of the rounds disturbed: disturbed */
	double run_disturbed_share_max; /* a larger share of the run's rounds disturbed: run-disturbed */
	double timer_share_max;      /* rdtsc: the counter's resolution above this share of a call */
};

extern const struct estimate_rules estimate_default;

/* Classifies every round of results[0..n) against ref, each result's
 * throughput against its own (disturb_reference_for), and estimates each
 * result; where more than rules->run_disturbed_share_max of all their
 * rounds were disturbed, every result is unstable (run-disturbed). -1 if
 * memory runs out. */
int estimate_results_against(struct bench_result *results, size_t n, const struct disturb_reference *ref,
			     const struct disturb_thresholds *t, const struct estimate_rules *rules);

/* The same against the reference of their own rounds (disturb_reference_of,
 * no free-core floor). */
int estimate_results(struct bench_result *results, size_t n, const struct disturb_thresholds *t,
		      const struct estimate_rules *rules);

/* The counter's step as a share of the shortest span the timer measures:
 * rdtsc's sample (one call or a batch), the ksmd timer's mean span of a
 * cycle (its first page, then up to KSMD_BATCHES batches); 0 for the
 * others. Over rules->timer_share_max the result is unstable (timer). */
double estimate_timer_share(const struct bench_result *r);

/* The estimate of one result whose rounds are classified: per-process
 * values, over_processes, ns_per_page, the timer's part, the hardware
 * counters' medians, unstable. -1 if memory runs out. */
int estimate_result(struct bench_result *r, const struct estimate_rules *rules);

/* How many times faster a is than b, from their rounds measured side by
 * side (same process and round; both undisturbed, or every pair when fewer
 * than three processes have such a pair): per
 * process the median of its rounds' ratios b/a in time, then the
 * median over processes with its interval. 0, or -1 when no pair exists
 * (out is then zero). */
int estimate_ratio(const struct bench_result *a, const struct bench_result *b, struct stats_interval *out);

/* The median effective clock of the rounds the estimate used (the
 * undisturbed ones; all where every round was disturbed); 0 where none
 * was measured or memory runs out. */
double estimate_clock_hz(const struct bench_result *r);

/* The interval's half-width against its median, in percent (the table's
 * "± x%"); -1 when there is none (fewer than 2 values). */
double estimate_half_width_percent(const struct stats_interval *iv);

#endif
