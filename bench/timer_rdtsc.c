/* The rdtsc timer: calls timed with serialized counter reads, alone or, when
 * the counter's step is over 1% of a call, in batches; a round's figure is
 * its median per-call time (see timer.h). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "timed_loop.h"
#include "timer.h"

/* One round's samples at a time: the run is single-threaded, and a round's
 * figures are taken before the next round of any measurement starts. */
static uint32_t round_ticks[BENCH_RDTSC_CALLS_MAX];

uint64_t bench_rdtsc_batch(double step_ticks, double call_ticks)
{
	/* Half the share aimed at: the warm-up's estimate of a call may be off
	 * (by a factor of 2 and the step stays within 1% of what is timed). */
	double target = BENCH_RDTSC_STEP_SHARE / 2 * call_ticks;

	if (step_ticks <= 1 || call_ticks <= 0 || step_ticks <= target)
		return 1;
	double b = ceil(step_ticks / target);
	return b >= BENCH_RDTSC_BATCH_MAX ? BENCH_RDTSC_BATCH_MAX : (uint64_t)b;
}

static void rdtsc_calibrate(struct bench_session *s)
{
	s->batch = bench_rdtsc_batch(s->counter->step_ticks, s->call_ns * s->counter->hz / 1e9);
}

/* Whether the calls of a sample have fences of their own: apart, in
 * batches (a call timed alone has the counter's reads around it). */
static int fenced(const struct bench_session *s)
{
	return s->cfg->apart && s->batch > 1;
}

/* A sample's ticks less the timer's overhead, never below zero, per call;
 * fenced, less the fence too. */
static double per_call(const struct bench_session *s, double ticks)
{
	double v = ticks - s->counter->overhead_ticks;
	if (v <= 0)
		return 0;
	v /= (double)s->batch;
	return fenced(s) ? bench_less_fence(v, s->fence_ns * s->counter->hz / 1e9) : v;
}

static void rdtsc_round(struct bench_session *s, struct bench_round *r)
{
	struct loop_samples ls = {
		.round_ticks = (uint64_t)((double)s->cfg->window_ns * s->counter->hz / 1e9),
		.batch = s->batch,
		.simulated_step = s->counter->simulated_step,
		.max_samples = BENCH_RDTSC_CALLS_MAX,
		.apart = s->cfg->apart,
	};
	size_t n = loop_time_calls(s->fn, s->set, &s->pos, &ls, round_ticks, &s->sink);
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += round_ticks[i];
	r->batch = s->batch;
	r->fence_ns = fenced(s) ? s->fence_ns : 0;
	r->calls = (uint64_t)n * s->batch;
	r->elapsed_ns = sum * 1e9 / s->counter->hz;
	r->ticks_mean = n ? per_call(s, sum / (double)n) : 0;
	r->ticks_p10 = per_call(s, stats_percentile_u32(round_ticks, n, 10)); /* sorts */
	r->ticks_median = per_call(s, stats_percentile_u32(round_ticks, n, 50));
	r->ticks_p90 = per_call(s, stats_percentile_u32(round_ticks, n, 90));
	r->ns_per_page = r->ticks_median * 1e9 / s->counter->hz;
}

static void rdtsc_aggregate(struct bench_result *out, const struct bench_round *const *used, size_t n)
{
	struct bench_rdtsc_part *p = &out->rdtsc;
	uint64_t batch = 1;

	for (size_t i = 0; i < n; i++)
		if (used[i]->batch > batch)
			batch = used[i]->batch;
	p->batch_calls = batch;
	p->resolution_ticks = out->counter.step_ticks / (double)batch;
	/* From the rounds' ticks, as p10 and p90 are, not converted back from
	 * the headline's ns: with the counter's steps the three are often
	 * equal, and the round trip could put the median an ulp above p90. */
	p->ticks_per_call_median = bench_rounds_median(used, n, offsetof(struct bench_round, ticks_median));
	p->ticks_per_call_p10 = bench_rounds_median(used, n, offsetof(struct bench_round, ticks_p10));
	p->ticks_per_call_p90 = bench_rounds_median(used, n, offsetof(struct bench_round, ticks_p90));
	p->ticks_per_call_mean = bench_rounds_median(used, n, offsetof(struct bench_round, ticks_mean));
}

const struct bench_timer_ops bench_timer_rdtsc = {
	.name = "rdtsc", .name_apart = "rdtsc apart", .calibrate = rdtsc_calibrate, .round = rdtsc_round,
	.aggregate = rdtsc_aggregate,
};
