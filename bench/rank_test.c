/* Mann-Whitney U test (see rank_test.h). The exact null distribution comes
 * from the recurrence on the number of arrangements of m + n ranks: the
 * largest rank belongs to the first sample (adding n to U) with probability
 * m / (m + n), else to the second; P(U = u | m, n) follows, row by row. */
#include "rank_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double rank_test_min_p(size_t m, size_t n)
{
	double c = 1; /* C(m + n, m), as a double: the sizes here are small */

	for (size_t i = 1; i <= m; i++)
		c = c * (double)(n + i) / (double)i;
	return c > 2 ? 2 / c : 1;
}

/* P(U = k) for k = 0..m*n under the null hypothesis, malloc'd (NULL on no
 * memory). dist[j][k] over k = 0..j*n for j items of the first sample,
 * built up by the number of items of the second (i = 0..n). U's
 * distribution is the same for sizes m, n and n, m, so the table is built
 * over the smaller: 2 x (m + 1) x (mn + 1) values (5000 x 2 took 783 MB
 * the other way round). */
static double *exact_pmf(size_t m, size_t n)
{
	if (m > n) {
		size_t t = m;
		m = n;
		n = t;
	}
	size_t width = m * n + 1;
	/* p[j * width + k]: P(U = k | j, i) for the current i. */
	double *p = calloc((m + 1) * width, sizeof(double));
	double *q = calloc((m + 1) * width, sizeof(double));

	if (!p || !q) {
		free(p);
		free(q);
		return NULL;
	}
	/* i = 0: U is 0 whatever j. */
	for (size_t j = 0; j <= m; j++)
		p[j * width] = 1;
	for (size_t i = 1; i <= n; i++) {
		memset(q, 0, (m + 1) * width * sizeof(double));
		q[0] = 1; /* j = 0 */
		for (size_t j = 1; j <= m; j++) {
			double pj = (double)j / (double)(j + i), pi = (double)i / (double)(j + i);
			for (size_t k = 0; k <= j * i; k++) {
				/* Largest rank in the first sample: it beats all i of the second. */
				double v = k >= i ? pj * q[(j - 1) * width + k - i] : 0;
				/* In the second: U unchanged, one fewer of the second. */
				v += pi * p[j * width + k];
				q[j * width + k] = v;
			}
		}
		double *t = p;
		p = q;
		q = t;
	}
	memmove(p, p + m * width, width * sizeof(double));
	free(q);
	return p;
}

/* P(U <= u) for sizes m, n under the null hypothesis, or -1 on no memory. */
static double exact_cdf(size_t m, size_t n, double u)
{
	double *pmf = exact_pmf(m, n), cdf = 0;

	if (!pmf)
		return -1;
	for (size_t k = 0; k <= m * n && (double)k <= u + 1e-9; k++)
		cdf += pmf[k];
	free(pmf);
	return cdf;
}

/* The standard normal quantile at 1 - tail (0 < tail < 0.5), by bisection
 * on erfc: a few dozen steps, once per comparison. */
