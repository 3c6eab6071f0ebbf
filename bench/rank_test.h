/* The Mann-Whitney U test (Wilcoxon rank-sum): do two sets of round
 * figures come from the same distribution? Used by `compare` to tell a
 * real change from noise. Exact for small samples (with ties, given the
 * tie groups); the normal approximation with tie and continuity
 * corrections otherwise. */
#ifndef KB_RANK_TEST_H
#define KB_RANK_TEST_H

#include <stddef.h>

/* Samples up to which (m * n) the exact distribution of U is computed for
 * the test (with ties, a table per tie pattern), and for the interval's
 * rank (no ties: one table over the smaller side, about 0.1 s and 16 MB at
 * 100 x 100, what two runs of BENCH_PROCESSES_MAX processes give). */
#define RANK_TEST_EXACT_MAX_PRODUCT 400u
#define RANK_TEST_INTERVAL_EXACT_MAX_PRODUCT 10000u

struct rank_test {
	double u;       /* U of the first sample: pairs (a, b) with a > b, ties counting 1/2 */
	double p;       /* two-sided p-value */
	int exact;      /* 1: exact distribution; 0: normal approximation */
};

/* Runs the test on a[0..m) and b[0..n), m, n >= 1. -1 if memory runs out. */
int rank_test_run(const double *a, size_t m, const double *b, size_t n, struct rank_test *out);

/* The distribution-free confidence interval, at level 1 - alpha, of the
 * ratio b / a by which the second sample is shifted from the first on a log
 * scale (the Hodges-Lehmann interval that inverts this test): the k-th
 * smallest and largest of the m * n ratios b[j] / a[i], k from the U
 * distribution. 0 with *lo, *hi set; 1 when the sizes are too small for an
 * interval at that level or a value is not positive; -1 if memory runs out. */
int rank_test_ratio_interval(const double *a, size_t m, const double *b, size_t n, double alpha, double *lo,
			     double *hi);

/* The shift itself: the median of the m * n ratios b[j] / a[i] (the
 * Hodges-Lehmann estimate the interval above surrounds). Unlike the ratio
 * of the two samples' medians it does not jump when each sample's middle
 * falls between two clusters of values. 0 with *ratio set; 1 when a
 * sample is empty or a value is not positive; -1 if memory runs out. */
int rank_test_ratio_estimate(const double *a, size_t m, const double *b, size_t n, double *ratio);

/* The smallest two-sided p-value the exact test can give for sizes m and n:
 * 2 / C(m + n, m) (1 if that exceeds 1). Below alpha, the samples are
 * "enough" to find a difference at that level. */
double rank_test_min_p(size_t m, size_t n);

#endif
