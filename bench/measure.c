/* Measurements (see bench.h): a result's start and rounds, a session's
 * checks, warm-ups and rounds of the chosen timer (timer_*.c behind
 * timer.h, their table in timers.c), each round with its interference;
 * bench_measure, the sequential measurement of one hash. The loops
 * themselves live in loop_count.c and loop_rdtsc.c. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../hashes/cpu_features.h"
#include "estimate.h"
#include "fence.h"
#include "interference.h"
#include "timed_loop.h"
#include "timer.h"

volatile uint64_t bench_sink;

/* A clock read per this much hashing: its cost is ~0.1% of the time, and a
 * jiffies window overshoots its deadline by at most this. */
#define BATCH_TARGET_NS 20000.0
/* Calls of the first warm-up timed one by one for the batch size (64 KiB). */
#define WARMUP_CALLS_LOGGED 16384u

void bench_result_release(struct bench_result *r)
{
	free(r->rounds);
	free(r->per_process);
	r->rounds = NULL;
	r->per_process = NULL;
	r->rounds_cap = 0;
	r->nprocesses = 0;
}

void bench_result_begin(struct bench_result *out, const struct hash_impl *h, const struct bench_config *cfg)
{
	const struct counter_info *ci = counter_info();

	memset(out, 0, sizeof(*out));
	out->hash = h->name;
	out->impl = hash_resolve(h)->name;
	out->timer = cfg->timer;
	out->repeats_requested = cfg->repeat;
	out->window_ns = cfg->window_ns;
	out->apart = cfg->apart;
	out->counter.is_tsc = ci->is_tsc;
	out->counter.hz = ci->hz;
	out->counter.overhead_ticks = ci->overhead_ticks;
	out->counter.step_ticks = ci->step_ticks;
	if (cfg->timer == BENCH_TIMER_JIFFIES) {
		out->jiffies.hz = cfg->hz;
		out->jiffies.window_jiffies = cfg->hz >> 3;
		out->jiffies.align_tick = cfg->align_tick;
	}
	if (cfg->timer == BENCH_TIMER_KSMD) {
		out->ksmd.pages_to_scan = cfg->ksmd_pages;
		out->ksmd.sleep_ms = cfg->ksmd_sleep_ms;
	}
}

int bench_result_add_round(struct bench_result *out, const struct bench_round *r)
{
	struct bench_round *rounds = kb_grow(out->rounds, &out->rounds_cap, (size_t)out->repeats + 1, sizeof(*rounds), 8);
	if (!rounds)
		return -1;
	out->rounds = rounds;
	out->rounds[out->repeats++] = *r;
	return 0;
}

struct bench_session *bench_session_open(const struct hash_impl *h, const struct page_set *set,
					 const struct bench_config *cfg, struct kb_err *err)
{
	struct bench_session *s;

	if (bench_config_check(cfg, err) || hash_check_len(h, set->page_size, err))
		return NULL;
	if (!(s = calloc(1, sizeof(*s))))
		return kb_fail(err, "out of memory"), NULL;
	*s = (struct bench_session){ .hash = h, .fn = hash_resolve(h)->fn, .set = set, .cfg = cfg,
				     .counter = counter_info(), .batch = 1 };
	const struct bench_timer_ops *t = bench_timer_ops_of(cfg->timer);
	if (t->begin && t->begin(s, err)) {
		free(s);
		return NULL;
	}
	return s;
}

void bench_session_warm(struct bench_session *s)
{
	const struct bench_timer_ops *t = bench_timer_ops_of(s->cfg->timer);
	struct loop_count warm;
	struct batch_log calls = { 0 };

	/* The first warm-up times each call: an interrupt or a preemption in it
	 * must not set the session's batches (one of 4 ms among the first calls
	 * of a 1 ms warm-up made them single calls, a clock read each, and
	 * their log too short for the round). Its first calls are enough. */
	if (!s->warmed)
		batch_log_reserve(&calls, WARMUP_CALLS_LOGGED);
	/* The previous hash may have left dirty upper vector state behind. */
	if (s->cfg->clean_vector_state)
		cpu_vector_state_clean();
	uint64_t t0 = clock_now_ns();
	loop_count_until(s->fn, s->set, &s->pos, t0, t0 + (s->cfg->warmup_ns ? s->cfg->warmup_ns : 1), 1, s->cfg->apart,
			 calls.cap ? &calls : NULL, &warm);
	s->sink ^= warm.sink;
	if (s->warmed)
		return;
	/* On the measuring CPU, before the process's first round. */
	if (s->cfg->apart)
		s->fence_ns = bench_fence_overhead_ns();
	/* The first warm-up sets the batches: calls per clock read, and the
	 * timer's; its uninterrupted pace, or (no memory for the log) its whole.
	 * A clock coarser than a call, or a cold set whose misses are not
	 * interruptions, reads that pace somewhat low: the batches then run
	 * somewhat longer than their target, which costs nothing. */
	s->call_ns = batch_log_uninterrupted_ns(&calls, 0, 0);
	if (s->call_ns <= 0)
		s->call_ns = (double)(warm.end_ns - warm.start_ns) / (double)warm.calls;
	batch_log_close(&calls);
	s->batch = s->call_ns > 0 && s->call_ns < BATCH_TARGET_NS ? (uint64_t)(BATCH_TARGET_NS / s->call_ns) : 1;
	/* Without memory for it the rounds go unlogged (no uninterrupted figure). */
	if (t->round_ns)
		batch_log_open(&s->log, t->round_ns(s), (double)s->batch * s->call_ns);
	if (t->calibrate)
		t->calibrate(s);
	s->warmed = 1;
}

