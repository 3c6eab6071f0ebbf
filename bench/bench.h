/* Measuring one hash over one page set with one timer: warm-up, repeated
 * rounds, statistics (measure.c, one file per timer behind timer.h).
 * Results are values; nothing here prints. run.h measures a list of hashes
 * over a plan of page sets. */
#ifndef KB_BENCH_H
#define KB_BENCH_H

#include <stdint.h>

#include "../datasets/page_set.h"
#include "../hashes/hash.h"
#include "stats.h"
#include "stop.h"

enum bench_timer {
	BENCH_TIMER_WINDOW,  /* calls counted in a CLOCK_MONOTONIC window */
	BENCH_TIMER_JIFFIES, /* the kernel self-test: HZ>>3 emulated jiffies */
	BENCH_TIMER_RDTSC,   /* every call timed with serialized TSC reads */
	BENCH_TIMER_KSMD,    /* ksmd's duty cycle: pages_to_scan pages, then sleep_millisecs asleep */
	BENCH_TIMERS
};

const char *bench_timer_name(enum bench_timer t);
/* The name, " apart" after it for calls apart (bench_config.apart). */
const char *bench_timer_label(enum bench_timer t, int apart);
int bench_timer_parse(const char *name, enum bench_timer *out, struct kb_err *err);

#define BENCH_WINDOW_NS_DEFAULT 125000000u
#define BENCH_REPEAT_DEFAULT 5u
#define BENCH_HZ_DEFAULT 250u
#define BENCH_RDTSC_CALLS_MAX (1u << 18) /* per round: bounds the sample memory */
#define BENCH_REPEAT_MAX 1000u            /* rounds per measurement; each round's figure is kept */
#define BENCH_RDTSC_STEP_SHARE 0.01       /* the counter's step may be this share of a timed sample */
#define BENCH_RDTSC_BATCH_MAX 4096u       /* calls per timed sample at most */

/* Calls per timed sample for a counter of step_ticks and calls of
 * call_ticks: 1 when the step is at most 0.5% of a call, else enough calls
 * that it is 0.5% of the batch (at most BENCH_RDTSC_BATCH_MAX): under 1%
 * even when the estimate of a call is off by a factor of 2. */
uint64_t bench_rdtsc_batch(double step_ticks, double call_ticks);

struct bench_config {
	enum bench_timer timer;
	uint64_t window_ns;  /* window length; a round's length for rdtsc */
	uint64_t warmup_ns;  /* untimed calls before each round of a run (bench_measure: before the first) */
	unsigned repeat;     /* rounds (per process, in a run of several) */
	unsigned hz;         /* jiffies: emulated CONFIG_HZ */
	int align_tick;      /* jiffies: start on a tick edge (raid6), not anywhere (the KSM patch) */
	int clean_vector_state; /* vzeroupper before and after the hash's rounds */
	unsigned ksmd_pages;    /* ksmd: pages hashed per cycle (KSM's pages_to_scan) */
	unsigned ksmd_sleep_ms; /* ksmd: the sleep between cycles (KSM's sleep_millisecs) */
	int apart;              /* a fence after each call (bench/fence.h); not with jiffies */
};

#define BENCH_KSMD_PAGES_DEFAULT 100u   /* the kernel's pages_to_scan */
#define BENCH_KSMD_SLEEP_MS_DEFAULT 20u /* the kernel's sleep_millisecs */
#define BENCH_KSMD_PAGES_MAX 100000u
#define BENCH_KSMD_SLEEP_MS_MAX 10000u
#define BENCH_KSMD_CYCLES_MAX 4096u     /* per round */

/* Defaults: window, 125 ms, 5 rounds, HZ 250, clean vector state. */
void bench_config_default(struct bench_config *cfg);

/* Whether cfg can be measured here: its rounds, and calls apart with a
 * timer and a fence that allow them. 0, or -1 with err. */
int bench_config_check(const struct bench_config *cfg, struct kb_err *err);

/* Whether calls under timer t go apart unless asked otherwise: the ksmd
 * timer's do, as ksmd's own calls have its other work between them
 * (docs/measurement.md, "Calls apart"), where this machine has a fence. */
int bench_apart_by_default(enum bench_timer t);

/* Whether a cold set measured with cfg's timer can be made cold by flushing
 * (page_set_request.flushed): the ksmd timer, where the CPU lets user code
 * flush cache lines. */
int bench_timer_flushes(const struct bench_config *cfg);

/* One round as measured: its figure, where it stands in the run, and what
 * else happened on the machine meanwhile (bench/interference.h), from
 * which bench/disturb.h tells whether it was disturbed. */
