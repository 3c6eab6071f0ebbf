/* The jiffies timer: the v2 KSM patch's self-test, HZ>>3 emulated jiffies
 * per round, its MB/s figure and that figure's bias (see timer.h). */
#include <stdlib.h>

#include "jiffies.h"
#include "timed_loop.h"
#include "timer.h"

struct jiffies_state {
	uint64_t phase; /* PRNG state of the start delay (not aligned to a tick) */
};

static int jiffies_begin(struct bench_session *s, struct kb_err *err)
{
	struct jiffies_state *j;

	if (!jiffies_hz_valid(s->cfg->hz))
		return kb_fail(err, "HZ %u is out of range (8 to 10000)", s->cfg->hz);
	j = calloc(1, sizeof(*j));
	if (!j)
		return kb_fail(err, "out of memory");
	j->phase = 0x9e3779b97f4a7c15ull;
	s->timer = j;
	return 0;
}

/* Where the round's window starts: anywhere in a tick, as a boot-time
 * self-test sees it (a round ends on a tick edge, so the next would start
 * just after one: a pseudo-random delay of up to one jiffy, spent hashing,
 * untimed); or on a tick edge, raid6's way, so the window is whole. */
static uint64_t window_start(struct bench_session *s, struct jiffies_state *j, uint64_t *j0)
{
	unsigned hz = s->cfg->hz;
	uint64_t t0 = clock_now_ns();

	*j0 = jiffies_from_ns(t0, hz);
	if (!s->cfg->align_tick) {
		struct loop_count skip;
		uint64_t jiffy_ns = 1000000000u / hz;
		j->phase = j->phase * 6364136223846793005ull + 1442695040888963407ull;
		loop_count_until(s->fn, s->set, &s->pos, t0, t0 + (j->phase >> 33) % jiffy_ns, 1, 0, NULL, &skip);
		s->sink ^= skip.sink;
		t0 = clock_now_ns();
		*j0 = jiffies_from_ns(t0, hz);
	} else {
		uint64_t next;
		while ((next = jiffies_from_ns(t0 = clock_now_ns(), hz)) == *j0)
			;
		*j0 = next;
	}
	return t0;
}

static void jiffies_round(struct bench_session *s, struct bench_round *r)
{
	struct jiffies_state *j = s->timer;
	unsigned hz = s->cfg->hz;
	struct loop_count lc;
	uint64_t j0;
	uint64_t t0 = window_start(s, j, &j0);

	/* The patch: je = jiffies + (HZ >> 3); while (time_before(jiffies, je)) ... */
	uint64_t je = j0 + jiffies_window(hz);
	loop_count_until(s->fn, s->set, &s->pos, t0, jiffies_start_ns(je, hz), s->batch, 0, bench_session_log(s),
			 &lc);
	bench_round_counted(s, &lc, r);
}

static double jiffies_round_ns(const struct bench_session *s)
{
	return (jiffies_window(s->cfg->hz) + 1) * 1e9 / s->cfg->hz;
}

/* The kernel's figures of the used rounds: the best (the patch printed one
 * round) and the median; the bias and the window's length, medians. */
static void jiffies_aggregate(struct bench_result *out, const struct bench_round *const *used, size_t n)
{
	struct bench_jiffies_part *p = &out->jiffies;
	double *v = malloc(n * sizeof(double));
	uint32_t ps = out->page_size;

	p->kernel_mb_per_s_best = 0;
	for (size_t i = 0; i < n; i++) {
		long k = jiffies_kernel_mb_per_s(used[i]->calls, ps);
		if (k > p->kernel_mb_per_s_best)
			p->kernel_mb_per_s_best = k;
	}
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		v[i] = (double)jiffies_kernel_mb_per_s(used[i]->calls, ps);
	p->kernel_mb_per_s_median = (long)bench_median(v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = jiffies_bias_percent(used[i]->calls, ps, (uint64_t)used[i]->elapsed_ns);
	p->bias_percent_median = bench_median(v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = used[i]->elapsed_ns;
	p->window_ns_median = bench_median(v, n);
	free(v);
}

static void jiffies_end(struct bench_session *s)
{
	free(s->timer);
}

const struct bench_timer_ops bench_timer_jiffies = {
	.name = "jiffies", .round_ns = jiffies_round_ns, .begin = jiffies_begin, .round = jiffies_round,
	.aggregate = jiffies_aggregate,
	.end = jiffies_end,
};