void bench_round_counted(struct bench_session *s, const struct loop_count *lc, struct bench_round *r)
{
	struct batch_log *log = bench_session_log(s);

	s->sink ^= lc->sink;
	r->calls = lc->calls;
	r->elapsed_ns = (double)(lc->end_ns - lc->start_ns);
	r->ns_per_page = r->elapsed_ns / (double)lc->calls;
	if (log) {
		/* A round faster than the warm-up that sized its log outruns it. */
		uint64_t batches = lc->calls / s->batch, unlogged = batches > log->n ? batches - log->n : 0;
		double unlogged_ns = r->elapsed_ns;
		for (size_t i = 0; unlogged && i < log->n; i++)
			unlogged_ns -= log->ns[i];
		r->uninterrupted_ns_per_page =
			batch_log_uninterrupted_ns(log, unlogged, unlogged && unlogged_ns > 0 ? unlogged_ns : 0) /
			(double)s->batch;
	}
	if (s->cfg->apart) {
		r->fence_ns = s->fence_ns;
		r->ns_per_page = bench_less_fence(r->ns_per_page, s->fence_ns);
		if (r->uninterrupted_ns_per_page > 0)
			r->uninterrupted_ns_per_page = bench_less_fence(r->uninterrupted_ns_per_page, s->fence_ns);
	}
}

double bench_less_fence(double fenced, double fence)
{
	double v = fenced - fence;
	return v > fenced / 100 ? v : fenced / 100;
}

int bench_session_round(struct bench_session *s, struct interference_probe *probe, struct bench_round *r)
{
	struct interference_mark a, b;

	memset(r, 0, sizeof(*r));
	if (!s->warmed)
		bench_session_warm(s);
	if (probe)
		interference_mark(probe, &a, 1, 0);
	bench_timer_ops_of(s->cfg->timer)->round(s, r);
	if (probe)
		interference_mark(probe, &b, 1, 1);
	if (s->cfg->clean_vector_state)
		cpu_vector_state_clean();
	if (bench_stop_requested() || r->calls == 0)
		return 1;
	if (probe)
		interference_measure(probe, &a, &b, r);
	return 0;
}

void bench_session_close(struct bench_session *s)
{
	if (!s)
		return;
	if (bench_timer_ops_of(s->cfg->timer)->end)
		bench_timer_ops_of(s->cfg->timer)->end(s);
	batch_log_close(&s->log);
	bench_sink ^= s->sink;
	free(s);
}

int bench_measure(const struct hash_impl *h, const struct page_set *set, const struct bench_config *cfg,
		  struct bench_result *out, struct kb_err *err)
{
	struct bench_session *s;
	struct interference_probe probe;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!(s = bench_session_open(h, set, cfg, err)))
		return -1;
	bench_result_begin(out, h, cfg);
	memcpy(out->data, set->data, sizeof(out->data));
	out->cache = set->cache;
	out->page_size = set->page_size;
	out->misalign = set->misalign;
	out->working_set_bytes = set->working_set_bytes;
	out->set_pages = set->count;
	interference_open(&probe);
	bench_session_warm(s);
	for (unsigned i = 0; i < cfg->repeat && rc == 0; i++) {
		struct bench_round r;
		if (bench_session_round(s, &probe, &r))
			break;
		r.round = r.sequence = i;
		if (bench_result_add_round(out, &r))
			rc = kb_fail(err, "out of memory");
	}
	interference_close(&probe);
	bench_session_close(s);
	out->interrupted = out->repeats < cfg->repeat;
	if (rc == 0 && estimate_results(out, 1, &disturb_default, &estimate_default))
		rc = kb_fail(err, "out of memory");
	if (rc)
		bench_result_release(out);
	return rc;
}
