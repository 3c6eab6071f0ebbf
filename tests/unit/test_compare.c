/* Unit tests of compare's statistic: the Mann-Whitney U test (exact values
 * from the counting definition); and how its inconclusive reasons are split. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../bench/rank_test.h"
#include "../../common/prng.h"
#include "../../report/compare_reasons.h"
#include "check.h"
#include "groups.h"

/* P(U <= u) by brute force: every way to choose which m of the m + n
 * ranks belong to the first sample (bitmasks), U counted directly. */
static double brute_cdf(unsigned m, unsigned n, double u)
{
	unsigned total = m + n, hits = 0, all = 0;

	for (unsigned mask = 0; mask < (1u << total); mask++) {
		if ((unsigned)__builtin_popcount(mask) != m)
			continue;
		unsigned uu = 0;
		for (unsigned i = 0; i < total; i++)
			for (unsigned j = 0; j < total; j++)
				uu += (mask >> i & 1) && !(mask >> j & 1) && i > j;
		all++;
		hits += uu <= u;
	}
	return (double)hits / all;
}

static double brute_u(const double *a, size_t m, const double *b, size_t n);

/* The two-sided p of a's U by every split of the pooled values into m and
 * n (at most 12 values): the share of splits whose U lies as far from
 * m n / 2 as a's does. */
static double brute_tied_p(const double *a, size_t m, const double *b, size_t n)
{
	double pool[12], x[12], y[12], far = fabs(brute_u(a, m, b, n) - (double)(m * n) / 2);
	unsigned total = 0, hit = 0;

	for (size_t i = 0; i < m + n; i++)
		pool[i] = i < m ? a[i] : b[i - m];
	for (unsigned mask = 0; mask < 1u << (m + n); mask++) {
		size_t nx = 0, ny = 0;
		for (size_t i = 0; i < m + n; i++)
			if (mask >> i & 1)
				x[nx++] = pool[i];
			else
				y[ny++] = pool[i];
		if (nx != m)
			continue;
		total++;
		hit += fabs(brute_u(x, m, y, n) - (double)(m * n) / 2) >= far - 1e-9;
	}
	return (double)hit / total;
}

