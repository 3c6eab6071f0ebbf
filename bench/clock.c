/* Counter calibration: TSC frequency against CLOCK_MONOTONIC, and the cost of
 * an empty pair of reads (see clock.h). */
#include "clock.h"

#include <stdlib.h>

#include "stats.h"

#if CLOCK_HAVE_TSC
#include <cpuid.h>
#endif

uint64_t clock_resolution_ns(void)
{
	struct timespec ts;

	if (clock_getres(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t clock_granularity_ns(void)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 200; i++) {
		uint64_t a = clock_now_ns(), b;
		while ((b = clock_now_ns()) == a)
			;
		if (b - a < best)
			best = b - a;
	}
	return best;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static struct counter_info info;
static int calibrated;

#if CLOCK_HAVE_TSC
/* A CLOCK_MONOTONIC reading and the counter at the same moment: the clock
 * read bracketed by two counter reads, the tightest bracket of several tries
 * (a preemption inside a bracket would shift the pairing by its length). */
static void paired_read(uint64_t *ns, double *ticks)
{
	uint64_t best_width = UINT64_MAX;

	for (int i = 0; i < 16; i++) {
		uint64_t a = counter_start(), t = clock_now_ns(), b = counter_start();
		if (b - a < best_width) {
			best_width = b - a;
			*ns = t;
			*ticks = (double)a + (double)(b - a) / 2;
		}
	}
}

/* Ticks per second over a CLOCK_MONOTONIC interval of span_ns. */
static double measure_hz(uint64_t span_ns)
{
	uint64_t t0, t1;
	double c0, c1;

	paired_read(&t0, &c0);
	while (clock_now_ns() - t0 < span_ns)
		;
	paired_read(&t1, &c1);
	return (c1 - c0) * 1e9 / (double)(t1 - t0);
}

#endif

const struct counter_info *counter_info(void)
{
	enum { PAIRS = 4001 };
	static uint64_t d[PAIRS];

	if (calibrated)
		return &info;
#if CLOCK_HAVE_TSC
	unsigned a, b, c, e;
	info.is_tsc = 1;
	info.unit = "TSC cycles";
	if (__get_cpuid(0x80000001, &a, &b, &c, &e))
		info.has_rdtscp = (e >> 27) & 1;
	if (__get_cpuid(0x80000007, &a, &b, &c, &e))
		info.invariant = (e >> 8) & 1;
	/* Five spans of 6 ms; the median rejects the odd disturbed one. */
	double hz[5];
	for (int i = 0; i < 5; i++)
		hz[i] = measure_hz(6000000u);
	stats_sort(hz, 5);
	info.hz = hz[2];
#else
	info.is_tsc = 0;
	info.invariant = 1;
	info.unit = "ns (CLOCK_MONOTONIC, no TSC)";
	info.hz = 1e9;
#endif
	for (int i = 0; i < PAIRS; i++) {
		uint64_t s = counter_start();
		uint64_t t = counter_end();
		d[i] = t - s;
	}
	qsort(d, PAIRS, sizeof(d[0]), cmp_u64);
	info.overhead_ticks = (double)d[PAIRS / 2];
	calibrated = 1;
	return &info;
}
