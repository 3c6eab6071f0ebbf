/* The timers behind bench_measure (measure.c): one file per timer, each a
 * table of the steps measure.c calls. A measurement in progress is a
 * session; a timer keeps what only it records per round in its own state. */
#ifndef KB_TIMER_H
#define KB_TIMER_H

#include "../common/err.h"
#include "bench.h"
#include "clock.h"

struct bench_session {
	hash_fn fn;
	const struct page_set *set;
	const struct bench_config *cfg;
	const struct counter_info *counter;
	size_t pos;          /* where in the set's order the next call starts */
	uint64_t batch;      /* calls per clock read (window, jiffies) */
	uint64_t sink;       /* every hash result, published at the end */
	double *ns_per_page; /* per round: the round's figure */
	void *timer;         /* the timer's own per-round records */
};

/* NULL steps are skipped. */
struct bench_timer_ops {
	const char *name;
	/* Checks cfg and allocates the timer's records for cfg->repeat rounds. */
	int (*begin)(struct bench_session *s, struct kb_err *err);
	/* Round r: sets s->ns_per_page[r], returns the calls made. A round a
	 * stop request cuts short is not counted: measure.c ignores it. */
	uint64_t (*round)(struct bench_session *s, unsigned r);
	/* The timer's part of out from the first rounds rounds (at least one). */
	void (*finish)(struct bench_session *s, unsigned rounds, struct bench_result *out);
	void (*end)(struct bench_session *s);
};

extern const struct bench_timer_ops bench_timer_window, bench_timer_jiffies, bench_timer_rdtsc;

/* The median of n values (sorted in place). */
double bench_median(double *v, size_t n);

#endif