static double normal_upper_quantile(double tail)
{
	double lo = 0, hi = 40;

	for (int i = 0; i < 80; i++) {
		double mid = (lo + hi) / 2;
		if (erfc(mid / sqrt(2)) / 2 > tail)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* k of the interval into *k: the largest k >= 1 with P(U <= k - 1) <=
 * alpha / 2 (exact), or its normal approximation; 0 when none (too few
 * values). -1 if memory runs out. */
static int interval_rank(size_t m, size_t n, double alpha, size_t *k)
{
	size_t mn = m * n;

	*k = 0;
	if (mn <= RANK_TEST_INTERVAL_EXACT_MAX_PRODUCT) {
		double *pmf = exact_pmf(m, n), cdf = 0;
		if (!pmf)
			return -1;
		while (*k < mn && cdf + pmf[*k] <= alpha / 2 + 1e-12)
			cdf += pmf[(*k)++];
		free(pmf);
		return 0; /* P(U <= k - 1) = cdf <= alpha / 2 */
	}
	/* Only documents beyond what a run writes get here (100 processes a
	 * side at most: 10,000 pairs). P(U <= k - 1) ~ Phi((k - 1/2 - mn/2) /
	 * sd), with the continuity correction, less one rank: at 10% and 20%
	 * the approximation alone was one rank narrower than the exact in 45
	 * of the sizes 2-44 x 2-59 (20 x 32 at 10%: 233 against 232). With one
	 * side much smaller than the other it is narrower still (20 x 5000 at
	 * 20%: 41709 against 41682; 1 x 10001: 1299 against 1000), and with
	 * one value a side at 5% or less it gives none. */
	double z = normal_upper_quantile(alpha / 2);
	double r = floor((double)mn / 2 - z * sqrt((double)mn * (double)(m + n + 1) / 12) + 0.5) - 1;
	*k = r >= 1 ? (size_t)r : 0;
	return 0;
}

static int by_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* Pairs (i, j) with y[j] - x[i] <= t, x and y sorted: O(m + n). */
static size_t pairs_at_most(const double *x, size_t m, const double *y, size_t n, double t)
{
	size_t count = 0, j = 0;

	for (size_t i = 0; i < m; i++) { /* x[i] rising: the y[j] <= x[i] + t only grow */
		while (j < n && y[j] - x[i] <= t)
			j++;
		count += j;
	}
	return count;
}

/* The k-th smallest (1-based) of the m * n differences y[j] - x[i], by
 * bisection on the value with a count per step (O((m + n) log), where
 * listing the pairs would take m * n: 150000 processes a side are 2e10). */
static double kth_difference(const double *x, size_t m, const double *y, size_t n, size_t k)
{
	double lo = y[0] - x[m - 1], hi = y[n - 1] - x[0]; /* count(lo) >= 1, count(hi) = m * n */

	if (pairs_at_most(x, m, y, n, lo) >= k)
		return lo;
	for (int step = 0; step < 200 && hi > lo; step++) {
		double mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			break;
		if (pairs_at_most(x, m, y, n, mid) >= k)
			hi = mid;
		else
			lo = mid;
	}
	return hi; /* the smallest value (to the last bit) with at least k pairs at or below it */
}

/* out[] = the logs of v[0..n), sorted; 1 if a value is not positive. */
static int logs_sorted(const double *v, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return 1;
		out[i] = log(v[i]);
	}
	qsort(out, n, sizeof(*out), by_double);
	return 0;
}

/* The sorted logs of both samples, for the ratios of their pairs: 0, 1
 * when a value is not positive, -1 on no memory (*x, *y freed then). */
static int log_samples(const double *a, size_t m, const double *b, size_t n, double **x, double **y)
{
	*x = malloc(m * sizeof(**x));
	*y = malloc(n * sizeof(**y));
	int rc = !*x || !*y ? -1 : logs_sorted(a, m, *x) || logs_sorted(b, n, *y);

	if (rc) {
		free(*x);
		free(*y);
	}
	return rc;
}

int rank_test_ratio_interval(const double *a, size_t m, const double *b, size_t n, double alpha, double *lo,
			     double *hi)
{
	size_t k = 0;
	double *x, *y;

	if (m && n && interval_rank(m, n, alpha, &k))
		return -1;
	if (k == 0)
		return 1;
	int rc = log_samples(a, m, b, n, &x, &y);
	if (rc)
		return rc;
	*lo = exp(kth_difference(x, m, y, n, k));
	*hi = exp(kth_difference(x, m, y, n, m * n + 1 - k));
	free(x);
	free(y);
	return 0;
}

int rank_test_ratio_estimate(const double *a, size_t m, const double *b, size_t n, double *ratio)
{
	double *x, *y;

	if (m == 0 || n == 0)
		return 1;
	int rc = log_samples(a, m, b, n, &x, &y);
	if (rc)
		return rc;
	size_t mn = m * n;
	double mid = kth_difference(x, m, y, n, (mn + 1) / 2);
	if (mn % 2 == 0) /* the two middle ratios' geometric mean */
		mid = (mid + kth_difference(x, m, y, n, mn / 2 + 1)) / 2;
	*ratio = exp(mid);
	free(x);
	free(y);
	return 0;
}

/* A value of the pooled sample and which sample it came from. */
struct pooled {
	double v;
	int first;
};

static int by_value(const void *x, const void *y)
{
	double a = ((const struct pooled *)x)->v, b = ((const struct pooled *)y)->v;
	return (a > b) - (a < b);
}

/* U of the first sample and the tie groups (their sizes in sizes[], their
 * count in *ngroups), from the pooled sample sorted once: a tie group of t
 * values at ranks r+1..r+t gets their mean rank. O((m + n) log(m + n)). */
static int rank_sums(const double *a, size_t m, const double *b, size_t n, double *u, double *tie_sum, int *ties,
		     size_t *sizes, size_t *ngroups)
{
	size_t total = m + n;
	struct pooled *all = malloc(total * sizeof(*all));
	double r1 = 0;

	if (!all)
		return -1;
	for (size_t i = 0; i < m; i++)
		all[i] = (struct pooled){ a[i], 1 };
	for (size_t j = 0; j < n; j++)
		all[m + j] = (struct pooled){ b[j], 0 };
	qsort(all, total, sizeof(*all), by_value);
	*tie_sum = 0;
	*ties = 0;
	*ngroups = 0;
	for (size_t i = 0; i < total;) {
		size_t e = i, firsts = 0;
		while (e < total && all[e].v == all[i].v)
			firsts += (size_t)all[e++].first;
		double t = (double)(e - i), mean_rank = ((double)i + 1 + (double)e) / 2;
		sizes[(*ngroups)++] = e - i;
		r1 += mean_rank * (double)firsts;
		if (e - i > 1) {
			*ties = 1;
			*tie_sum += t * t * t - t;
		}
		i = e;
	}
	free(all);
	*u = r1 - (double)m * ((double)m + 1) / 2;
	return 0;
}

static double choose(size_t t, size_t c)
{
	double r = 1;

	for (size_t i = 1; i <= c; i++)
		r = r * (double)(t - c + i) / (double)i;
	return r;
}

/* The exact two-sided p of U = u given the tie groups of the pooled sample
 * (mid-ranks): every choice of which m of the m + n values are the first
 * sample's is equally likely, and a group of t values of which c are the
 * first sample's adds c times the second's values below it, plus c (t - c)
 * / 2. Counted over (first-sample values so far, 2U), group by group.
 * Without ties it is the recurrence's distribution; with them the normal
 * approximation was up to 2.5 times too small a p on 4 and 4 values.
 * -1 on no memory. */
static double exact_p_tied(const size_t *sizes, size_t ngroups, size_t m, size_t n, double u)
{
	size_t w = 2 * m * n + 1, before = 0;
	double *p = calloc((m + 1) * w, sizeof(double)), *q = calloc((m + 1) * w, sizeof(double));
	double *ways = malloc((m + 1) * sizeof(double)); /* C(t, c) of the group, c <= m */

	if (!p || !q || !ways) {
		free(p);
		free(q);
		free(ways);
		return -1;
	}
	p[0] = 1;
	for (size_t g = 0; g < ngroups; g++) {
		size_t t = sizes[g];
		for (size_t c = 0; c <= t && c <= m; c++)
			ways[c] = choose(t, c);
		memset(q, 0, (m + 1) * w * sizeof(double));
		for (size_t j = 0; j <= m && j <= before; j++) {
			size_t seconds = before - j; /* the second sample's values below the group */
			if (seconds > n)
				continue;
			for (size_t x = 0; x < w; x++) {
				if (p[j * w + x] == 0)
					continue;
				for (size_t c = 0; c <= t && j + c <= m; c++)
					if (seconds + (t - c) <= n)
						q[(j + c) * w + x + 2 * c * seconds + c * (t - c)] += p[j * w + x] * ways[c];
			}
		}
		double *swap = p;
		p = q;
		q = swap;
		before += t;
	}
	double far = fabs(2 * u - (double)(m * n)), hit = 0;
	for (size_t x = 0; x < w; x++)
		if (fabs((double)x - (double)(m * n)) >= far - 1e-9)
			hit += p[m * w + x];
	free(p);
	free(q);
	free(ways);
	hit /= choose(m + n, m);
	return hit > 1 ? 1 : hit;
}

int rank_test_run(const double *a, size_t m, const double *b, size_t n, struct rank_test *out)
{
	size_t total = m + n;
	int ties = 0;
	double tie_sum = 0; /* sum of t^3 - t over groups of tied values */

	memset(out, 0, sizeof(*out));
	out->p = 1;
	if (m == 0 || n == 0)
		return 0;
	size_t *sizes = malloc(total * sizeof(*sizes)), ngroups = 0;
	if (!sizes || rank_sums(a, m, b, n, &out->u, &tie_sum, &ties, sizes, &ngroups)) {
		free(sizes);
		return -1;
	}

	double mean = (double)m * (double)n / 2;
	double lo = out->u < mean ? out->u : (double)m * (double)n - out->u; /* the smaller tail's U */
	if (m * n <= RANK_TEST_EXACT_MAX_PRODUCT) {
		double p = ties ? exact_p_tied(sizes, ngroups, m, n, out->u) : 2 * exact_cdf(m, n, lo);
		free(sizes);
		if (p < 0)
			return -1;
		out->exact = 1;
		out->p = p > 1 ? 1 : p;
		return 0;
	}
	free(sizes);
	double nn = (double)total;
	double var = (double)m * (double)n / 12 * ((nn + 1) - tie_sum / (nn * (nn - 1)));
	if (var <= 0) /* every value equal */
		return 0;
	double z = (fabs(out->u - mean) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	out->p = erfc(z / sqrt(2));
	if (out->p > 1)
		out->p = 1;
	return 0;
}
