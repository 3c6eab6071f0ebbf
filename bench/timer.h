/* The timers behind a session (measure.c): one file per timer, each a table
 * of the steps measure.c calls. A measurement in progress is a session; a
 * timer keeps what only it needs between rounds in its own state. */
#ifndef KB_TIMER_H
#define KB_TIMER_H

#include "../common/err.h"
#include "batch_log.h"
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
	double fence_ns;     /* apart: the fence's cost (bench_fence_overhead_ns) */
	int warmed;
	uint64_t sink;       /* every hash result, published at the end */
	struct batch_log log; /* window, jiffies: the round's batches (empty: not logged) */
	void *timer;         /* the timer's own state */
};

/* NULL steps are skipped. */
struct bench_timer_ops {
	const char *name;
	const char *name_apart; /* the name with calls apart; NULL: never apart */
	/* A counting timer: the length of its round in ns (for the batch log,
	 * opened after the first warm-up); NULL for the others. */
	double (*round_ns)(const struct bench_session *s);
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

struct loop_count;

/* A counting round's figures from its loop (window, jiffies): calls,
 * elapsed_ns, ns_per_page and, where the batches were logged,
 * uninterrupted_ns_per_page. */
void bench_round_counted(struct bench_session *s, const struct loop_count *lc, struct bench_round *r);

/* The session's batch log, or NULL where the timer keeps none. */
static inline struct batch_log *bench_session_log(struct bench_session *s)
{
	return s->log.ns ? &s->log : NULL;
}

extern const struct bench_timer_ops bench_timer_window, bench_timer_jiffies, bench_timer_rdtsc, bench_timer_ksmd;

/* The ops of timer t (< BENCH_TIMERS), from the table in timers.c. */
const struct bench_timer_ops *bench_timer_ops_of(enum bench_timer t);

/* A fenced call's time less the fence's (both in the same unit), never
 * below a hundredth of it: what a call took apart. */
double bench_less_fence(double fenced, double fence);

/* The median of n values (sorted in place). */
double bench_median(double *v, size_t n);

/* The double at offset in a bench_round (offsetof(struct bench_round,
 * ticks_p10)) over used[0..n), grouped by process (as estimate_result
 * orders them): the median over processes of each one's median, as the
 * headline is taken; 0 if memory runs out. */
double bench_rounds_median(const struct bench_round *const *used, size_t n, size_t offset);

struct ksmd_cycle_ticks;

/* A batch whose ticks per page are over BATCH_INTERRUPTED_FACTOR times the
 * median batch's was interrupted; the first page, which pays the wake-up
 * (1.2-4.4 times the median page on the Zen 5 VM of docs/measurement.md,
 * 20-100 times when interrupted), when over this factor times it. */
#define KSMD_FIRST_INTERRUPTED_FACTOR 8.0

/* The ksmd timer (timer_ksmd.c): a cycle's ticks per page (its ticks from
 * loop_ksmd_cycle, timed_loop.h), over the first page and every batch but
 * the interrupted ones, less overhead (one counter read pair) once and
 * fence (apart; else 0) for each page of the batches kept. The pages left
 * out are added to *left_out. */
double ksmd_cycle_ticks_per_page(const struct ksmd_cycle_ticks *t, double overhead, double fence,
				 unsigned *left_out);

#endif