struct bench_round {
	unsigned process;   /* the measuring process, from 0 */
	unsigned round;     /* the measurement's round in that process, from 0 */
	unsigned sequence;  /* the round's slot among every round that process timed, from 0 */
	double ns_per_page; /* window, jiffies: elapsed / calls; rdtsc: the round's median call */
	uint64_t calls;
	double elapsed_ns;  /* the timed part: the window (window, jiffies), first to last read (rdtsc) */
	/* window, jiffies: per call over the batches no interruption met
	 * (bench/batch_log.h); 0 where not logged. */
	double uninterrupted_ns_per_page;
	/* rdtsc: per-call counter ticks over the round's samples, the timer's
	 * overhead subtracted and a batch's ticks shared among its calls. */
	double ticks_p10, ticks_median, ticks_p90, ticks_mean;
	uint64_t batch;     /* rdtsc: calls per timed sample */
	/* ksmd: the ticks* above are per page over the round's cycles; first_ticks
	 * is the first page after each sleep (median), slept_ns the time asleep
	 * (left out of the round's time off the CPU). */
	double first_ticks, slept_ns;
	unsigned interrupted_pages; /* ksmd: pages of batches left out as interrupted (timed_loop.h) */
	double fence_ns;    /* apart: the fence's cost taken off each fenced call; 0 where none was */
	unsigned known;     /* INTERFERENCE_* bits: the figures below that were measured */
	double other_busy_share, steal_share, off_cpu_share; /* 0..1 of the round */
	uint64_t involuntary_switches, migrations;
	double clock_hz;    /* effective core clock (bench/clock_chain.h) */
	double throughput;  /* the core's independent additions per ns (bench/clock_chain.h) */
	double core_cycles, instructions; /* hardware counters of the thread over the round */
	unsigned disturbed; /* DISTURB_* bits (bench/disturb.h); 0: the estimate uses it */
};

/* The counter the rdtsc timer reads (recorded for every timer). */
struct bench_counter {
	int is_tsc;            /* 1: the TSC; 0: CLOCK_MONOTONIC ns */
	double hz;             /* ticks per second */
	double overhead_ticks; /* subtracted from each timed sample */
	double step_ticks;     /* every difference of two reads is a multiple of it */
};

/* What only the jiffies timer measures, over the rounds used. */
struct bench_jiffies_part {
	unsigned hz, window_jiffies;
	int align_tick;
	long kernel_mb_per_s_best, kernel_mb_per_s_median; /* count * PAGE_SIZE >> 17 */
	double bias_percent_median; /* the kernel figure against the true rate */
	double window_ns_median;    /* the window's true length */
};

/* What only the rdtsc timer measures: per-call ticks, the timer's overhead
 * subtracted; the median follows the headline (over processes), p10, p90
 * and the mean are medians of the used rounds' own. The mean includes
 * interruptions (as a window's wall time does); the percentiles leave them
 * out. A sample is batch_calls calls when the counter's step is over 1% of
 * one call: its percentiles are then of batch means, resolved to
 * resolution_ticks. */
struct bench_rdtsc_part {
	double ticks_per_call_median, ticks_per_call_p10, ticks_per_call_p90, ticks_per_call_mean;
	uint64_t batch_calls;
	double resolution_ticks; /* the counter's step over batch_calls */
};

/* What only the ksmd timer measures, over the rounds used: its settings,
 * the first page after a sleep and the cycle's per-page spread (medians of
 * the rounds' own, in counter ticks). */
struct bench_ksmd_part {
	unsigned pages_to_scan, sleep_ms;
	/* Medians over the rounds kept, taken alike (bench_rounds_median), so
	 * that p10 <= median <= p90 holds: the median beside the headline,
	 * which is of the processes' rates (for two values, their mean: a
	 * harmonic mean of the times, below the rounds' p10 when the rounds
	 * are one cycle each). */
	double first_page_ticks, ticks_per_page_p10, ticks_per_page_median, ticks_per_page_p90;
};

/* One process's share of a result. */
struct bench_process_value {
	unsigned process;
	unsigned rounds, disturbed;
	double ns_per_page; /* median of its undisturbed rounds; 0 when all were disturbed */
};

/* Why a result is unstable (bench_result.unstable; 0: stable), see
 * bench/estimate.h for the rules. */
enum {
	STABILITY_FEW_PROCESSES = 1u, /* too few processes with an undisturbed value */
	STABILITY_SPREAD = 2u,        /* their values spread too far */
	STABILITY_DISTURBED = 4u,     /* too many rounds disturbed */
	STABILITY_TIMER = 8u,         /* the timer cannot resolve a call */
	STABILITY_RUN_DISTURBED = 16u, /* too many of the whole run's rounds disturbed */
};

#define BENCH_ALIASES_MAX 6

