/* Summary statistics of repeated measurements (best, median, spread). */
#ifndef KB_STATS_H
#define KB_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Of samples where lower is better (ns per page): best is the minimum. */
struct stats_summary {
	size_t n;
	double best, median, min, max, mean;
	double cv; /* sample standard deviation / mean; 0 for fewer than 2 samples */
};

/* Summarises n >= 1 samples (the array is not modified). Returns -1 if n is 0
 * or memory runs out. */
int stats_summarize(const double *samples, size_t n, struct stats_summary *out);

/* The p-th percentile (0..100) of n sorted values, interpolating linearly
 * between closest ranks. */
double stats_percentile_sorted(const double *sorted, size_t n, double p);

/* The same for 32-bit counts; sorts the array in place. */
double stats_percentile_u32(uint32_t *values, size_t n, double p);

/* Sorts n doubles in place, ascending. */
void stats_sort(double *values, size_t n);

#endif
