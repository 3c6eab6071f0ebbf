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
	BENCH_TIMERS
};

const char *bench_timer_name(enum bench_timer t);
int bench_timer_parse(const char *name, enum bench_timer *out, struct kb_err *err);

#define BENCH_WINDOW_NS_DEFAULT 125000000u
#define BENCH_REPEAT_DEFAULT 5u
#define BENCH_HZ_DEFAULT 250u
#define BENCH_RDTSC_CALLS_MAX (1u << 18) /* per round: bounds the sample memory */
#define BENCH_REPEAT_MAX 1000u            /* rounds per measurement; each round's figure is kept */

struct bench_config {
	enum bench_timer timer;
	uint64_t window_ns;  /* window length; a round's length for rdtsc */
	uint64_t warmup_ns;  /* untimed calls before the rounds */
	unsigned repeat;     /* rounds */
	unsigned hz;         /* jiffies: emulated CONFIG_HZ */
	int align_tick;      /* jiffies: start on a tick edge (raid6), not anywhere (the KSM patch) */
	int clean_vector_state; /* vzeroupper before and after the hash's rounds */
	/* Called before each round (round counts from 0), e.g. for a progress
	 * line; NULL for none. Runs outside the timed loops. */
	void (*on_round)(void *arg, const struct hash_impl *h, unsigned round, unsigned rounds);
	void *on_round_arg;
};

/* Defaults: window, 125 ms, 5 rounds, HZ 250, clean vector state. */
void bench_config_default(struct bench_config *cfg);

/* One round as measured. Per-round facts besides the figure (interference,
 * clock) belong here. */
struct bench_round {
	double ns_per_page; /* window, jiffies: elapsed / calls; rdtsc: the round's median call */
};

/* The counter the rdtsc timer reads (recorded for every timer). */
struct bench_counter {
	int is_tsc;            /* 1: the TSC; 0: CLOCK_MONOTONIC ns */
	double hz;             /* ticks per second */
	double overhead_ticks; /* subtracted from each timed call */
};

/* What only the jiffies timer measures. */
struct bench_jiffies_part {
	unsigned hz, window_jiffies;
	int align_tick;
	long kernel_mb_per_s_best, kernel_mb_per_s_median; /* count * PAGE_SIZE >> 17 */
	double bias_percent_median; /* the kernel figure against the true rate */
	double window_ns_median;    /* the window's true length */
};

/* What only the rdtsc timer measures: per-call ticks over all the rounds,
 * the timer's overhead subtracted. The mean includes interruptions (as a
 * window's wall time does); the median and percentiles leave them out. */
struct bench_rdtsc_part {
	double ticks_per_call_median, ticks_per_call_p10, ticks_per_call_p90, ticks_per_call_mean;
};

struct bench_result {
	const char *hash;      /* the name asked for */
	const char *impl;      /* the implementation that ran (aliases resolved) */
	char data[PAGE_SET_DATA_MAX]; /* "zero", "random", "file:PATH" */
	const char *cache;     /* "hot" or "cold" */
	uint32_t page_size;
	uint32_t misalign;
	uint64_t working_set_bytes;
	uint64_t set_pages;
	enum bench_timer timer; /* tags the per-timer part below */
	unsigned repeats;      /* rounds measured: fewer than asked when interrupted */
	unsigned repeats_requested;
	int interrupted;       /* a stop request cut the rounds short */
	uint64_t window_ns;    /* window, or rdtsc round length */
	uint64_t calls;        /* timed calls over all rounds */
	struct bench_counter counter;
	struct stats_summary ns_per_page; /* over the rounds */
	struct bench_round *rounds;       /* repeats of them, in the order measured (owned) */
	/* This CPU's bound on the implementation at this page size (hot: in L1;
	 * cold: streamed from memory) and what binds it; 0 and NULL where there
	 * is none (not measured, or not modelled). Set by ceiling_bound_results. */
	double ceiling_bytes_per_s;
	const char *ceiling_limit;
	union {
		struct bench_jiffies_part jiffies; /* timer == BENCH_TIMER_JIFFIES */
		struct bench_rdtsc_part rdtsc;     /* timer == BENCH_TIMER_RDTSC */
	};
};

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

/* Runs cfg's measurement of h over set into out (released with
 * bench_result_release). When a stop is requested (bench_stop_request) the
 * round in progress is dropped and the measurement ends with the rounds
 * completed so far, marked interrupted; out->repeats is 0 if none was. */
int bench_measure(const struct hash_impl *h, const struct page_set *set, const struct bench_config *cfg,
		  struct bench_result *out, struct kb_err *err);

void bench_result_release(struct bench_result *r);

#endif