struct bench_result {
	const char *hash;      /* the name shown: as asked, or the implementation's for -H all */
	const char *impl;      /* the implementation that ran (aliases resolved) */
	const char *aliases[BENCH_ALIASES_MAX]; /* other names of the plan that name impl (measured once) */
	unsigned naliases;
	char data[PAGE_SET_DATA_MAX]; /* "zero", "random", "file:PATH" */
	const char *cache;     /* "hot", "warm" or "cold" */
	const char *cold_by;   /* cold: "flush" or "size" (page_set_cold_by); NULL otherwise */
	uint32_t page_size;
	uint32_t misalign;
	uint64_t working_set_bytes;
	uint64_t set_pages;
	enum bench_timer timer; /* tags the per-timer part below */
	unsigned repeats;      /* rounds measured, every process's: fewer than planned when interrupted */
	unsigned repeats_requested; /* rounds per process */
	int interrupted;       /* a stop request cut the rounds short */
	uint64_t window_ns;    /* window, or rdtsc round length */
	uint64_t calls;        /* timed calls over all rounds */
	/* cfg.apart: a fence after each call (rdtsc's samples of one call
	 * have the counter's fenced reads around them either way). fence_ns:
	 * the median of the used rounds' fence_ns. */
	int apart;
	double fence_ns;
	struct bench_counter counter;
	/* Over the rounds used (undisturbed; every round when all were
	 * disturbed): best, min, max, mean, CV; median is the headline: the
	 * time of the median rate over processes, each one's the rate of its
	 * rounds' median (over_processes). */
	struct stats_summary ns_per_page;
	/* window, jiffies: the best of those rounds' uninterrupted_ns_per_page
	 * (the time a call takes where no interruption meets it, as the
	 * ceiling's short probes run); 0 where none was logged. */
	double uninterrupted_ns_best;
	struct bench_round *rounds;       /* repeats of them: process by process, in the order measured (owned) */
	size_t rounds_cap;
	struct bench_process_value *per_process; /* nprocesses of them, by process (owned) */
	unsigned nprocesses;
	unsigned processes_used;          /* processes with an undisturbed round */
	unsigned rounds_disturbed;
	/* the whole run's (every result's), for the reason: its rounds, those
	 * disturbed, and those whose core was shared from outside the machine;
	 * whether it read under a free core's floor throughout
	 * (disturb_reference_shared_throughout) */
	unsigned run_rounds, run_rounds_disturbed, run_rounds_outside;
	int run_shared_throughout;
	struct stats_interval over_processes; /* the per-process values (pages a second) and their median's interval */
	unsigned unstable;                /* STABILITY_* reasons; 0: stable */
	double core_cycles_per_page, ipc; /* medians over rounds with hardware counters; 0: none */
	/* This CPU's bound on the implementation at this page size (hot: in L1;
	 * cold: streamed from memory) and what binds it; 0 and NULL where there
	 * is none (not measured, or not modelled). Set by ceiling_bound_results. */
	double ceiling_bytes_per_s;
	const char *ceiling_limit;
	union {
		struct bench_jiffies_part jiffies; /* timer == BENCH_TIMER_JIFFIES */
		struct bench_rdtsc_part rdtsc;     /* timer == BENCH_TIMER_RDTSC */
		struct bench_ksmd_part ksmd;       /* timer == BENCH_TIMER_KSMD */
	};
};

/* The share of a counting round's time beyond its calls at its
 * uninterrupted pace (0..1), or -1 where its batches were not logged. */
static inline double bench_round_interrupted_share(const struct bench_round *r)
{
	if (r->uninterrupted_ns_per_page <= 0 || r->elapsed_ns <= 0)
		return -1;
	double lost = 1 - (double)r->calls * r->uninterrupted_ns_per_page / r->elapsed_ns;
	return lost > 0 ? lost : 0;
}

/* The one conversion from time per page to rate: 0 when ns is not positive. */
static inline double bench_bytes_per_s(uint32_t page_size, double ns_per_page)
{
	return ns_per_page > 0 ? page_size * 1e9 / ns_per_page : 0;
}

/* Counter ticks in ns. */
static inline double bench_ticks_ns(const struct bench_counter *c, double ticks)
{
	return ticks * 1e9 / c->hz;
}

/* A measurement in progress: a hash over a set with a timer (measure.c).
 * A run opens one per measurement and takes their rounds in turns. */
struct bench_session;
struct interference_probe;

struct bench_session *bench_session_open(const struct hash_impl *h, const struct page_set *set,
					 const struct bench_config *cfg, struct kb_err *err);
/* Untimed calls for cfg->warmup_ns (caches, predictors, clock); the first
 * also chooses the timer's batches. */
void bench_session_warm(struct bench_session *s);
/* A round into r (its figure, the timer's, the probe's; NULL probe: none).
 * 0, or 1 when a stop request cut it short: r is then no round. */
int bench_session_round(struct bench_session *s, struct interference_probe *probe, struct bench_round *r);
void bench_session_close(struct bench_session *s);

/* The timer's part of r from its used rounds (n >= 1). */
void bench_timer_aggregate(struct bench_result *r, const struct bench_round *const *used, size_t n);

/* What a result says before anything is timed. */
void bench_result_begin(struct bench_result *out, const struct hash_impl *h, const struct bench_config *cfg);

/* Appends a copy of r to out's rounds; -1 when memory runs out. */
int bench_result_add_round(struct bench_result *out, const struct bench_round *r);

/* Runs cfg's measurement of h over set into out (released with
 * bench_result_release), in this process: one warm-up, then the rounds
 * back to back, each with its interference, then the estimate. When a stop
 * is requested (bench_stop_request) the round in progress is dropped and
 * the measurement ends with the rounds completed so far, marked
 * interrupted; out->repeats is 0 if none was. */
int bench_measure(const struct hash_impl *h, const struct page_set *set, const struct bench_config *cfg,
		  struct bench_result *out, struct kb_err *err);

void bench_result_release(struct bench_result *r);

#endif
