/* The rdtsc timer: every call timed with serialized counter reads; a
 * round's figure is its median call, and the calls of all rounds give the
 * percentiles and the mean (see timer.h). */
#include <stdlib.h>

#include "timed_loop.h"
#include "timer.h"

struct rdtsc_state {
	uint32_t *ticks; /* every call of every round, raw (overhead included) */
	size_t *calls;   /* per round */
};

static int rdtsc_begin(struct bench_session *s, struct kb_err *err)
{
	unsigned n = s->cfg->repeat;
	struct rdtsc_state *t = calloc(1, sizeof(*t));

	if (t) {
		t->ticks = malloc((size_t)n * BENCH_RDTSC_CALLS_MAX * sizeof(uint32_t));
		t->calls = calloc(n, sizeof(size_t));
	}
	s->timer = t;
	if (!t || !t->ticks || !t->calls)
		return kb_fail(err, "out of memory for %u rounds", n);
	return 0;
}

/* Ticks less the timer's overhead, never below zero. */
static double net(const struct bench_session *s, double ticks)
{
	double v = ticks - s->counter->overhead_ticks;
	return v > 0 ? v : 0;
}

static uint64_t rdtsc_round(struct bench_session *s, unsigned r)
{
	struct rdtsc_state *t = s->timer;
	uint32_t *ticks = t->ticks + (size_t)r * BENCH_RDTSC_CALLS_MAX;
	uint64_t round_ticks = (uint64_t)((double)s->cfg->window_ns * s->counter->hz / 1e9);
	size_t calls = loop_time_calls(s->fn, s->set, &s->pos, round_ticks, ticks, BENCH_RDTSC_CALLS_MAX, &s->sink);

	t->calls[r] = calls;
	s->ns_per_page[r] = net(s, stats_percentile_u32(ticks, calls, 50)) * 1e9 / s->counter->hz;
	return calls;
}

static void rdtsc_finish(struct bench_session *s, unsigned rounds, struct bench_result *out)
{
	struct rdtsc_state *t = s->timer;
	size_t all = 0;
	double sum = 0;

	/* The rounds' calls, packed after one another. */
	for (unsigned r = 0; r < rounds; r++) {
		const uint32_t *src = t->ticks + (size_t)r * BENCH_RDTSC_CALLS_MAX;
		for (size_t i = 0; i < t->calls[r]; i++) {
			sum += src[i];
			t->ticks[all++] = src[i];
		}
	}
	out->rdtsc.ticks_per_call_mean = net(s, sum / (double)all);
	out->rdtsc.ticks_per_call_p10 = net(s, stats_percentile_u32(t->ticks, all, 10));
	out->rdtsc.ticks_per_call_median = net(s, stats_percentile_u32(t->ticks, all, 50));
	out->rdtsc.ticks_per_call_p90 = net(s, stats_percentile_u32(t->ticks, all, 90));
}

static void rdtsc_end(struct bench_session *s)
{
	struct rdtsc_state *t = s->timer;

	if (t) {
		free(t->ticks);
		free(t->calls);
	}
	free(t);
}

const struct bench_timer_ops bench_timer_rdtsc = {
	"rdtsc", rdtsc_begin, rdtsc_round, rdtsc_finish, rdtsc_end,
};
