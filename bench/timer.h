/* The timers behind a session (measure.c): one file per timer, each a table
 * of the steps measure.c calls. A measurement in progress is a session; a
 * timer keeps what only it needs between rounds in its own state. */
#ifndef KB_TIMER_H
#define KB_TIMER_H

#include "../common/err.h"
#include "bench.h"
#include "clock.h"

struct bench_session {
	const struct hash_impl *hash;
	hash_fn fn;
	const struct page_set *set;
	const struct bench_config *cfg;
	const struct counter_info *counter;
	size_t pos;          /* where in the set's order the next call starts */
	uint64_t batch;      /* calls per clock read (window, jiffies) or per timed sample (rdtsc) */
	double call_ns;      /* the first warm-up's time per call */
	int warmed;
	uint64_t sink;       /* every hash result, published at the end */
	void *timer;         /* the timer's own state */
};

/* NULL steps are skipped. */
struct bench_timer_ops {
	const char *name;
	/* Checks cfg and allocates the timer's state. */
	int (*begin)(struct bench_session *s, struct kb_err *err);
	/* After the first warm-up (s->call_ns known): the timer's batches. */
	void (*calibrate)(struct bench_session *s);
	/* A round: sets r's ns_per_page, calls, elapsed_ns (and the timer's
	 * own figures). A round a stop request cuts short is dropped by
	 * measure.c. */
	void (*round)(struct bench_session *s, struct bench_round *r);
	/* The timer's part of out from the rounds used (n >= 1). */
	void (*aggregate)(struct bench_result *out, const struct bench_round *const *used, size_t n);
	void (*end)(struct bench_session *s);
};

extern const struct bench_timer_ops bench_timer_window, bench_timer_jiffies, bench_timer_rdtsc, bench_timer_ksmd;

/* The median of n values (sorted in place). */
double bench_median(double *v, size_t n);

/* The double at offset in a bench_round (offsetof(struct bench_round,
 * ticks_p10)) over used[0..n), grouped by process (as estimate_result
 * orders them): the median over processes of each one's median, as the
 * headline is taken; 0 if memory runs out. */
double bench_rounds_median(const struct bench_round *const *used, size_t n, size_t offset);

#endif