void test_compare_rank_test(void)
{
	struct rank_test t;

	/* Fully separated samples: p = 2 / C(m + n, m). */
	double a3[] = { 10, 11, 12 }, b3[] = { 1, 2, 3 };
	CHECK(rank_test_run(a3, 3, b3, 3, &t) == 0 && t.exact && t.u == 9);
	CHECK(fabs(t.p - 0.1) < 1e-12);
	double a4[] = { 10, 11, 12, 13 }, b4[] = { 1, 2, 3, 4 };
	CHECK(rank_test_run(b4, 4, a4, 4, &t) == 0 && t.u == 0 && fabs(t.p - 2.0 / 70) < 1e-12);
	double a5[] = { 10, 11, 12, 13, 14 }, b5[] = { 1, 2, 3, 4, 5 };
	CHECK(rank_test_run(a5, 5, b5, 5, &t) == 0 && fabs(t.p - 2.0 / 252) < 1e-12);
	/* Interleaved: U = 12.5 is the mean, p = 1. */
	double c5[] = { 1, 3, 5, 7, 9 }, d5[] = { 2, 4, 6, 8, 10 };
	CHECK(rank_test_run(c5, 5, d5, 5, &t) == 0 && t.u == 10 && t.p > 0.6);
	/* The exact tail against brute force, for several sizes and U. */
	for (unsigned m = 1; m <= 5; m++)
		for (unsigned n = 1; n <= 5; n++) {
			double x[5], y[5];
			/* First sample below all but k of the second: U = k * m... build U = k directly. */
			for (unsigned k = 0; k <= n; k++) {
				for (unsigned i = 0; i < m; i++)
					x[i] = (double)i * 0.01 + (double)(n - k) + 0.5; /* above n - k of y */
				for (unsigned j = 0; j < n; j++)
					y[j] = (double)j + 1;
				CHECK(rank_test_run(x, m, y, n, &t) == 0 && t.exact);
				double u = t.u, lo = u < m * n / 2.0 ? u : m * n - u;
				double want = 2 * brute_cdf(m, n, lo);
				CHECK(fabs(t.p - (want > 1 ? 1 : want)) < 1e-9);
			}
		}
	CHECK(fabs(rank_test_min_p(4, 4) - 2.0 / 70) < 1e-12);
	CHECK(rank_test_min_p(3, 4) > 0.05 && rank_test_min_p(3, 5) < 0.05);
	CHECK(rank_test_min_p(1, 1) == 1);
	/* Ties: the exact conditional distribution (mid-ranks), against every
	 * split of the pooled values counted; the normal approximation gave
	 * 0.0131 and 0.0325 for the two below (helper-19's exact reference:
	 * 2/70 and 4/70). */
	double t1[] = { 1, 1, 1, 1 }, t2[] = { 2, 2, 2, 2 }, t3[] = { 1, 1, 1, 2 }, t4[] = { 2, 3, 3, 3 };
	CHECK(rank_test_run(t1, 4, t2, 4, &t) == 0 && t.exact && fabs(t.p - 2.0 / 70) < 1e-12);
	CHECK(rank_test_run(t3, 4, t4, 4, &t) == 0 && t.exact && fabs(t.p - 4.0 / 70) < 1e-12);
	double e[] = { 5, 5, 5, 6, 7 }, f[] = { 5, 5, 1, 2, 3 };
	CHECK(rank_test_run(e, 5, f, 5, &t) == 0 && t.exact && fabs(t.p - brute_tied_p(e, 5, f, 5)) < 1e-12);
	double e2[] = { 2, 2, 4, 4, 4, 9 }, f2[] = { 1, 2, 4, 4, 7 };
	CHECK(rank_test_run(e2, 6, f2, 5, &t) == 0 && t.exact && fabs(t.p - brute_tied_p(e2, 6, f2, 5)) < 1e-12);
	double g[] = { 3, 3, 3 }, h[] = { 3, 3, 3 };
	CHECK(rank_test_run(g, 3, h, 3, &t) == 0 && t.p == 1);
	/* Large samples: normal approximation, separated samples give a tiny p. */
	double big_a[30], big_b[30];
	for (unsigned i = 0; i < 30; i++) {
		big_a[i] = 100 + i;
		big_b[i] = i;
	}
	CHECK(rank_test_run(big_a, 30, big_b, 30, &t) == 0 && !t.exact && t.p < 1e-9);
	/* The approximation's value itself, with its continuity correction:
	 * odd 1..41 against even 2..42, U = 210 of 441, z = (10.5 - 0.5) /
	 * sqrt(1580.25); and with ties, whose groups shrink the variance
	 * (1..3 against 2..4, seven times each: U = 98, var 1449.38). */
	double odd[21], even[21], low[21], high[21];
	for (unsigned i = 0; i < 21; i++) {
		odd[i] = 2 * i + 1;
		even[i] = 2 * i + 2;
		low[i] = 1 + i % 3;
		high[i] = 2 + i % 3;
	}
	CHECK(rank_test_run(odd, 21, even, 21, &t) == 0 && !t.exact && t.u == 210 &&
	      fabs(t.p - 0.8013831883084928) < 1e-12);
	CHECK(rank_test_run(low, 21, high, 21, &t) == 0 && !t.exact && t.u == 98 &&
	      fabs(t.p - 0.0013527023775183023) < 1e-12);
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* Whether the interval of b / a at 1 - alpha is the k-th smallest and
 * k-th largest of every pairwise ratio, listed and sorted. */
static int interval_at_rank(const double *a, size_t m, const double *b, size_t n, double alpha, size_t k)
{
	double lo, hi, *r = malloc(m * n * sizeof(*r));
	size_t c = 0;

	if (!r || rank_test_ratio_interval(a, m, b, n, alpha, &lo, &hi) != 0) {
		free(r);
		return 0;
	}
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			r[c++] = b[j] / a[i];
	qsort(r, c, sizeof(r[0]), by_value);
	int ok = fabs(lo - r[k - 1]) < 1e-9 && fabs(hi - r[c - k]) < 1e-9;
	free(r);
	return ok;
}

/* The shift's interval against every pairwise ratio listed and sorted, at
 * the rank the U tables give. */
void test_compare_ratio_interval(void)
{
	double a[12], b[12], lo, hi;

	for (unsigned i = 0; i < 12; i++) {
		a[i] = 10 + 0.02 * i + (i % 3) * 0.05;
		b[i] = (i % 2 ? 0.88 : 0.985) * (10 + 0.03 * i);
	}
	/* k: the largest with P(U <= k - 1) <= 0.025; U's two-sided 5% critical
	 * value for 12 and 12 is 37 (the published tables), so k = 38. */
	CHECK(interval_at_rank(a, 12, b, 12, 0.05, 38));
	/* A uniform shift's interval holds it; sizes too small for 95%: none. */
	for (unsigned i = 0; i < 12; i++)
		b[i] = a[i] * 0.9;
	CHECK(rank_test_ratio_interval(a, 12, b, 12, 0.05, &lo, &hi) == 0 && lo < 0.9 && hi > 0.9 && hi < 0.95);
	CHECK(rank_test_ratio_interval(a, 3, b, 3, 0.05, &lo, &hi) == 1);
	double z[] = { 1, 0, 2, 3, 4 };
	CHECK(rank_test_ratio_interval(z, 5, a, 5, 0.05, &lo, &hi) == 1); /* a rate of 0 */
	/* Past 400 pairs the interval's rank is still exact (up to
	 * RANK_TEST_INTERVAL_EXACT_MAX_PRODUCT): 135 for 20 and 21 values. */
	double a20[20], b21[21];
	for (unsigned i = 0; i < 21; i++) {
		if (i < 20)
			a20[i] = 10 + i * 0.37;
		b21[i] = 11 + i * 0.23;
	}
	CHECK(interval_at_rank(a20, 20, b21, 21, 0.05, 135));
	/* 20 x 32 at 10%: the exact rank, 232 (the approximation said 233, a
	 * narrower interval than its level). */
	double b32[32];
	for (unsigned j = 0; j < 32; j++)
		b32[j] = 10.5 + j * 0.21;
	CHECK(interval_at_rank(a20, 20, b32, 32, 0.1, 232));
	/* Large samples: the normal approximation's rank, no m * n list. */
	static double big_a[3000], big_b[3000];
	for (unsigned i = 0; i < 3000; i++) {
		big_a[i] = 100 + (i * 7919 % 3000) * 0.001;
		big_b[i] = big_a[i] * 1.1;
	}
	CHECK(rank_test_ratio_interval(big_a, 3000, big_b, 3000, 0.05, &lo, &hi) == 0 && lo < 1.1 && hi > 1.1 &&
	      hi - lo < 0.002);
}

/* The shift's estimate: the median of every pairwise ratio. Where each
 * run's processes fall in two clusters, the ratio of the two medians can
 * say "unchanged" of a 10% drop of every process; the estimate says 0.9. */
void test_compare_ratio_estimate(void)
{
	double a[20], b[20], r[400], est;

	for (unsigned i = 0; i < 20; i++) {
		/* 9 fast processes of 20 in the base, 11 in the new run: the
		 * medians' ratio is 0.9 * 41 / 34, +8.5% */
		a[i] = (i < 9 ? 41.0 : 34.0) + 0.001 * i;
		b[i] = 0.9 * ((i < 11 ? 41.0 : 34.0) + 0.001 * i);
	}
	CHECK(rank_test_ratio_estimate(a, 20, b, 20, &est) == 0);
	unsigned n = 0;
	for (unsigned i = 0; i < 20; i++)
		for (unsigned j = 0; j < 20; j++)
			r[n++] = b[j] / a[i];
	qsort(r, n, sizeof(r[0]), by_value);
	CHECK(fabs(est - sqrt(r[199] * r[200])) < 1e-12 && fabs(est - 0.9) < 0.01);
	CHECK(rank_test_ratio_estimate(a, 3, b, 1, &est) == 0 && fabs(est - b[0] / a[1]) < 1e-12);
	double z[] = { 1, 0 };
	CHECK(rank_test_ratio_estimate(z, 2, a, 5, &est) == 1 && rank_test_ratio_estimate(a, 0, b, 5, &est) == 1);
}

/* U by its definition, pair by pair (O(m n)): what the sorted ranks give. */
static double brute_u(const double *a, size_t m, const double *b, size_t n)
{
	double u = 0;

	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
	return u;
}

/* The rank test sorts once: U and the tie correction agree with the
 * definition on samples with many ties, and 150k values per side take
 * well under a second (the old pairwise count took minutes). */
void test_compare_rank_large(void)
{
	struct rank_test t;
	uint64_t state = 7;

	for (int trial = 0; trial < 50; trial++) {
		double a[40], b[37];
		for (size_t i = 0; i < 40; i++)
			a[i] = (double)(prng_next(&state) % 9);
		for (size_t j = 0; j < 37; j++)
			b[j] = (double)(prng_next(&state) % 11);
		CHECK(rank_test_run(a, 40, b, 37, &t) == 0 && t.u == brute_u(a, 40, b, 37) && t.p >= 0 && t.p <= 1);
	}
	enum { N = 150000 };
	double *x = malloc(N * sizeof(double)), *y = malloc(N * sizeof(double));
	CHECK(x && y);
	for (size_t i = 0; x && y && i < N; i++) {
		x[i] = (double)(prng_next(&state) % 1000);
		y[i] = (double)(prng_next(&state) % 1000) + 10;
	}
	/* A complexity bound, on this process's CPU time (a shared machine
	 * stretches the wall time): the quadratic tie loop took minutes here. */
	struct timespec t0, t1;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	CHECK(x && y && rank_test_run(x, N, y, N, &t) == 0 && !t.exact && t.p < 0.05);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	CHECK((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9 < 5);
	free(x);
	free(y);
}

/* Inconclusive pairs' reasons, clause by clause (report/compare_reasons.c):
 * split at "; " outside parentheses, sides kept, the clauses every pair has
 * found and taken out. */
void test_compare_reasons(void)
{
	struct compare_pair pairs[3];
	struct compare_outcome o;
	struct compare_clause common[COMPARE_CLAUSES_MAX];
	char buf[1100];

	memset(pairs, 0, sizeof(pairs));
	memset(&o, 0, sizeof(o));
	o.pairs = pairs;
	o.npairs = 3;
	pairs[0].verdict = pairs[1].verdict = VERDICT_INCONCLUSIVE;
	pairs[2].verdict = VERDICT_UNCHANGED;
	snprintf(pairs[0].why, sizeof(pairs[0].why), "new unstable: spread 12%%; 4 of 4 rounds disturbed (busy 1; "
						     "shared-core 3); 9 of the run's 10 rounds disturbed (x)");
	snprintf(pairs[1].why, sizeof(pairs[1].why), "base unstable: 9 of the run's 10 rounds disturbed (x); "
						     "new unstable: 9 of the run's 10 rounds disturbed (x)");
	size_t n = compare_common_clauses(&o, common, COMPARE_CLAUSES_MAX);
	/* The base's clause of the same words is another side's: not common. */
	CHECK(n == 1 && common[0].side == 2);
	compare_clauses_text(common, n, buf, sizeof(buf));
	CHECK(strcmp(buf, "new unstable: 9 of the run's 10 rounds disturbed (x)") == 0);
	compare_why_without(pairs[0].why, common, n, buf, sizeof(buf));
	CHECK(strcmp(buf, "new unstable: spread 12%; 4 of 4 rounds disturbed (busy 1; shared-core 3)") == 0);
	compare_why_without(pairs[1].why, common, n, buf, sizeof(buf));
	CHECK(strcmp(buf, "base unstable: 9 of the run's 10 rounds disturbed (x)") == 0);
	/* A reason of neither side (the runs' cores differed) stays whole. */
	compare_why_without("the cores differ (a; b): inconclusive", common, n, buf, sizeof(buf));
	CHECK(strcmp(buf, "the cores differ (a; b): inconclusive") == 0);
	/* One inconclusive pair: nothing to say once. */
	pairs[1].verdict = VERDICT_REGRESSION;
	CHECK(compare_common_clauses(&o, common, COMPARE_CLAUSES_MAX) == 0);
}
