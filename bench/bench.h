/* Measuring one hash over one page set with one timer: warm-up, repeated
 * rounds, statistics. Results are values; nothing here prints. */
#ifndef KB_BENCH_H
#define KB_BENCH_H

#include <stdint.h>

#include "../datasets/page_set.h"
#include "../hashes/hash.h"
#include "stats.h"

enum bench_timer {
	BENCH_TIMER_WINDOW,  /* calls counted in a CLOCK_MONOTONIC window */
	BENCH_TIMER_JIFFIES, /* the kernel self-test: HZ>>3 emulated jiffies */
	BENCH_TIMER_RDTSC,   /* every call timed with serialized TSC reads */
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

struct bench_result {
	const char *hash;      /* the name asked for */
	const char *impl;      /* the implementation that ran (aliases resolved) */
	char data[300];        /* "zero", "random", "file:PATH" */
	const char *cache;     /* "hot" or "cold" */
	uint32_t page_size;
	uint32_t misalign;
	uint64_t working_set_bytes;
	uint64_t set_pages;
	enum bench_timer timer;
	unsigned repeats;      /* rounds measured: fewer than asked when interrupted */
	unsigned repeats_requested;
	int interrupted;       /* a stop request (bench_stop_requested) cut the rounds short */
	uint64_t window_ns;    /* window, or rdtsc round length */
	uint64_t calls;        /* timed calls over all rounds */

	/* Per round: ns per page (rdtsc: the round's per-call median). */
	struct stats_summary ns_per_page;
	double ns_per_page_rounds[BENCH_REPEAT_MAX]; /* in the order measured; repeats of them */
	double bytes_per_second_best, bytes_per_second_median;

	/* jiffies */
	unsigned hz, window_jiffies;
	int align_tick;
	long kernel_mb_per_s_best, kernel_mb_per_s_median; /* count * PAGE_SIZE >> 17 */
	double bias_percent_median;                        /* kernel figure against the true rate */
	double window_ns_median;                           /* the window's true length */

	/* rdtsc (and counter facts for every timer) */
	int counter_is_tsc;
	double counter_hz;
	double overhead_ticks;       /* subtracted from each call */
	double ticks_per_call_median, ticks_per_call_p10, ticks_per_call_p90;
	/* The mean call, interruptions included (as a window's wall time includes
	 * them); the median leaves them out. */
	double ticks_per_call_mean;
};

/* Runs cfg's measurement of h over set into out. When a stop is requested
 * (bench_stop_request, e.g. from a SIGINT handler) the round in progress is
 * dropped and the measurement ends with the rounds completed so far, marked
 * interrupted; out->repeats is 0 if none was. */
int bench_measure(const struct hash_impl *h, const struct page_set *set, const struct bench_config *cfg,
		  struct bench_result *out, struct kb_err *err);

/* Stopping a run early, from a signal handler: bench_stop_request() only
 * stores to a volatile sig_atomic_t (async-signal-safe); the timed loops
 * check it once per batch (window, jiffies) or per call (rdtsc). */
void bench_stop_request(int signo);
int bench_stop_requested(void); /* the signal number asked with, 0 if none */
void bench_stop_reset(void);

#endif
