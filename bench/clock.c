/* Counter calibration: TSC frequency against CLOCK_MONOTONIC, and the cost of
 * an empty pair of reads (see clock.h). */
#include "clock.h"

#include <stdlib.h>

#include "stats.h"

#if CLOCK_HAVE_TSC
#include "../common/cpuid.h"
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

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

uint64_t counter_step_of(const uint64_t *d, size_t n)
{
	uint64_t g = 0;

	for (size_t i = 0; i < n; i++)
		g = gcd(g, d[i]);
	return g;
}

/* KSMBENCH_SIMULATE_TSC_STEP=N: reads rounded down to multiples of N. */
static uint64_t simulated_step(void)
{
	const char *s = getenv("KSMBENCH_SIMULATE_TSC_STEP");
	char *end;
	unsigned long long v = s ? strtoull(s, &end, 10) : 0;

	return s && *s && *end == '\0' && v > 1 && v < 1000000000 ? (uint64_t)v : 0;
}

static uint64_t quantized(uint64_t ticks)
{
	return info.simulated_step ? ticks - ticks % info.simulated_step : ticks;
}

/* Differences between successive reads, quantized as the timed loop sees them. */
static double measure_step(void)
{
	enum { READS = 2000 };
	static uint64_t d[READS];
	uint64_t prev = quantized(counter_start());

	for (int i = 0; i < READS; i++) {
		uint64_t now = quantized(counter_start());
		d[i] = now - prev;
		prev = now;
	}
	uint64_t g = counter_step_of(d, READS);
	if (info.simulated_step && g < info.simulated_step) /* reads closer than a simulated step */
		g = info.simulated_step;
	return g ? (double)g : 1;
}

void counter_info_simulate_step(uint64_t step)
{
	static double measured;

	counter_info();
	if (!info.simulated_step)
		measured = info.step_ticks;
	info.simulated_step = step;
	info.step_ticks = step ? (double)step : measured;
}

void counter_info_adopt(double hz, double overhead_ticks, double step_ticks)
{
	counter_info();
	info.hz = hz;
	info.overhead_ticks = overhead_ticks;
	info.step_ticks = step_ticks;
}

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

static void identify(struct counter_info *ci)
{
#if CLOCK_HAVE_TSC
	unsigned r[4];
	ci->is_tsc = 1;
	ci->unit = "TSC cycles";
	if (kb_cpuid(0x80000001u, 0, r))
		ci->has_rdtscp = (r[3] >> 27) & 1;
	if (kb_cpuid(0x80000007u, 0, r))
		ci->invariant = (r[3] >> 8) & 1;
#else
	ci->is_tsc = 0;
	ci->invariant = 1;
	ci->unit = "ns (CLOCK_MONOTONIC, no TSC)";
#endif
}

const struct counter_info *counter_identity(void)
{
	static struct counter_info id;

	if (calibrated)
		return &info;
	identify(&id);
	return &id;
}

const struct counter_info *counter_info(void)
{
	enum { PAIRS = 4001 };
	static uint64_t d[PAIRS];

	if (calibrated)
		return &info;
	info.simulated_step = simulated_step();
	identify(&info);
#if CLOCK_HAVE_TSC
	/* Five spans of 6 ms; the median rejects the odd disturbed one. */
	double hz[5];
	for (int i = 0; i < 5; i++)
		hz[i] = measure_hz(6000000u);
	stats_sort(hz, 5);
	info.hz = hz[2];
#else
	info.hz = 1e9;
#endif
	for (int i = 0; i < PAIRS; i++) {
		uint64_t s = quantized(counter_start());
		uint64_t t = quantized(counter_end());
		d[i] = t - s;
	}
	qsort(d, PAIRS, sizeof(d[0]), cmp_u64);
	info.overhead_ticks = (double)d[PAIRS / 2];
	info.step_ticks = measure_step();
	calibrated = 1;
	return &info;
}
