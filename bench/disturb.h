/* Which rounds were disturbed: a round is when one of its interference
 * figures (bench/interference.h) crosses its threshold. Disturbed rounds
 * stay in the results (and the JSON), but the estimate leaves them out
 * (bench/estimate.h). The thresholds are documented in docs/measurement.md
 * and written into every results document. */
#ifndef KB_DISTURB_H
#define KB_DISTURB_H

#include "bench.h"

enum {
	DISTURB_BUSY = 1u,     /* the other CPUs were busy (an SMT sibling's load slows vector code) */
	DISTURB_STEAL = 2u,    /* the hypervisor took this CPU */
	DISTURB_OFF_CPU = 4u,  /* the thread was off the CPU (preempted) */
	DISTURB_SWITCHES = 8u, /* involuntary context switches */
	DISTURB_MIGRATED = 16u,/* the thread moved to another CPU */
	DISTURB_CLOCK = 32u,   /* the core clock dropped below the run's usual (median) */
	DISTURB_SHARED = 64u,  /* the core's throughput dropped: an SMT sibling (here or on the host) shared it */
	DISTURB_KINDS = 7
};

struct disturb_thresholds {
	double busy_share;     /* other CPUs' mean busy share above this */
	double steal_share;    /* this CPU's steal time above this share of the round */
	double off_cpu_share;  /* the thread's time off the CPU above this share */
	uint64_t switches;     /* involuntary context switches above this many */
	uint64_t migrations;   /* migrations above this many */
	double clock_drop;     /* effective clock below (1 - this) x the run's reference */
	double throughput_drop; /* the core's throughput below (1 - this) x the result's reference */
};

/* What the clock and throughput of a round are judged against: the median
 * of the rounds' clocks, the upper decile (90th percentile) of their
 * throughputs, both interpolated, over the run's rounds that did not sleep
 * (disturb_reference_of), the throughput then over the result's own
 * (disturb_reference_for). Rounds that slept (the ksmd timer's) are judged
 * by their throughput only, and only where their own upper decile reaches
 * the threshold of the others' decile as measured: where the core wakes
 * slower, as on Zen 3, it does not, and a woken core is not a shared one. */
struct disturb_reference {
	double clock_hz, throughput; /* 0: unknown, not judged */
	double measured;             /* the throughput's upper decile as the rounds read it */
	double floor;                /* a free core's throughput at clock_hz (0: unknown): throughput's least */
	double woken;                /* the upper decile of the rounds that slept, as they read it (0: none) */
};

extern const struct disturb_thresholds disturb_default;

/* The DISTURB_* bits of r against t and a reference (NULL: no clock or
 * throughput test; a round that slept has neither). Unknown figures never
 * disturb. */
unsigned disturb_round(const struct bench_round *r, const struct disturb_reference *ref,
		       const struct disturb_thresholds *t);

/* Whether round q's core was shared from outside this machine (a VM's
 * host): shared-core with this machine's other CPUs measured and not busy,
 * and no time off this CPU or switch away (those mean another program here
 * took it). */
int disturb_shared_from_outside(const struct bench_round *q);

/* The name of bit i (0..DISTURB_KINDS-1): "busy", "steal", "off-cpu",
 * "switches", "migrated", "clock", "shared-core". */
const char *disturb_name(unsigned i);

/* That reference over every round of n results (the maximum of each if
 * memory runs out), the throughput raised to the floor of free_core
 * additions per cycle at the clock (0: no floor; bench/free_core.h). */
struct disturb_reference disturb_reference_of(const struct bench_result *results, size_t n, double free_core);

/* Whether the run's upper decile itself reads more than t's throughput
 * drop under the floor (a round at it is shared-core): its core was shared
 * for the whole run. A run raised by less marks nothing and is not. */
int disturb_reference_shared_throughout(const struct disturb_reference *ref, const struct disturb_thresholds *t);

/* Whether the rounds that slept are judged by their throughput: their
 * upper decile is within t's throughput drop of the others' as measured
 * (the core wakes at full width). */
int disturb_reference_woken_judged(const struct disturb_reference *ref, const struct disturb_thresholds *t);

/* The share of the run's throughput reference below which a result's own
 * may not go (disturb_reference_for). */
#define DISTURB_OWN_FLOOR 0.75

/* What r's rounds are judged against: the run's clock, and the upper
 * decile of r's own rounds' throughputs (of those that slept, when r's
 * did), kept within DISTURB_OWN_FLOOR to 1 times the run's and not under
 * the free core's floor. */
struct disturb_reference disturb_reference_for(const struct disturb_reference *run, const struct bench_result *r);

#endif
