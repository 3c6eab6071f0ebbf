/* Clocks for the timed loops: CLOCK_MONOTONIC in ns, and the cycle counter
 * (x86 TSC, read serialized) with its overhead and frequency. On machines
 * without a TSC the "counter" is CLOCK_MONOTONIC in ns, and says so. */
#ifndef KB_CLOCK_H
#define KB_CLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "../common/monotonic.h"

/* The resolution CLOCK_MONOTONIC claims, in ns. */
uint64_t clock_resolution_ns(void);

/* The smallest non-zero step seen between two successive CLOCK_MONOTONIC reads. */
uint64_t clock_granularity_ns(void);

#if defined(__x86_64__) || defined(__i386__)
#define CLOCK_HAVE_TSC 1

/* Start of a timed region: earlier instructions finish before the read, and
 * later ones do not start before it. */
static inline uint64_t counter_start(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* End of a timed region: the measured code has finished before the read.
 * (Not rdtscp: emulators such as valgrind report it in CPUID on CPUs that
 * lack it, and lfence; rdtsc orders the read just as well.) */
static inline uint64_t counter_end(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

#else
#define CLOCK_HAVE_TSC 0

static inline uint64_t counter_start(void)
{
	return clock_now_ns();
}

static inline uint64_t counter_end(void)
{
	return clock_now_ns();
}
#endif

/* What the counter is, for reports. */
struct counter_info {
	int is_tsc;            /* 1: x86 TSC; 0: CLOCK_MONOTONIC ns fallback */
	int has_rdtscp;        /* CPUID reports rdtscp (informative: the reads use lfence; rdtsc) */
	int invariant;         /* CPUID says the TSC runs at a constant rate (1 for the fallback) */
	double hz;             /* ticks per second, calibrated against CLOCK_MONOTONIC */
	double overhead_ticks; /* median of an empty start/end pair, subtracted from every call */
	/* The counter's step: every difference between two reads is a multiple
	 * of it (the GCD of the differences seen; 1 for a TSC that counts every
	 * cycle, ~26 on a VM whose TSC advances in 10 ns steps). */
	double step_ticks;
	/* Reads are rounded down to a multiple of this (KSMBENCH_SIMULATE_TSC_STEP,
	 * for tests of the batched fallback); 0: not simulated. */
	uint64_t simulated_step;
	const char *unit;      /* "TSC cycles" or "ns (CLOCK_MONOTONIC, no TSC)" */
};

/* Calibrates once (about 30 ms) and returns the same values afterwards. */
const struct counter_info *counter_info(void);

/* What the counter is (TSC or not, rdtscp, invariant) from CPUID alone,
 * with hz, overhead_ticks and step_ticks 0: for a command that reports the
 * machine but times nothing with the counter (scan without sampling),
 * which then does not pay for the calibration. The calibrated values once
 * counter_info has run. */
const struct counter_info *counter_identity(void);

/* A measuring process started by another ksmbench takes its calibration
 * (hz, overhead, step) instead of calibrating again: every process of a
 * run converts ticks the same way. */
void counter_info_adopt(double hz, double overhead_ticks, double step_ticks);

/* Reads rounded down to multiples of step from now on, and step taken as
 * the counter's (tests of the batched fallback; 0 turns it off and keeps
 * the step measured). */
void counter_info_simulate_step(uint64_t step);

/* The step of a counter whose differences are d[0..n) (0s ignored): their
 * greatest common divisor; 0 when every difference is 0. */
uint64_t counter_step_of(const uint64_t *d, size_t n);


#endif
