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

/* The median of n values with a distribution-free interval for it: the
 * order statistics [x(k), x(n+1-k)] of the sorted values, k the largest
 * rank whose coverage 1 - 2 P(Binomial(n, 1/2) < k) is at least 95%; below
 * 6 values no rank reaches it, and the interval is [min, max] with the
 * coverage it has (93.8% for 5, 0 for 1). spread: the interquartile
 * range / 1.349 over the median (0 below 2 values), the coefficient of
 * variation a normal sample with those quartiles has, which a quarter of
 * the values far off does not move, as it does not move the median. */
struct stats_interval {
	size_t n;
	double median, low, high;
	double level; /* the interval's coverage, 0..1 */
	double spread;
};

/* -1 if n is 0 or memory runs out (the array is not modified). */
int stats_median_interval(const double *values, size_t n, struct stats_interval *out);

/* The rank k of that interval for n values, and its coverage. */
size_t stats_median_rank(size_t n, double *level);

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
