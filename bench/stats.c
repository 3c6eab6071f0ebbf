/* Summary statistics (see stats.h). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

void stats_sort(double *values, size_t n)
{
	qsort(values, n, sizeof(*values), cmp_double);
}

double stats_percentile_sorted(const double *sorted, size_t n, double p)
{
	if (n == 0)
		return 0;
	double rank = p / 100.0 * (double)(n - 1);
	size_t lo = (size_t)rank;
	if (lo + 1 >= n)
		return sorted[n - 1];
	double frac = rank - (double)lo;
	return sorted[lo] + (sorted[lo + 1] - sorted[lo]) * frac;
}

double stats_percentile_u32(uint32_t *values, size_t n, double p)
{
	if (n == 0)
		return 0;
	qsort(values, n, sizeof(*values), cmp_u32);
	double rank = p / 100.0 * (double)(n - 1);
	size_t lo = (size_t)rank;
	if (lo + 1 >= n)
		return values[n - 1];
	return values[lo] + ((double)values[lo + 1] - values[lo]) * (rank - (double)lo);
}

/* A sorted copy of n values (the caller frees it), NULL without memory. */
static double *sorted_copy(const double *values, size_t n)
{
	double *s = malloc(n * sizeof(*s));

	if (s) {
		memcpy(s, values, n * sizeof(*s));
		stats_sort(s, n);
	}
	return s;
}

int stats_summarize(const double *samples, size_t n, struct stats_summary *out)
{
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return -1;
	double *s = sorted_copy(samples, n);
	if (!s)
		return -1;

	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->n = n;
	out->min = out->best = s[0];
	out->max = s[n - 1];
	out->median = stats_percentile_sorted(s, n, 50);
	out->mean = sum / (double)n;
	if (n > 1 && out->mean > 0) {
		double sq = 0;
		for (size_t i = 0; i < n; i++)
			sq += (s[i] - out->mean) * (s[i] - out->mean);
		out->cv = sqrt(sq / (double)(n - 1)) / out->mean;
	}
	free(s);
	return 0;
}

size_t stats_median_rank(size_t n, double *level)
{
	if (n == 0) {
		*level = 0;
		return 0;
	}
	/* P(X = j) for X ~ Binomial(n, 1/2), from logs: 2^-n itself is 0 past
	 * n = 1074, and a normal approximation misses the exact rank by one
	 * (n = 1001: 469 for 470). */
	double log_all = lgamma((double)n + 1) - (double)n * log(2);
	double cdf = exp(log_all - lgamma((double)n + 1)), cover = 1 - 2 * cdf;
	size_t k = 1;
	for (size_t j = 1; j < (n + 1) / 2; j++) {
		double term = exp(log_all - lgamma((double)j + 1) - lgamma((double)(n - j) + 1));
		double c = 1 - 2 * (cdf + term); /* the coverage of rank j + 1 */
		if (c < 0.95)
			break;
		cdf += term;
		k = j + 1;
		cover = c;
	}
	*level = cover < 0 ? 0 : cover;
	return k;
}

int stats_median_interval(const double *values, size_t n, struct stats_interval *out)
{
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return -1;
	double *s = sorted_copy(values, n);
	if (!s)
		return -1;
	size_t k = stats_median_rank(n, &out->level);
	out->n = n;
	out->median = stats_percentile_sorted(s, n, 50);
	out->low = s[k - 1];
	out->high = s[n - k];
	if (n > 1 && out->median > 0)
		out->spread = (stats_percentile_sorted(s, n, 75) - stats_percentile_sorted(s, n, 25)) / 1.349 / out->median;
	free(s);
	return 0;
}
